import Foundation
import Synchronization
import VocabCore
import VocabSessions
import VocabStore

/// Many readers on one store while it is written (what a window or a server answering many
/// requests does): a word looked up by its text from 4 threads at once, on an idle store of
/// `rows` words and again while an import of `rows` more runs through the same `StorePool` —
/// p50 and p99 of each look-up, side by side. Target: p99 under 5 ms during the import.
struct ReadersBenchmark {
    let options: BenchOptions

    func run() throws {
        let work = NSTemporaryDirectory() + "vocab-bench-readers-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let first = work + "/words.csv", more = work + "/more.csv"
        try DataSet.writeCSV(rows: options.rows, to: first)
        try DataSet.writeCSV(rows: options.rows, to: more, seed: 77)
        let pool = try StorePool(folder: work + "/home", maximumReaders: 4)
        let now = Timestamp.now()
        try pool.write { store in
            _ = try TransferService.importFile(first, format: .csv, into: Library(store), defaultBook: "Big", skipInvalid: false, now: now)
        }
        let book = try pool.read { try $0.book("Big") }
        let texts = try pool.read { store in try store.words(WordFilter(bookId: book.id)).map(\.word) }
        BenchChecks.require(texts.count == options.rows, "readers: the store holds \(texts.count) words, \(options.rows) were imported")

        let idle = try lookUps(pool: pool, texts: texts, bookId: book.id) { $0 >= 2_000 }
        let busy = try lookUpsWhile(pool: pool, texts: texts, bookId: book.id, more: more, now: now)
        BenchChecks.require(busy.count > 0, "readers: no look-up ran while the import did")
        BenchChecks.require(try pool.read { try $0.wordCount() } == options.rows * 2, "readers: the second import did not land whole")
        func ms(_ values: [Double], _ share: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))] * 1000
        }
        print(String(format: "word look-ups from 4 threads, %d-word store: idle p50 %.3f ms p99 %.3f ms (%d look-ups); while an import of %d words runs p50 %.3f ms p99 %.3f ms (%d look-ups) (target p99 < 5 ms)",
                     options.rows, ms(idle, 0.5), ms(idle, 0.99), idle.count, options.rows, ms(busy, 0.5), ms(busy, 0.99), busy.count))
        BenchChecks.target("word look-ups while an import runs: p99 \(String(format: "%.3f", ms(busy, 0.99))) ms", ms(busy, 0.99), atMost: 5)
        BenchChecks.target("word look-ups idle: p99 \(String(format: "%.3f", ms(idle, 0.99))) ms", ms(idle, 0.99), atMost: 5)
    }

    /// Look-ups from 4 threads until `enough(count)` (per thread); each one's seconds.
    private func lookUps(pool: StorePool, texts: [String], bookId: UUID, until enough: @escaping @Sendable (Int) -> Bool) throws -> [Double] {
        let times = Mutex<[Double]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var local: [Double] = [], index = thread * 7919
            let clock = ContinuousClock()
            while !enough(local.count) {
                let text = texts[index % texts.count]
                index += 1
                let elapsed = clock.measure { _ = try? pool.read { try $0.wordWithExactText(text, inBook: bookId) } }
                local.append(elapsed.seconds)
            }
            times.withLock { $0 += local }
        }
        return times.withLock { $0 }
    }

    /// The import of `more` on a thread of its own, and look-ups from 4 threads until it ends.
    private func lookUpsWhile(pool: StorePool, texts: [String], bookId: UUID, more: String, now: Timestamp) throws -> [Double] {
        let running = ImportFlag()
        let importer = Thread {
            _ = try? pool.write { store in
                try TransferService.importFile(more, format: .csv, into: Library(store), defaultBook: "More", skipInvalid: false, now: now)
            }
            running.done.store(true, ordering: .relaxed)
        }
        importer.start()
        usleep(20_000)  // the import under way first
        return try lookUps(pool: pool, texts: texts, bookId: bookId) { _ in running.done.load(ordering: .relaxed) }
    }

    private final class ImportFlag: Sendable {
        let done = Atomic<Bool>(false)
    }
}
