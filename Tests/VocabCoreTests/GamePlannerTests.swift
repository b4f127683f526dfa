import XCTest
@testable import VocabCore

final class GamePlannerTests: XCTestCase {
    let t0 = Timestamp(milliseconds: 1_700_000_000_000)

    private func words(_ definitions: [String], memorized: Set<Int> = []) -> [(word: Word, due: Timestamp?)] {
        let book = UUID()
        return definitions.enumerated().map { index, definition in
            (Word(bookId: book, word: "w\(index)", definition: definition, date: t0.adding(seconds: Double(index)),
                  memorized: memorized.contains(index), createdAt: t0, modifiedAt: t0), nil)
        }
    }

    func testTheSameSeedGivesTheSameQuestionsAndOptions() throws {
        let pool = words((0..<20).map { "meaning \($0)" })
        let a = try GamePlanner(mode: .choice, count: 8, seed: 42).plan(words: pool, bookNames: ["B"]).questions
        let b = try GamePlanner(mode: .choice, count: 8, seed: 42).plan(words: pool, bookNames: ["B"]).questions
        let c = try GamePlanner(mode: .choice, count: 8, seed: 43).plan(words: pool, bookNames: ["B"]).questions
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
    }

    func testChoiceOptionsAreDistinctAndNeverRepeatTheRightAnswer() throws {
        let pool = words(["cat", "Cat", "dog", "bird", "fish", "CAT", "horse"])
        let questions = try GamePlanner(mode: .choice, count: 7, seed: 1).plan(words: pool, bookNames: ["B"]).questions
        for question in questions {
            let correct = try XCTUnwrap(question.correctOption)
            XCTAssertEqual(question.options[correct], question.word.definition)
            let folded = question.options.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(Set(folded).count, folded.count, "\(question.options)")
            XCTAssertLessThanOrEqual(question.options.count, 4)
            XCTAssertTrue(AnswerJudge.isCorrect("\(correct + 1)", for: question))
            XCTAssertFalse(AnswerJudge.isCorrect("\((correct + 1) % question.options.count + 1)", for: question))
        }
    }

    func testSpellingMatchesIgnoringCaseAndSpacesButNotAccents() throws {
        let book = UUID()
        let word = Word(bookId: book, word: "Café", definition: "coffee shop", pronunciation: "ka-fay", date: t0, createdAt: t0, modifiedAt: t0)
        let question = try GamePlanner(mode: .spelling, count: 1, seed: 1).plan(words: [(word, nil)], bookNames: ["B"]).questions[0]
        XCTAssertEqual(question.prompt, "coffee shop")
        XCTAssertEqual(question.hint, "ka-fay")
        XCTAssertTrue(AnswerJudge.isCorrect("  café ", for: question))
        XCTAssertTrue(AnswerJudge.isCorrect("CAFE\u{301}", for: question))
        XCTAssertFalse(AnswerJudge.isCorrect("cafe", for: question))
    }

    func testEachImpossibleGameSaysWhatToDo() {
        func fails(_ planner: GamePlanner, _ words: [(word: Word, due: Timestamp?)], _ expected: GameSetupError) {
            XCTAssertThrowsError(try planner.plan(words: words, bookNames: ["B"])) { error in
                XCTAssertEqual(error as? GameSetupError, expected)
            }
        }
        fails(GamePlanner(seed: 1), [], .emptyBooks(["B"]))
        fails(GamePlanner(seed: 1), words(["a", "b"], memorized: [0, 1]), .allMemorized(["B"]))
        fails(GamePlanner(mode: .choice, seed: 1), words(["same", "same", "SAME"]), .tooFewMeanings(found: 1, mode: .choice))
        fails(GamePlanner(mode: .spelling, seed: 1), words(["", ""]), .noDefinitions(mode: .spelling))
        XCTAssertThrowsError(try GamePlanner(seed: 1).plan(words: [], bookNames: [])) { error in
            XCTAssertEqual(error as? GameSetupError, .noBooks)
        }
        // Why, in plain words: what to do instead is each front end's to say, in its own terms.
        XCTAssertEqual(GameSetupError.allMemorized(["B"]).message, "Every word in Book \"B\" is marked memorised.")
        XCTAssertEqual(GameSetupError.tooFewMeanings(found: 1, mode: .choice).message,
                       "Choice mode needs at least 2 different definitions to choose from (found 1).")
    }

    func testFewerWordsThanAskedPlaysWhatThereIsAndSaysSo() throws {
        let (questions, note) = try GamePlanner(mode: .flashcard, count: 10, seed: 1).plan(words: words(["a", "b", "c"]), bookNames: ["B"])
        XCTAssertEqual(questions.count, 3)
        XCTAssertEqual(note, "Only 3 words are available; playing 3.")
    }

    func testDueOrderPutsTheMostOverdueFirstThenNewWordsByAge() throws {
        var pool = words(["a", "b", "c", "d"])
        pool[2].due = t0.adding(seconds: -100)
        pool[3].due = t0.adding(seconds: -500)
        let questions = try GamePlanner(mode: .flashcard, count: 4, order: .due, seed: 1).plan(words: pool, bookNames: ["B"]).questions
        XCTAssertEqual(questions.map(\.word.word), ["w3", "w2", "w0", "w1"])
    }
}
