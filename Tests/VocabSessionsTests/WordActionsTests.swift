import XCTest
import VocabCore
import VocabStore
@testable import VocabSessions

/// The writes every front end makes through the session layer, with the rules they carry.
final class WordActionsTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    private func storeWithWords(_ words: [String]) throws -> (Store, [Word]) {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "Book"), now: t0)
        return (store, try words.map { try store.addWord(WordDraft(word: $0, definition: "d"), toBook: book.id, now: t0) })
    }

    func testADeleteOfAWordAlreadyGoneIsNoError() throws {
        let (store, words) = try storeWithWords(["apple"])
        XCTAssertTrue(try WordActions.delete(words[0].id, from: Library(store), now: t0))
        XCTAssertFalse(try WordActions.delete(words[0].id, from: Library(store), now: t0), "sent twice: nothing to do, no error")
        XCTAssertNil(try store.word(id: words[0].id))
    }

    func testMarkingSeveralWordsIsAllOrNothing() throws {
        let (store, words) = try storeWithWords(["apple", "pear"])
        XCTAssertThrowsError(try WordActions.mark([words[0].id, UUID()], memorized: true, in: Library(store), now: t0))
        XCTAssertEqual(try store.word(id: words[0].id)?.memorized, false, "the first was not marked alone")
        try WordActions.mark(words.map(\.id), memorized: true, in: Library(store), now: t0)
        XCTAssertEqual(try words.map { try store.word(id: $0.id)?.memorized }, [true, true])
        XCTAssertEqual(try WordActions.toggleMemorized(words[1].id, in: Library(store), now: t0)?.memorized, false)
        XCTAssertNil(try WordActions.toggleMemorized(UUID(), in: Library(store), now: t0))
    }

    func testADevicesReviewsOfWordsDeletedMeanwhileAreLeftOut() throws {
        let (store, words) = try storeWithWords(["apple", "pear"])
        var ids = TimeOrderedIDs()
        let review = { (word: Word) in
            ReviewRecord(id: ids.next(milliseconds: self.t0.milliseconds), wordId: word.id, reviewedAt: self.t0, rating: .good, source: .study)
        }
        let byWord = [words[0].id: [review(words[0])], words[1].id: [review(words[1])]]
        try WordActions.delete(words[1].id, from: Library(store), now: t0)
        XCTAssertEqual(try ReviewRecording.add(byWord, to: Library(store)), 1)
        XCTAssertEqual(try store.reviewLog(wordId: words[0].id).count, 1)
        XCTAssertEqual(try ReviewRecording.add(byWord, to: Library(store)), 0, "one already there is not added again")
    }

    func testAReviewMayBeDatedAFewMinutesAheadAtMost() {
        XCTAssertTrue(ReviewRecording.accepts(t0.adding(seconds: 300), now: t0))
        XCTAssertFalse(ReviewRecording.accepts(t0.adding(seconds: 301), now: t0))
        XCTAssertTrue(ReviewRecording.accepts(t0.adding(seconds: -86_400), now: t0))
    }
}
