import Foundation

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
    private static let batchesAhead = 8

    // Shared by both threads, guarded by `condition`.
    private let condition = NSCondition()
    private var ready: [[Item]] = []
    private var producing = true
    private var cancelled = false

    // The thread's until `done` is signalled, the caller's afterwards.
    private var reader: WordFileReader
    private let done = DispatchSemaphore(value: 0)

    // The caller's only.
    private var finished = false
    private var current: [Item] = []
    private var index = 0

    /// Starts reading `reader` at once. Rows naming no book get `defaultBook`.
    public init(_ reader: WordFileReader, defaultBook: String?) {
        self.reader = reader
        let thread = Thread { [self] in
            produce(defaultBook: defaultBook)
            done.signal()
        }
        thread.name = "vocab-import-reader"
        thread.start()
    }

    /// The next row's outcome, or nil after the last row (or after an error that ends the file).
    public func next() -> Item? {
        if index == current.count {
            condition.lock()
            while ready.isEmpty && producing { condition.wait() }
            guard !ready.isEmpty else {
                condition.unlock()
                return nil
            }
            current = ready.removeFirst()
            condition.broadcast()
            condition.unlock()
            index = 0
        }
        defer { index += 1 }
        return current[index]
    }

    /// Stops reading (when the thread is still going) and returns the reader, with the
    /// unknown columns it met.
    public func finish() -> WordFileReader {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        if !finished {
            done.wait()
            finished = true
        }
        return reader
    }

    private func produce(defaultBook: String?) {
        defer {
            condition.lock()
            producing = false
            condition.broadcast()
            condition.unlock()
        }
        var batch: [Item] = []
        batch.reserveCapacity(Self.batchSize)
        var ended = false
        while !ended {
            do {
                guard let row = try reader.nextRow() else { break }
                batch.append(.word(try ImportedWord(row: row, defaultBook: defaultBook)))
            } catch {
                batch.append(.failed(error))
                // A bad record lets reading go on; anything else (an unreadable file) ends it.
                ended = (error as? ImportError)?.skippable == nil
            }
            if batch.count == Self.batchSize {
                guard hand(batch) else { return }
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = hand(batch) }
    }

    /// Queues a batch, waiting while the caller is `batchesAhead` behind; false once cancelled.
    private func hand(_ batch: [Item]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.batchesAhead && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }
}
