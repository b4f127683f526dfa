import XCTest
import VocabCore
@testable import VocabStore

/// A followed book in a learner's store: written only by what its owner's records say, never
/// counted or pushed as the learner's, read-only to him but for his memorised marks, and
/// never folded into (or out of) a book of his own.
final class SharedBookStoreTests: XCTestCase {
    let t0 = Timestamp(milliseconds: 1_700_000_000_000)
    let share = UUID.random()
    let bookId = UUID.random()
    /// The followed book's id in a learner's store: its own, made from the share and the owner's.
    var followedBookId: UUID { .followed(bookId, share: share) }

    /// The owner's store, where the records come from.
    private func ownersRecords(_ words: [(String, String)], bookName: String = "TOEIC") throws -> (Store, [SyncRecord]) {
        let owner = try Store(path: ":memory:")
        let book = Book(id: bookId, name: bookName, createdAt: t0, modifiedAt: t0)
        try owner.insert(book)
        var records = [SyncRecord(kind: "book", id: bookId, deleted: false, body: SyncBodies.book(book, stamps: [:], device: "o"), seq: 1)]
        for (index, (text, definition)) in words.enumerated() {
            let word = try owner.addWord(WordDraft(word: text, definition: definition), toBook: bookId, now: t0)
            records.append(SyncRecord(kind: "word", id: word.id, deleted: false, body: SyncBodies.word(word, stamps: [:], device: "o"),
                                      seq: Int64(index + 2)))
        }
        return (owner, records)
    }

    /// A learner's store bound to an account (so that it keeps an outbox).
    private func learnersStore() throws -> Store {
        let store = try Store(path: ":memory:")
        _ = try store.syncToken(for: "https://server/learner")
        return store
    }

    func testAFollowedBookIsNeitherCountedNorPushedAndRefusesChangesButMemorisedMarks() throws {
        let (_, records) = try ownersRecords([("abandon", "to leave"), ("benefit", "an advantage")])
        let store = try learnersStore()
        let mine = try store.addBook(BookDraft(name: "Mine"), now: t0)
        try store.addWord(WordDraft(word: "own"), toBook: mine.id, now: t0)
        let before = try store.outboxCount()
        let summary = try store.applyShared(share: share, sharer: "Ms. Kim", records: records, token: 3)
        XCTAssertEqual(summary.applied, 3)
        XCTAssertEqual(try store.wordCount(WordFilter(bookId: followedBookId)), 2)
        XCTAssertEqual(try store.outboxCount(), before, "nothing of the followed book waits to be pushed")
        let counts = try store.liveCounts()
        XCTAssertEqual([counts.books, counts.words], [1, 1], "only his own book and word are his")
        XCTAssertEqual(try store.sharedBooks(), [SharedBookMark(bookId: followedBookId, share: share, sharer: "Ms. Kim", ended: false, token: 3)])

        let word = try store.word("abandon", inBook: followedBookId)
        XCTAssertThrowsError(try store.updateWord(id: word.id, WordChanges(definition: "mine"), now: t0)) { error in
            XCTAssertEqual(error as? VocabError, .bookIsShared("TOEIC"))
        }
        XCTAssertThrowsError(try store.addWord(WordDraft(word: "extra"), toBook: followedBookId, now: t0))
        XCTAssertThrowsError(try store.deleteWord(id: word.id, now: t0))
        XCTAssertThrowsError(try store.deleteBook(id: followedBookId, now: t0))
        XCTAssertThrowsError(try store.updateWord(id: try store.word("own", inBook: mine.id).id, WordChanges(bookId: followedBookId), now: t0),
                             "nor may a word of his move into it")
        try store.updateWord(id: word.id, WordChanges(memorized: true), now: t0)
        XCTAssertEqual(try store.outboxCount(), before + 1)
        let mark = try XCTUnwrap(try store.outbox(limit: 100).last?.record)
        XCTAssertEqual([mark.kind, mark.body], ["mark", #"{"memorized":true}"#], "his mark travels as his own record, not the word")
        XCTAssertEqual(mark.id, word.id)
        // On his other device, the mark arrives (before the book, even) and lands on the word.
        let other = try learnersStore()
        _ = try other.applyRemote([mark], token: 1)
        XCTAssertEqual(try other.liveCounts().waiting, 1, "it waits for the word")
        _ = try other.applyShared(share: share, sharer: "Ms. Kim", records: records, token: 3)
        XCTAssertTrue(try other.word(id: word.id)?.memorized ?? false)
        XCTAssertEqual(try other.liveCounts().waiting, 0)
    }

    func testTheOwnersEditKeepsTheLearnersMarkAndADeletionAndAWholePullRemoveWords() throws {
        let (owner, records) = try ownersRecords([("abandon", "to leave"), ("benefit", "an advantage"), ("comply", "to obey")])
        let store = try learnersStore()
        _ = try store.applyShared(share: share, sharer: "", records: records, token: 4)
        let abandon = try store.word("abandon", inBook: followedBookId)
        try store.updateWord(id: abandon.id, WordChanges(memorized: true), now: t0)
        // The owner corrects abandon and deletes benefit.
        var edited = try owner.word("abandon", inBook: bookId)
        edited.definition = "to give up"
        let benefit = try owner.word("benefit", inBook: bookId)
        _ = try store.applyShared(share: share, sharer: "", records: [
            SyncRecord(kind: "word", id: edited.id, deleted: false, body: SyncBodies.word(edited, stamps: [:], device: "o"), seq: 5),
            SyncRecord(kind: "word", id: benefit.id, deleted: true, body: SyncBodies.word(benefit, stamps: [:], device: "o"), seq: 6),
        ], token: 6)
        let now = try store.word("abandon", inBook: followedBookId)
        XCTAssertEqual(now.definition, "to give up")
        XCTAssertTrue(now.memorized, "the learner's mark stays through the owner's edit")
        XCTAssertNil(try store.word(id: .followed(benefit.id, share: share)))
        XCTAssertEqual(try store.outbox(limit: 100).map(\.record.kind), ["mark"], "his mark; the deletion was never his to push")
        // A word moved to another of the owner's books: a whole pull keeps only what the book holds.
        let comply = try store.word("comply", inBook: followedBookId)
        try store.keepOnlySharedWords(share: share, [edited.id])  // the owner's ids
        XCTAssertNil(try store.word(id: comply.id))
        XCTAssertEqual(try store.sharedWordCount(share: share), 1)
    }

    func testNamesNeverClashOrFoldWithTheLearnersOwnBooks() throws {
        let store = try learnersStore()
        try store.addBook(BookDraft(name: "TOEIC"), now: t0)
        let (_, records) = try ownersRecords([("abandon", "to leave")])
        _ = try store.applyShared(share: share, sharer: "Ms. Kim", records: records, token: 2)
        XCTAssertEqual(try store.book(id: followedBookId)?.name, "TOEIC (Ms. Kim)", "his own book keeps its name")
        XCTAssertEqual(try store.wordCount(WordFilter(bookId: followedBookId)), 1)
        // His own book of a name the followed one has arrives from his other device: the followed one moves aside.
        let store2 = try learnersStore()
        _ = try store2.applyShared(share: share, sharer: "Ms. Kim", records: records, token: 2)
        XCTAssertEqual(try store2.book(id: followedBookId)?.name, "TOEIC")
        let own = Book(id: UUID.random(), name: "toeic", createdAt: t0, modifiedAt: t0)
        _ = try store2.applyRemote([SyncRecord(kind: "book", id: own.id, deleted: false, body: SyncBodies.book(own, stamps: [:], device: "d"), seq: 1)],
                                   token: 1)
        XCTAssertEqual(try store2.book(id: own.id)?.name, "toeic")
        XCTAssertEqual(try store2.book(id: followedBookId)?.name, "TOEIC (Ms. Kim)")
        XCTAssertEqual(try store2.wordCount(WordFilter(bookId: followedBookId)), 1, "nothing was folded")
    }

    /// A book followed before followed books had ids of their own (its owner's ids, which a
    /// stranger who saw them could push as his own) moves under its followed ids at its next
    /// pull; a review the learner made then, naming the word by its owner's id, still lands on it.
    func testABookFollowedUnderItsOwnersIdsMovesUnderItsShareAndKeepsItsReviews() throws {
        let (owner, records) = try ownersRecords([("abandon", "to leave")])
        let store = try learnersStore()
        _ = try store.applyShared(share: share, sharer: "", records: records, token: 2)
        let wordId = try owner.word("abandon", inBook: bookId).id
        // As an older Vocab kept it: under the owner's ids.
        try store.database.run("UPDATE books SET id = ? WHERE id = ?", [.text(bookId.storageText), .text(followedBookId.storageText)])
        try store.database.run("UPDATE words SET id = ? WHERE id = ?",
                               [.text(wordId.storageText), .text(UUID.followed(wordId, share: share).storageText)])
        XCTAssertNotNil(try store.book(id: bookId))
        _ = try store.applyShared(share: share, sharer: "", records: [], token: 2)
        XCTAssertNil(try store.book(id: bookId), "no longer under the owner's id")
        XCTAssertEqual(try store.word("abandon", inBook: followedBookId).id, .followed(wordId, share: share))
        let review = SyncRecord(kind: "review", id: UUID.random(), deleted: false,
                                body: #"{"wordId":"\#(wordId.lowercaseText)","reviewedAt":\#(t0.milliseconds),"rating":3}"#, seq: 5)
        let applied = try store.applyRemote([review], token: 5)
        XCTAssertEqual(applied.skipped, [])
        XCTAssertEqual(try store.liveCounts().waiting, 0, "the review found its word")
        XCTAssertEqual(try store.liveCounts().reviews, 1)
    }

    func testAnEndedShareBecomesTheLearnersOwnAndIsPushed() throws {
        let (_, records) = try ownersRecords([("abandon", "to leave"), ("benefit", "an advantage")])
        let store = try learnersStore()
        _ = try store.applyShared(share: share, sharer: "", records: records, token: 3)
        try store.endSharedBook(share: share)
        XCTAssertEqual(try store.outboxCount(), 3, "the book and its two words")
        XCTAssertEqual(try store.liveCounts().words, 2)
        try store.addWord(WordDraft(word: "mine"), toBook: followedBookId, now: t0)
        XCTAssertTrue(try store.sharedBooks().first?.ended ?? false, "the notice stays until he dismisses it")
        try store.forgetEndedShare(share: share)
        XCTAssertEqual(try store.sharedBooks(), [])
        XCTAssertEqual(try store.wordCount(WordFilter(bookId: followedBookId)), 3)
    }

    /// A book followed before the store first binds to an account (the phone's first sync
    /// brings followed books first): the binding offers only the learner's own words, so no
    /// sync reads the followed words again to find nothing to push; a range made before that
    /// (covering followed words only) goes with the next push.
    func testBindingAfterAFollowOffersOnlyTheLearnersOwnWords() throws {
        let (_, records) = try ownersRecords((0..<50).map { ("word\($0)", "meaning") })
        let store = try Store(path: ":memory:")
        _ = try store.applyShared(share: share, sharer: "", records: records, token: 51)
        _ = try store.syncToken(for: "https://server/learner")
        XCTAssertEqual(try store.outbox(limit: 100).count, 0, "nothing of his own to push")
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox_word_ranges"), 0)

        // A store bound before this version: a range over the followed words, cleared by a push.
        try store.database.run("INSERT INTO outbox_word_ranges (after_rowid, through_rowid) SELECT 0, max(rowid) FROM words")
        let mine = try store.addBook(BookDraft(name: "Mine"), now: t0)
        let pushed = try store.outbox(limit: 100)
        XCTAssertEqual(pushed.map(\.record.id), [mine.id])
        try store.clearOutbox(pushed, token: 52)
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox_word_ranges"), 0)
        try store.addWord(WordDraft(word: "own"), toBook: mine.id, now: t0)
        XCTAssertEqual(try store.outbox(limit: 100).map(\.record.kind), ["word"])
    }
}
