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

/// The choices a learner sees: each a first sense without examples, of the answer's part of
/// speech where the books have enough such words, never two alike.
final class GameChoicesTests: XCTestCase {
    private func word(_ text: String, _ definition: String) -> (word: Word, due: Timestamp?) {
        let time = Timestamp(milliseconds: 1_767_225_600_000)
        return (Word(id: UUID(), bookId: UUID(), word: text, definition: definition, date: time, createdAt: time, modifiedAt: time), nil)
    }

    func testAChoiceIsTheFirstSenseWithoutExamples() {
        XCTAssertEqual(Meaning.firstSense(of: "(adj.) showing courage; \"a brave man\"\n(n.) a warrior"), "(adj.) showing courage")
        XCTAssertEqual(Meaning.firstSense(of: "1. to leave behind 2. to give up"), "1. to leave behind")
        XCTAssertEqual(Meaning.firstSense(of: "사과"), "사과")
        XCTAssertEqual(Meaning.partOfSpeech(of: "(adj.) showing courage"), "adj.")
        XCTAssertNil(Meaning.partOfSpeech(of: "(physics) light"))
    }

    func testChoicesShareTheAnswersPartOfSpeechAndNeverRepeatAText() throws {
        var words = [word("brave", "(adj.) showing courage"), word("eager", "(adj.) wanting very much"),
                     word("glad", "(adj.) pleased"), word("keen", "(adj.) sharp of mind"),
                     word("Keen", "(adj.) Sharp of mind "), word("run", "(v.) move fast"), word("walk", "(v.) move on foot"),
                     word("book", "(n.) a written work"), word("table", "(n.) a piece of furniture")]
        words.append(word("fast", "(adj.) quick; \"a fast car\""))
        for seed in UInt64(1)...40 {
            let (questions, _) = try GamePlanner(mode: .choice, count: 10, seed: seed).plan(words: words, bookNames: ["B"])
            for question in questions {
                XCTAssertFalse(question.options.contains { $0.contains("\"") }, "no examples: \(question.options)")
                let folded = question.options.map { TextRules.clean($0).lowercased() }
                XCTAssertEqual(Set(folded).count, folded.count, "no two alike: \(question.options)")
                if let part = Meaning.partOfSpeech(of: question.word.definition), part == "adj." {
                    XCTAssertTrue(question.options.allSatisfy { Meaning.partOfSpeech(of: $0) == "adj." },
                                  "enough adjectives: all adjectives \(question.options)")
                }
            }
        }
        // Two nouns only: the other choices come from the other parts of speech.
        let (nouns, _) = try GamePlanner(mode: .choice, count: 10, seed: 3).plan(words: words, bookNames: ["B"])
        let book = try XCTUnwrap(nouns.first { $0.word.word == "book" })
        XCTAssertEqual(book.options.count, 4)
    }
}
