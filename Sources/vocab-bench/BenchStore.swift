import Foundation
import VocabCore
import VocabStore

/// Stores the benchmarks fill: a book of generated words, and review logs merged in batches.
enum BenchStore {
    /// Imports `rows` generated words (written to `csv` first) into the book "Bench" of `store`.
    static func importBook(rows: Int, seed: UInt64, csv: String, into store: Store, now: Timestamp) throws -> (book: Book, words: [Word]) {
        try DataSet.writeCSV(rows: rows, to: csv, seed: seed)
        var reader = try WordFileReader(try FileStream(path: csv), format: .csv)
        _ = try WordImporter(defaultBook: "Bench", now: now).run(&reader, into: store)
        let book = try store.book("Bench")
        return (book, try store.words(WordFilter(bookId: book.id)))
    }

    /// An empty Vocab store made by `vocab` itself in `home` (the same tables, indexes, triggers
    /// and pragmas as the one an import fills), for the references to write into; its path.
    static func emptyStoreFile(home: String, config: String) throws -> String {
        _ = try ChildProcess.measure(try ChildProcess.vocabProgram(), ["book", "list"],
                                     environment: ["VOCAB_HOME": home, "XDG_CONFIG_HOME": config])
        return home + "/vocab.sqlite"
    }

    /// The page size of the SQLite file at `path`, from its header (bytes 16-17, 1 meaning
    /// 65,536); 4,096, SQLite's default, when it cannot be read.
    static func pageSize(of path: String) -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 4096 }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 18), header.count == 18 else { return 4096 }
        let size = Int(header[16]) << 8 | Int(header[17])
        return size == 1 ? 65536 : size
    }

    /// Collects review records and merges them into the store 50,000 at a time (with the
    /// import cache); `finish` merges the rest.
    struct ReviewBatches {
        let store: Store
        private var batch: [ReviewRecord] = []

        init(store: Store) {
            self.store = store
        }

        mutating func add(_ record: ReviewRecord) throws {
            batch.append(record)
            if batch.count >= 50_000 { try finish() }
        }

        mutating func finish() throws {
            let records = batch
            _ = try store.withImportCache { try store.mergeReviews(records) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
