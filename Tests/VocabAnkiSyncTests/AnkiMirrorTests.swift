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
