import Foundation
import XCTest
import VocabCore
@testable import VocabSessions
import VocabStore

/// The words into the collection an Anki app syncs with: a first mirror of many words (read in
/// one pass, written many to a statement, in a bulk page cache) keeps what mirroring them a few
/// at a time keeps (each looked up and written alone), object for object.
final class AnkiMirrorTests: XCTestCase {
    private let now = Timestamp(milliseconds: 1_765_000_000_000)
    private let wordCount = 1_200

    private func pool() throws -> LibraryPool {
        let folder = NSTemporaryDirectory() + "vocab-anki-mirror-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return try LibraryPool(folder: folder, watchingOtherProcesses: false)
    }

    /// Words `range` of one made-up list, the same ids and times in every store: two of three
    /// reviewed one to four times, with reviews of different words interleaved in time.
    private func addWords(_ range: Range<Int>, to store: Store, book: UUID) throws {
        var reviews: [ReviewRecord] = []
        for index in range {
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index)) ?? UUID()
            _ = try store.addWord(WordDraft(word: "word \(index)", definition: "뜻 \(index) <b>\"quoted\"</b>", detail: "line one\nline two"),
                                  toBook: book, id: id, now: Timestamp(milliseconds: now.milliseconds - 90 * 86_400_000 + Int64(index)))
            for review in 0..<(index % 3 == 0 ? 0 : 1 + index % 4) {
                let at = now.milliseconds - Int64(80 - review * 20) * 86_400_000 + Int64((index * 7_919) % 86_400_000)
                reviews.append(ReviewRecord(id: UUID(uuidString: String(format: "00000000-0000-4000-9%03d-%012d", review, index)) ?? UUID(),
                                            wordId: id, reviewedAt: Timestamp(milliseconds: at),
                                            rating: Rating(rawValue: 1 + (index + review) % 4) ?? .good, durationMs: 4_000, source: .study))
            }
        }
        try store.mergeReviews(reviews)
    }

    /// The notes, cards and log entries kept, and the next new card's place, as rows to compare.
    private func kept(_ pool: LibraryPool) throws -> [String] {
        try pool.read { library in
            var rows: [String] = []
            for kind in [AnkiObjectKind.note, .card, .revlog, .config] {
                for object in try library.store.ankiObjects(kind) where kind != .config || object.id == "nextPos" {
                    rows.append([kind.rawValue, object.id, String(object.usn), object.body, object.source ?? "-", object.stamp ?? "-"]
                        .joined(separator: " | "))
                }
            }
            return rows
        }
    }

    /// The (kind, id) of every note, card and log entry a normal sync's chunks hand the app, in
    /// the order handed, until the server says it is done.
    private func chunks(_ pool: LibraryPool, minUsn: Int64) throws -> [String] {
        try pool.write { library in
            let kept = AnkiKeptCollection(store: library.store, account: "me", now: now)
            _ = try kept.start(key: "sync", .object([("minUsn", .int(minUsn)), ("lnewer", .bool(false))]))
            var handed: [String] = []
            for _ in 0..<1_000 {
                let chunk = try kept.chunk(key: "sync")
                for (member, kind) in [("cards", "card"), ("notes", "note"), ("revlog", "revlog")] {
                    for row in chunk[member]?.arrayValue ?? [] { handed.append("\(kind) \(row.arrayValue?.first?.int64Value ?? -1)") }
                }
                if chunk["done"]?.boolValue == true { return handed }
            }
            XCTFail("the chunks never ended")
            return handed
        }
    }

    /// A normal sync's chunks hand every note, card and log entry numbered at least the app's
    /// number, each once, across as many calls as they take, and nothing older: after a first
    /// mirror, and after a later one of a few words alone.
    func testANormalSyncsChunksHandEveryNewerObjectOnceAndNoOlder() throws {
        let pool = try pool()
        let later: Int64 = try pool.write { library in
            let book = try library.store.addBook(BookDraft(name: "Words"), now: now)
            try addWords(0..<wordCount, to: library.store, book: book.id)
            let kept = AnkiKeptCollection(store: library.store, account: "me", now: now)
            _ = try kept.standing()
            guard var state = try library.store.ankiCollection() else { throw XCTSkip("no collection") }
            state.usn += 3  // three syncs finished since
            try library.store.saveAnkiCollection(state)
            try addWords(wordCount..<(wordCount + 300), to: library.store, book: book.id)
            _ = try kept.standing()
            return state.usn
        }
        for minUsn in [Int64(0), later] {
            let expected = try pool.read { library in
                try [AnkiObjectKind.card, .note, .revlog].flatMap { kind in
                    try library.store.ankiObjects(kind, usnAtLeast: minUsn).map { "\(kind.rawValue) \($0.id)" }
                }
            }
            let handed = try chunks(pool, minUsn: minUsn)
            XCTAssertGreaterThan(handed.count, 500, "more than two chunks")
            XCTAssertEqual(handed.count, Set(handed).count, "each once")
            let wrong = Set(handed).symmetricDifference(expected)
            XCTAssertTrue(wrong.isEmpty, "from \(minUsn): \(wrong.count) objects handed that should not be, or not handed: \(wrong.sorted().prefix(5))")
        }
        XCTAssertLessThan(try chunks(pool, minUsn: later).count, try chunks(pool, minUsn: 0).count, "the later mirror's alone")
    }

    func testAFirstMirrorOfManyWordsKeepsWhatAFewAtATimeKeeps() throws {
        let atOnce = try pool(), inSteps = try pool()
        try atOnce.write { library in
            let book = try library.store.addBook(BookDraft(name: "Words"), now: now)
            try addWords(0..<wordCount, to: library.store, book: book.id)
            _ = try AnkiKeptCollection(store: library.store, account: "me", now: now).standing()
        }
        try inSteps.write { library in
            let book = try library.store.addBook(BookDraft(name: "Words"), now: now)
            _ = try AnkiKeptCollection(store: library.store, account: "me", now: now).standing()
            for start in stride(from: 0, to: wordCount, by: 400) {
                try addWords(start..<(start + 400), to: library.store, book: book.id)
                _ = try AnkiKeptCollection(store: library.store, account: "me", now: now).standing()
            }
        }
        let many = try kept(atOnce), few = try kept(inSteps)
        XCTAssertEqual(many.filter { $0.hasPrefix("note ") }.count, wordCount)
        XCTAssertEqual(many.filter { $0.hasPrefix("revlog ") }.count, (0..<wordCount).reduce(0) { $0 + ($1 % 3 == 0 ? 0 : 1 + $1 % 4) })
        XCTAssertEqual(many.count, few.count)
        for (one, other) in zip(many, few) where one != other {
            XCTFail("a first mirror kept\n\(one)\nwhere a few at a time kept\n\(other)")
            break
        }
    }
}
