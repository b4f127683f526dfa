import XCTest
import VocabCore
import VocabStore
@testable import VocabSessions

final class StudySessionTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    func testDueWordsComeFirstThenNewOnesUpToTheDailyLimit() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let words = try (0..<6).map {
            try store.addWord(WordDraft(word: "w\($0)", date: t0.adding(seconds: Double($0))), toBook: book.id, now: t0)
        }
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: words[5].id, rating: .again, at: t0, source: .study, ids: &ids)
        let later = t0.adding(seconds: 120)
        let session = try StudySession(library: Library(store), bookIds: nil, newPerDay: 3, clock: FixedClock(later))
        XCTAssertEqual(session.cards.map(\.word.word), ["w5", "w0", "w1"], "one new word was already started today")
        XCTAssertEqual(session.dueCount, 1)
        XCTAssertEqual(session.newCount, 2)
    }

    /// What a server answers at every card, read without the queue: the session's first card,
    /// counts and buttons, step by step through a day (due, new, the day's limit, nothing left).
    func testAPeekShowsWhatTheSessionWouldShowWithoutBuildingItsQueue() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let other = try store.addBook(BookDraft(name: "Other"), now: t0)
        let words = try (0..<6).map {
            try store.addWord(WordDraft(word: "w\($0)", date: t0.adding(seconds: Double($0))), toBook: $0 == 4 ? other.id : book.id, now: t0)
        }
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: words[5].id, rating: .again, at: t0, source: .study, ids: &ids)
        var time = t0.adding(seconds: 120)
        for step in 0..<8 {
            for books in [nil, [book.id]] as [[UUID]?] {
                let session = try StudySession(library: Library(store), bookIds: books, newPerDay: 3, clock: FixedClock(time))
                let peek = try StudyPeek(library: Library(store), bookIds: books, newPerDay: 3, clock: FixedClock(time))
                XCTAssertEqual(peek.card?.word.id, session.current?.word.id, "step \(step)")
                XCTAssertEqual(peek.card?.schedule, session.current?.schedule)
                XCTAssertEqual(peek.dueCount, session.dueCount, "step \(step)")
                XCTAssertEqual(peek.newCount, session.newCount, "step \(step)")
                XCTAssertEqual(peek.choices.map(\.due), session.nextDue().map(\.due))
            }
            let session = try StudySession(library: Library(store), bookIds: nil, newPerDay: 3, clock: FixedClock(time))
            if session.current != nil { try session.grade(.good) }
            time = time.adding(seconds: 30)
        }
        XCTAssertNil(try StudyPeek(library: Library(store), bookIds: nil, newPerDay: 3, clock: FixedClock(time)).card, "the day's new words are done")
    }

    func testTheButtonsShowTheDueTimeEachRatingWouldGiveAndGradingGivesIt() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "apple", definition: "사과"), toBook: book.id, now: t0)
        let session = try StudySession(library: Library(store), bookIds: [book.id], clock: FixedClock(t0))
        let previews = session.nextDue()
        XCTAssertEqual(previews.map(\.rating), [.again, .hard, .good, .easy])
        let scheduler = FSRSScheduler()
        for (rating, due) in previews { XCTAssertEqual(due, scheduler.review(nil, rating: rating, at: t0).due) }
        XCTAssertEqual(ButtonInterval(previews[0].due, from: t0), .minutes(1))
        XCTAssertEqual(ButtonInterval(previews[2].due, from: t0), .minutes(10))
        let schedule = try XCTUnwrap(session.grade(.good))
        XCTAssertEqual(schedule.due, previews[2].due)
        XCTAssertNil(session.current)
        XCTAssertEqual(session.graded, 1)
        XCTAssertEqual(try store.schedule(wordId: session.cards[0].word.id), schedule)
    }

    func testNothingToStudySaysWhy() throws {
        let store = try Store(path: ":memory:")
        XCTAssertEqual(try StudySession.nothingToStudy(library: Library(store), bookIds: nil), .noWords)
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: word.id, rating: .easy, at: t0, source: .study, ids: &ids)
        guard case .nothingDue(let next?) = try StudySession.nothingToStudy(library: Library(store), bookIds: nil) else {
            return XCTFail("a reviewed word is scheduled")
        }
        guard case .days = DueInterval(next, from: t0) else { return XCTFail("an easy first review is days away") }
    }

    func testShortIntervalsReadLikeAnkisButtons() {
        XCTAssertEqual(ButtonInterval(t0.adding(seconds: 3 * 3600), from: t0), .hours(3))
        XCTAssertEqual(ButtonInterval(t0.adding(seconds: 4 * 86_400), from: t0), .days(4))
        XCTAssertEqual(ButtonInterval(t0.adding(seconds: 60 * 86_400), from: t0), .months(2))
        XCTAssertEqual(ButtonInterval(t0.adding(seconds: 548 * 86_400), from: t0), .years(tenths: 15))
        XCTAssertEqual(DueInterval(t0.adding(seconds: 90), from: t0), .minutes(2))
        XCTAssertEqual(DueInterval(t0, from: t0), .now)
    }
}
