import FoundationEssentials

/// Reads and checks an import file's rows on a second thread, a few batches ahead of the
/// caller, so parsing overlaps with writing to the store. Rows come out in file order, each
/// as a checked word or the error reading or checking it raised, exactly as a loop over
/// `WordFileReader.nextRow()` and `ImportedWord(row:defaultBook:)` would see them.
///
/// Always call `finish()`, also when giving up early: it stops the thread and hands the
/// reader back.
public final class BackgroundWordReader: @unchecked Sendable {
    /// One row's outcome.
    public enum Item {
        case word(ImportedWord)
        case failed(any Error)
    }

    private static let batchSize = 256

    private let batches: BackgroundBatches<[Item]>
    /// The reader: the thread's until it ends, the caller's after `finish()`.
    private let source: ReaderBox

    // The caller's only: the batch being handed out, last row first (each is moved out, not copied).
    private var current: [Item] = []

    /// Starts reading `reader` at once. Rows naming no book get `defaultBookId`, else `defaultBook`.
    public init(_ reader: WordFileReader, defaultBook: String?, defaultBookId: UUID? = nil) {
        let source = ReaderBox(reader)
        self.source = source
        batches = BackgroundBatches(ahead: 8) { hand in
            Self.produce(from: source, defaultBook: defaultBook, defaultBookId: defaultBookId, hand: hand)
        }
    }

    /// The next row's outcome, or nil after the last row (or after an error that ends the file).
    public func next() -> Item? {
        if current.isEmpty {
            // The producer throws nothing: its errors are items.
            guard let batch = try? batches.next() else { return nil }
            current = batch
        }
        return current.popLast()
    }

    /// Stops reading (when the thread is still going) and returns the reader, with the
    /// unknown columns it met.
    public func finish() -> WordFileReader {
        batches.finish()
        return source.reader
    }

    private static func produce(from source: ReaderBox, defaultBook: String?, defaultBookId: UUID?,
                                hand: BackgroundBatches<[Item]>.Hand) {
        // Each batch goes out last row first: the caller takes rows off its end.
        var batch: [Item] = []
        batch.reserveCapacity(batchSize)
        var ended = false
        while !ended {
            do {
                guard let row = try source.reader.nextRow() else { break }
                batch.append(.word(try ImportedWord(row: row, defaultBook: defaultBook, defaultBookId: defaultBookId)))
            } catch {
                batch.append(.failed(error))
                // A bad record lets reading go on; anything else (an unreadable file) ends it.
                ended = (error as? ImportError)?.skippable == nil
            }
            if batch.count == batchSize {
                batch.reverse()
                guard hand(batch) else { return }
                batch.removeAll(keepingCapacity: true)
            }
        }
        batch.reverse()
        if !batch.isEmpty { _ = hand(batch) }
    }
}

/// The reader, shared by reference between the reading thread and the caller (one at a time).
private final class ReaderBox: @unchecked Sendable {
    var reader: WordFileReader
    init(_ reader: WordFileReader) { self.reader = reader }
}
