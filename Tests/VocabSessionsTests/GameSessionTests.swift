import Foundation
import XCTest
import VocabCore
import VocabStore
@testable import VocabSessions

final class GameSessionTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    private func storeWithBook(words: Int) throws -> (Store, Book) {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "TOEIC"), now: t0)
        for index in 0..<words {
            try store.addWord(WordDraft(word: "word\(index)", definition: "meaning \(index)"), toBook: book.id, now: t0)
        }
        return (store, book)
    }

    func testAGameSetUpOnAnEmptyBookStartsOnceWordsArrive() throws {
        let (store, book) = try storeWithBook(words: 0)
        let configuration = GameConfiguration(mode: .choice, count: 3, seed: 1)
        XCTAssertThrowsError(try GameSession(library: Library(store), books: [book], configuration: configuration, clock: FixedClock(t0))) {
            XCTAssertEqual($0 as? GameSetupError, .emptyBooks(["TOEIC"]))
        }
        for index in 0..<4 { try store.addWord(WordDraft(word: "late\(index)", definition: "d\(index)"), toBook: book.id, now: t0) }
        let game = try GameSession(library: Library(store), books: [book], configuration: configuration, clock: FixedClock(t0))
        XCTAssertEqual(game.questions.count, 3)
        XCTAssertNotNil(game.current)
    }

    func testAnsweringEveryQuestionGivesTheScoreAndSavesEachAnswerAsAReview() throws {
        let (store, book) = try storeWithBook(words: 5)
        let game = try GameSession(library: Library(store), books: [book], configuration: GameConfiguration(count: 3, seed: 7),
                                   clock: FixedClock(t0))
        var expectedRight = 0
        var turn = 0
        while let question = game.current {
            XCTAssertNil(try game.answer(.typed("99"), in: Library(store)), "an option number out of range is asked again")
            XCTAssertNil(try game.answer(.choice(question.options.count), in: Library(store)), "so is an option that is not there")
            XCTAssertNil(try game.answer(.typed("  "), in: Library(store)), "so is nothing")
            XCTAssertEqual(game.expectedAnswer, .number(upTo: question.options.count))
            let correctNumber = (question.correctOption ?? 0) + 1
            let pick = turn == 1 ? (correctNumber % question.options.count) + 1 : correctNumber
            // A click chooses an option; a keyboard types its number: the same answer.
            let verdict = try XCTUnwrap(game.answer(turn == 0 ? .choice(pick - 1) : .typed(String(pick)), in: Library(store)))
            XCTAssertEqual(verdict.correct, pick == correctNumber)
            XCTAssertNil(try game.answer(.typed(String(pick)), in: Library(store)), "one answer per question")
            if verdict.correct { expectedRight += 1 }
            game.advance()
            turn += 1
        }
        let summary = try game.finish(in: Library(store))
        XCTAssertEqual(summary.answered, 3)
        XCTAssertEqual(summary.right, expectedRight)
        XCTAssertEqual(summary.right, 2)
        XCTAssertEqual(summary.wrongWords.count, 1)
        XCTAssertFalse(summary.stoppedEarly)
        XCTAssertEqual(try store.reviewCount(), 3)
        XCTAssertEqual(try store.recentGames(limit: 1).first?.answered, 3)
    }

    func testQuittingKeepsWhatWasAnswered() throws {
        let (store, book) = try storeWithBook(words: 5)
        let game = try GameSession(library: Library(store), books: [book], configuration: GameConfiguration(count: 4, seed: 3),
                                   clock: FixedClock(t0))
        let first = try XCTUnwrap(game.current)
        try game.answer(.choice(first.correctOption ?? 0), in: Library(store))
        game.advance()
        let summary = try game.finish(in: Library(store))
        XCTAssertNil(game.current, "a finished game asks nothing more")
        XCTAssertEqual(summary.answered, 1)
        XCTAssertTrue(summary.stoppedEarly)
        XCTAssertEqual(try store.reviewCount(), 1)
    }

    func testWordsRightEnoughTimesInARowAreOfferedForMemorising() throws {
        let (store, book) = try storeWithBook(words: 2)
        let configuration = GameConfiguration(mode: .flashcard, count: 2, seed: 1, memorizeAfter: 2)
        for round in 0..<2 {
            let game = try GameSession(library: Library(store), books: [book], configuration: configuration,
                                       clock: FixedClock(t0.adding(seconds: Double(round) * 60)))
            while game.current != nil {
                try game.grade(.good, in: Library(store))
                game.advance()
            }
            try game.finish(in: Library(store))
            let candidates = try game.memorizeCandidates(in: Library(store))
            XCTAssertEqual(candidates.count, round == 0 ? 0 : 2)
            if round == 1 { try game.memorize(candidates, in: Library(store)) }
        }
        XCTAssertEqual(try store.wordCount(WordFilter(memorized: true)), 2)
    }

    /// A game keeps no store: each step saves in the library it is handed, as a pool's writer
    /// of that moment is (issue 69: the web's games held the writer after its turn ended).
    func testEachStepSavesInTheLibraryItIsHandedNotTheOneItStartedIn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("game-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/vocab.sqlite"
        var starting: Store? = try Store(path: path)
        let book = try XCTUnwrap(starting).addBook(BookDraft(name: "TOEIC"), now: t0)
        for index in 0..<4 { try starting?.addWord(WordDraft(word: "w\(index)", definition: "d\(index)"), toBook: book.id, now: t0) }
        let game = try GameSession(library: Library(XCTUnwrap(starting)), books: [book], configuration: GameConfiguration(mode: .flashcard, count: 2, seed: 1),
                                   clock: FixedClock(t0))
        starting = nil  // the connection the game started in is gone
        let later = try Store(path: path)
        try game.grade(.good, in: Library(later))
        game.advance()
        try game.grade(.again, in: Library(later))
        let summary = try game.finish(in: Library(later))
        XCTAssertEqual(summary.answered, 2)
        XCTAssertEqual(try later.reviewCount(), 2)
        XCTAssertEqual(try later.recentGames(limit: 1).first?.answered, 2)
    }

    func testChoosingBooksNeedsANameWhenThereAreSeveral() throws {
        let store = try Store(path: ":memory:")
        XCTAssertThrowsError(try BookLookup.gameBooks([], library: Library(store))) { XCTAssertEqual($0 as? GameSetupError, .noBooks) }
        try store.addBook(BookDraft(name: "A"), now: t0)
        guard case .books(let one) = try BookLookup.gameBooks([], library: Library(store)) else { return XCTFail("the only book") }
        XCTAssertEqual(one.map(\.name), ["A"])
        try store.addBook(BookDraft(name: "B"), now: t0)
        guard case .mustChoose(let names) = try BookLookup.gameBooks([], library: Library(store)) else { return XCTFail("must choose") }
        XCTAssertEqual(names.sorted(), ["A", "B"])
        guard case .books(let named) = try BookLookup.gameBooks(["b", "B"], library: Library(store)) else { return XCTFail("named") }
        XCTAssertEqual(named.map(\.name), ["B"], "named books, each once")
    }
}
