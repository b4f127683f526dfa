import FoundationEssentials
import VocabCore
import VocabStore

/// How a game is set up.
public struct GameConfiguration: Sendable, Equatable {
    public var mode: GameMode
    public var count: Int
    public var order: GameOrder
    public var includeMemorized: Bool
    public var seed: UInt64
    /// Offer to mark words memorised after this many right answers in a row (0: never).
    public var memorizeAfter: Int

    public init(mode: GameMode = .choice, count: Int = 10, order: GameOrder = .random, includeMemorized: Bool = false,
                seed: UInt64? = nil, memorizeAfter: Int = 3) {
        self.mode = mode
        self.count = count
        self.order = order
        self.includeMemorized = includeMemorized
        if let seed {
            self.seed = seed
        } else {
            var system = SystemRandomNumberGenerator()
            self.seed = system.next()
        }
        self.memorizeAfter = memorizeAfter
    }
}

/// What the player's answer was judged to be.
public struct GameVerdict: Sendable, Equatable {
    public var correct: Bool
    public var rating: Rating
    /// The right answer as shown to the player ("2. to leave behind", or the word).
    public var answer: String
}

/// A player's answer: an option chosen (by its place, from 0) or text typed (a number for the
/// choice modes, as a keyboard gives it, or the word for spelling).
public enum GameAnswer: Sendable, Equatable {
    case choice(Int)
    case typed(String)
}

/// What a question takes, for telling a player whose answer was not one.
public enum ExpectedAnswer: Sendable, Equatable {
    /// The word itself (spelling, reverse).
    case text
    /// The number of one of the options, 1 to `count`.
    case number(upTo: Int)
}

/// The end of a game.
public struct GameSummary: Sendable {
    public var answered: Int
    public var right: Int
    public var planned: Int
    /// Words answered wrong, in the order they were asked.
    public var wrongWords: [Word]
    public var percent: Int { Self.percent(right: right, of: answered) }
    public var stoppedEarly: Bool { answered < planned }

    /// The share of answers that were right, in whole percent (rounded down; 0 with none),
    /// for one game or for all of them.
    public static func percent(right: Int, of answered: Int) -> Int {
        answered == 0 ? 0 : right * 100 / answered
    }
}

/// One test game, step by step: `start` plans it from the store as it is now (refusing with a
/// clear error when it cannot be played), then `current` → `answer`/`grade` → `advance`, until
/// `current` is nil or the player quits; `finish` records the end and gives the summary.
/// Every answer is saved as it is given, so quitting keeps what was answered.
/// Each step that reads or saves takes the `Library` it runs in: the game keeps no store of
/// its own, so a front end that writes through a pool (the web's) or a worker (the window's)
/// hands it the writer of that moment, never one it held after its turn ended.
/// Not safe to use from two threads at once; a front end may hand it from thread to thread,
/// one step at a time.
public final class GameSession: @unchecked Sendable {
    public let configuration: GameConfiguration
    public let books: [Book]
    public let questions: [Question]
    /// Said before the first question when the game is shorter than asked.
    public let note: String?
    public let id: UUID

    public private(set) var index = 0
    /// The verdict on the current question, once it was answered.
    public private(set) var verdict: GameVerdict?
    public private(set) var answered = 0
    public private(set) var right = 0
    private var wrongWords: [Word] = []
    private var rightWords: [Word] = []
    private var finished = false
    private var ids = TimeOrderedIDs()

    private let clock: SessionClock

    /// Plans and starts a game over the books `bookIds` names — none (or nil) names every
    /// book, as in every front end — each of which must be in the store.
    public convenience init(library: Library, bookIds: [UUID]?, configuration: GameConfiguration, clock: SessionClock) throws {
        let store = library.store
        let books: [Book]
        if let bookIds, !bookIds.isEmpty {
            books = try bookIds.map { id in try store.book(id: id) ?? { throw VocabError.bookNotFound(id.lowercaseText) }() }
        } else {
            books = try store.bookSummaries().map(\.book)
        }
        try self.init(library: library, books: books, configuration: configuration, clock: clock)
    }

    /// Plans and starts a game over `books`; throws `GameSetupError` when it cannot be played
    /// (a number of questions outside `GamePlanner.countRange` too).
    public init(library: Library, books: [Book], configuration: GameConfiguration, clock: SessionClock) throws {
        guard GamePlanner.countRange.contains(configuration.count) else {
            throw GameSetupError.countOutOfRange(configuration.count, GamePlanner.countRange)
        }
        let store = library.store
        self.clock = clock
        self.books = books
        self.configuration = configuration
        if books.isEmpty { throw GameSetupError.noBooks }
        let planner = GamePlanner(mode: configuration.mode, count: configuration.count, order: configuration.order,
                                  includeMemorized: configuration.includeMemorized, seed: configuration.seed)
        (questions, note) = try store.planGame(planner, books: books)
        let start = clock.now()
        id = UUID.timeOrdered(milliseconds: start.milliseconds)
        let config = JSONValue.object([
            ("mode", .string(configuration.mode.rawValue)), ("count", .int(Int64(configuration.count))),
            ("order", .string(configuration.order.rawValue)), ("includeMemorized", .bool(configuration.includeMemorized)),
            ("seed", .string(String(configuration.seed))),
        ]).compact
        try store.startGame(id: id, mode: configuration.mode, books: books.map(\.name), planned: questions.count,
                            configJSON: config, at: start)
    }

    /// The question to answer now; nil when every question was asked.
    public var current: Question? { index < questions.count && !finished ? questions[index] : nil }

    /// Judges an answer and saves it. Returns nil when it is not a possible answer (an option
    /// out of range, or text that is neither; tell the player `expectedAnswer` and ask again).
    @discardableResult
    public func answer(_ answer: GameAnswer, in library: Library) throws -> GameVerdict? {
        guard let question = current, verdict == nil else { return nil }
        let given: String
        switch answer {
        case .choice(let index):
            guard question.options.indices.contains(index) else { return nil }
            given = String(index + 1)
        case .typed(let text):
            given = text.trimmingSpaces()
        }
        guard AnswerJudge.isWellFormed(given, for: question) else { return nil }
        let correct = AnswerJudge.isCorrect(given, for: question)
        return try record(given, rating: correct ? .good : .again, correct: correct, question: question, in: library.store)
    }

    /// Grades a flashcard (or any question) by the player's own judgement, and saves it.
    @discardableResult
    public func grade(_ rating: Rating, in library: Library) throws -> GameVerdict? {
        guard let question = current, verdict == nil else { return nil }
        return try record(String(rating.rawValue), rating: rating, correct: rating.rawValue >= Rating.good.rawValue,
                          question: question, in: library.store)
    }

    /// What the current question takes (for a player whose answer was not one).
    public var expectedAnswer: ExpectedAnswer {
        guard let question = current, !question.options.isEmpty else { return .text }
        return .number(upTo: question.options.count)
    }

    /// Moves to the next question after the current one was answered.
    public func advance() {
        guard verdict != nil else { return }
        verdict = nil
        index += 1
    }

    /// Ends the game (at any point: unanswered questions are simply not played) and records it.
    @discardableResult
    public func finish(in library: Library) throws -> GameSummary {
        if !finished {
            try library.store.finishGame(id: id, at: clock.now())
            finished = true
        }
        return GameSummary(answered: answered, right: right, planned: questions.count, wrongWords: wrongWords)
    }

    /// Words answered right in this game that have now been right `memorizeAfter` times in a
    /// row and are not yet memorised: the ones to offer marking as memorised.
    public func memorizeCandidates(in library: Library) throws -> [Word] {
        guard configuration.memorizeAfter > 0 else { return [] }
        var ready: [Word] = []
        var seen = Set<UUID>()
        for word in rightWords where !word.memorized && seen.insert(word.id).inserted {
            if try library.store.rightStreak(wordId: word.id) >= configuration.memorizeAfter { ready.append(word) }
        }
        return ready
    }

    /// Marks `words` memorised, all or none.
    public func memorize(_ words: [Word], in library: Library) throws {
        let now = clock.now(), store = library.store
        try store.transaction {
            for word in words { try store.updateWord(id: word.id, WordChanges(memorized: true), now: now) }
        }
    }

    private func record(_ given: String, rating: Rating, correct: Bool, question: Question, in store: Store) throws -> GameVerdict {
        try store.recordGameAnswer(gameId: id, position: index, question: question, given: given, rating: rating,
                                   at: clock.now(), ids: &ids)
        answered += 1
        if correct {
            right += 1
            rightWords.append(question.word)
        } else {
            wrongWords.append(question.word)
        }
        let shown = question.correctOption.map { "\($0 + 1). \(question.options[$0])" } ?? question.expected
        let result = GameVerdict(correct: correct, rating: rating, answer: shown)
        verdict = result
        return result
    }
}
