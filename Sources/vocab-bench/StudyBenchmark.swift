import Foundation
import VocabCore
import VocabStore
import VocabSessions

/// Picking the next due card, and setting up a game, in books of 10,000 and 100,000 words
/// with ten review-log rows per word (1,000,000 for the large book); beside them, what a server
/// answers at every card (`StudyPeek`: the card with the day's counts) and at every shelf
/// (`Shelf`: each book's counts) on a shelf of that book and nine small ones.
struct StudyBenchmark {
    let options: BenchOptions

    func run() throws {
        let work = NSTemporaryDirectory() + "vocab-bench-study-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        var results: [(Int, Double, Double, Double, Double)] = []
        var served: [Served] = []
        for size in [options.rows / 10, options.rows] {
            let store = try Store.open(folder: work + "/store-\(size)")
            let start = Timestamp(iso8601: "2026-01-01T00:00:00Z") ?? Timestamp(milliseconds: 0)
            let (book, words) = try BenchStore.importBook(rows: size, seed: UInt64(size), csv: work + "/words-\(size).csv",
                                                          into: store, now: start)
            var random = SeededRandom(seed: 99)
            var ids = TimeOrderedIDs()
            var batches = BenchStore.ReviewBatches(store: store)
            for word in words {
                var time = start
                for _ in 0..<10 {
                    time = time.adding(seconds: Double(3600 + random.below(86_400 * 5)))
                    // Ids in the order made (as a real log's are), not in review-time order.
                    try batches.add(ReviewRecord(id: ids.next(milliseconds: start.milliseconds), wordId: word.id, reviewedAt: time,
                                                 rating: Rating(rawValue: 1 + random.below(4)) ?? .good, source: .study))
                }
            }
            try batches.finish()
            let now = Timestamp(iso8601: "2026-03-01T00:00:00Z") ?? start
            for shelf in 1...9 {
                let small = try store.addBook(BookDraft(name: "Shelf \(shelf)"), now: start)
                _ = try store.addWord(WordDraft(word: "shelf word \(shelf)", definition: "one"), toBook: small.id, now: start)
            }

            let picks = 2000
            let clock = ContinuousClock()
            var picked = 0
            let dueTime = try clock.measure {
                for index in 0..<picks {
                    picked += try store.dueWords(inBooks: [book.id], at: now.adding(seconds: Double(index)), limit: 1).count
                }
            }
            guard picked == picks else { throw BenchError.message("expected a due word on every pick, got \(picked)") }
            let games = 20
            let gameTime = try clock.measure {
                for seed in 0..<games {
                    let planner = GamePlanner(mode: .choice, count: 10, order: .random, seed: UInt64(seed))
                    _ = try store.planGame(planner, books: [book])
                }
            }
            let dueGameTime = try clock.measure {
                for seed in 0..<games {
                    let planner = GamePlanner(mode: .choice, count: 10, order: .due, seed: UInt64(seed))
                    _ = try store.planGame(planner, books: [book])
                }
            }
            let answerTime = try clock.measure {
                var ids = TimeOrderedIDs()
                for index in 0..<200 {
                    try store.recordReview(wordId: words[index % words.count].id, rating: .good,
                                           at: now.adding(seconds: Double(index)), source: .game, ids: &ids)
                }
            }
            results.append((size, dueTime.milliseconds / Double(picks), gameTime.milliseconds / Double(games),
                            answerTime.milliseconds / 200, dueGameTime.milliseconds / Double(games)))
            served.append(try Self.served(store, at: now.adding(seconds: 3600), size: size))
        }
        for figures in served {
            print(String(format: "served at %d words (%d due, 10 books): the next card with the day's counts %.2f ms, the shelf %.2f ms",
                         figures.size, figures.due, figures.peek, figures.shelf))
            BenchChecks.target("next card with the day's counts at \(figures.size) words: \(String(format: "%.2f", figures.peek)) ms",
                               figures.peek, atMost: 2)
            BenchChecks.target("shelf of 10 books at \(figures.size) words: \(String(format: "%.2f", figures.shelf)) ms", figures.shelf, atMost: 50)
        }
        for (size, due, game, answer, dueGame) in results {
            print(String(format: "book of %d words, %d review rows: next due card %.3f ms, game setup (10 questions) %.2f ms in random order, %.2f ms in due order, recording an answer %.3f ms",
                         size, size * 10, due, game, dueGame, answer))
        }
        if results.count == 2 {
            print(String(format: "growth 10x book: next due card %.2fx, game setup %.2fx (due order %.2fx), recording an answer %.2fx (target: next pick < 1 ms, flat: <= 1.2x)",
                         results[1].1 / results[0].1, results[1].2 / results[0].2, results[1].4 / results[0].4, results[1].3 / results[0].3))
            BenchChecks.target("next due card: \(String(format: "%.2f", results[1].1 / results[0].1))x at 10x the book", results[1].1 / results[0].1, atMost: 1.2)
        }
        for (size, due, _, _, _) in results {
            BenchChecks.target("next due card at \(size) words: \(String(format: "%.3f", due)) ms", due, atMost: 1)
        }
    }
}

extension StudyBenchmark {
    /// What a server answers at every card and every shelf, in milliseconds each.
    struct Served {
        var size: Int
        var due: Int
        var peek: Double
        var shelf: Double
    }

    /// `StudyPeek` (no book named, as the page asks) and `Shelf.books` on `store` at `time`,
    /// each the mean of a few hundred (a few dozen) in a row.
    static func served(_ store: Store, at time: Timestamp, size: Int) throws -> Served {
        let library = Library(store), clock = ContinuousClock(), fixed = FixedClock(time)
        let peeks = 200, shelves = 20
        let due = try store.dueCount(inBooks: nil, at: time)
        let peek = try clock.measure {
            for _ in 0..<peeks { _ = try StudyPeek(library: library, bookIds: nil, clock: fixed) }
        }
        let shelf = try clock.measure {
            for _ in 0..<shelves { _ = try Shelf.books(in: library, at: time) }
        }
        return Served(size: size, due: due, peek: peek.milliseconds / Double(peeks), shelf: shelf.milliseconds / Double(shelves))
    }
}

/// Reads a file in chunks for the benchmark's imports.
struct FileStream: ByteStream {
    private let handle: FileHandle

    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError.message("cannot read \(path)") }
        self.handle = handle
    }

    mutating func nextChunk() throws -> [UInt8]? {
        let data = try handle.read(upToCount: 262_144) ?? Data()
        return data.isEmpty ? nil : [UInt8](data)
    }
}
