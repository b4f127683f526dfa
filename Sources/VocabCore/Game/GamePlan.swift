import FoundationEssentials
/// How questions are asked.
public enum GameMode: String, CaseIterable, Sendable {
    /// Show the word, pick its meaning.
    case choice
    /// Show the meaning, pick the word.
    case reverse
    /// Show the meaning (and pronunciation), type the word.
    case spelling
    /// Show the word, reveal the meaning, grade yourself.
    case flashcard
}

/// Which words come first.
public enum GameOrder: String, CaseIterable, Sendable {
    case random, oldest, due
}

/// One question of a game.
public struct Question: Sendable, Equatable {
    public var word: Word
    /// What the player sees.
    public var prompt: String
    /// Extra help shown with the prompt (pronunciation in spelling mode).
    public var hint: String?
    /// The numbered options of choice and reverse modes.
    public var options: [String]
    /// The expected answer's text.
    public var expected: String
    /// The index of the right option, in choice and reverse modes.
    public var correctOption: Int?

    public init(word: Word, prompt: String, hint: String?, options: [String], expected: String, correctOption: Int?) {
        self.word = word
        self.prompt = prompt
        self.hint = hint
        self.options = options
        self.expected = expected
        self.correctOption = correctOption
    }
}

/// Why a game cannot start. `message` says why in plain words; each front end adds what to
/// do instead, in its own terms.
public enum GameSetupError: UserFacingError, Equatable {
    case noBooks
    case emptyBooks([String])
    case allMemorized([String])
    case noDefinitions(mode: GameMode)
    case tooFewMeanings(found: Int, mode: GameMode)
    /// A game was asked for a number of questions outside `GamePlanner.countRange`.
    case countOutOfRange(Int, ClosedRange<Int>)

    public var category: ErrorCategory { .userInput }

    public var sentence: Sentence {
        switch self {
        case .noBooks:
            return Sentence("You have no books yet.")
        case .emptyBooks(let names):
            return Sentence("%@ has no words yet.", .books(names))
        case .allMemorized(let names):
            return Sentence("Every word in %@ is marked memorised.", .books(names))
        case .noDefinitions(let mode):
            return Sentence("No word here has a definition, which %@ mode needs.", .text(mode.rawValue))
        case .tooFewMeanings(let found, let mode):
            return Sentence("%@ mode needs at least 2 different definitions to choose from (found %@).", .text(mode.rawValue.capitalized), .number(found))
        case .countOutOfRange(let count, let range):
            return Sentence("A game has %@ to %@ questions, not %@.", .number(range.lowerBound), .number(range.upperBound), .number(count))
        }
    }

    /// `Book "A"` or `Books "A", "B"`.
    public static func list(_ names: [String]) -> String {
        names.count == 1 ? "Book \"\(names[0])\"" : "Books " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

/// Builds a game's questions from the words as they are now. Pure: the same words, options and
/// seed always give the same questions.
public struct GamePlanner: Sendable {
    /// The numbers of questions a learner chooses from, the same in every front end (the web
    /// pages have them from `/api/meta`), and the one chosen unless he says otherwise.
    public static let questionCounts = [3, 5, 10, 20, 50]
    public static let defaultCount = 10
    /// The numbers of questions a game may have, in every front end (`GameSession` refuses others).
    public static let countRange = 1...100

    public var mode: GameMode
    public var count: Int
    public var order: GameOrder
    public var includeMemorized: Bool
    public var seed: UInt64

    public init(mode: GameMode = .choice, count: Int = GamePlanner.defaultCount, order: GameOrder = .random, includeMemorized: Bool = false, seed: UInt64) {
        self.mode = mode
        self.count = count
        self.order = order
        self.includeMemorized = includeMemorized
        self.seed = seed
    }

    /// The questions, and a note when fewer words than asked could be played.
    /// - Parameters:
    ///   - words: every word of the chosen books, with each word's due time when it has one.
    ///   - bookNames: the chosen books' names, for messages.
    public func plan(words: [(word: Word, due: Timestamp?)], bookNames: [String]) throws -> (questions: [Question], note: String?) {
        guard !bookNames.isEmpty else { throw GameSetupError.noBooks }
        guard !words.isEmpty else { throw GameSetupError.emptyBooks(bookNames) }
        var candidates = includeMemorized ? words : words.filter { !$0.word.memorized }
        guard !candidates.isEmpty else { throw GameSetupError.allMemorized(bookNames) }
        if mode != .flashcard {
            candidates = candidates.filter { !$0.word.definition.isEmpty }
            guard !candidates.isEmpty else { throw GameSetupError.noDefinitions(mode: mode) }
        }
        let pool: OptionPool
        switch mode {
        case .choice: pool = OptionPool(words.map { (Meaning.firstSense(of: $0.word.definition), Meaning.partOfSpeech(of: $0.word.definition)) })
        case .reverse: pool = OptionPool(words.map { ($0.word.word, Meaning.partOfSpeech(of: $0.word.definition)) })
        case .spelling, .flashcard: pool = OptionPool([])
        }
        if mode == .choice || mode == .reverse {
            let distinct = distinctCount(pool.texts, atMost: 2)
            guard distinct >= 2 else { throw GameSetupError.tooFewMeanings(found: distinct, mode: mode) }
        }

        var random = SeededRandom(seed: seed)
        switch order {
        case .random:
            random.shuffleFront(&candidates, count: count)
        case .oldest:
            candidates.sort { ($0.word.date, $0.word.word) < ($1.word.date, $1.word.word) }
        case .due:
            // Due (or overdue) first by due time, then never-reviewed words by age.
            candidates.sort { a, b in
                switch (a.due, b.due) {
                case let (x?, y?): return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return (a.word.date, a.word.word) < (b.word.date, b.word.word)
                }
            }
        }
        let chosen = candidates.prefix(max(count, 0))
        let note = chosen.count < count
            ? "Only \(chosen.count) word\(chosen.count == 1 ? " is" : "s are") available; playing \(chosen.count)." : nil
        let questions = chosen.map { question(for: $0.word, pool: pool, random: &random) }
        return (questions, note)
    }

    private func question(for word: Word, pool: OptionPool, random: inout SeededRandom) -> Question {
        let meaning = Meaning.firstSense(of: word.definition), part = Meaning.partOfSpeech(of: word.definition)
        switch mode {
        case .choice:
            let (options, correct) = makeOptions(right: meaning, partOfSpeech: part, from: pool, random: &random)
            return Question(word: word, prompt: word.word, hint: nil, options: options, expected: meaning, correctOption: correct)
        case .reverse:
            let (options, correct) = makeOptions(right: word.word, partOfSpeech: part, from: pool, random: &random)
            return Question(word: word, prompt: meaning, hint: nil, options: options, expected: word.word, correctOption: correct)
        case .spelling:
            return Question(word: word, prompt: word.definition, hint: word.pronunciation.isEmpty ? nil : word.pronunciation,
                            options: [], expected: word.word, correctOption: nil)
        case .flashcard:
            return Question(word: word, prompt: word.word, hint: word.pronunciation.isEmpty ? nil : word.pronunciation,
                            options: [], expected: word.definition, correctOption: nil)
        }
    }

    /// Up to four options: the right one and distractors drawn at random from `pool` — of the
    /// right one's part of speech while the books have such words, then any — no two with the
    /// same text (case and spaces aside), none the right one's: a few draws, whatever the size.
    private func makeOptions(right: String, partOfSpeech: String?, from pool: OptionPool,
                             random: inout SeededRandom) -> ([String], Int) {
        var distractors: [String] = []
        func draw(from indices: [Int]) {
            var tried = Set<Int>()
            while distractors.count < 3 && tried.count < indices.count {
                let pick = random.below(indices.count)
                guard tried.insert(pick).inserted else { continue }
                let candidate = pool.texts[indices[pick]]
                if !candidate.isEmpty && !TextRules.answersMatch(candidate, right)
                    && !distractors.contains(where: { TextRules.answersMatch($0, candidate) }) {
                    distractors.append(candidate)
                }
            }
        }
        if let partOfSpeech, let same = pool.byPartOfSpeech[partOfSpeech] { draw(from: same) }
        if distractors.count < 3 { draw(from: pool.all) }
        var options = distractors + [right]
        random.shuffle(&options)
        let correct = options.firstIndex(of: right) ?? 0
        return (options, correct)
    }

    /// How many different non-empty texts (ignoring case) `texts` holds, counting up to `limit`.
    private func distinctCount(_ texts: [String], atMost limit: Int) -> Int {
        var seen = Set<String>()
        for text in texts where !text.isEmpty {
            seen.insert(TextRules.clean(text).lowercased())
            if seen.count >= limit { break }
        }
        return seen.count
    }
}

/// The texts a game draws its options from, with the indices of each part of speech.
private struct OptionPool {
    let texts: [String]
    let all: [Int]
    let byPartOfSpeech: [String: [Int]]

    init(_ entries: [(text: String, partOfSpeech: String?)]) {
        texts = entries.map(\.text)
        all = Array(entries.indices)
        var groups: [String: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            if let part = entry.partOfSpeech { groups[part, default: []].append(index) }
        }
        byPartOfSpeech = groups
    }
}

/// Reading a word's definition as a game shows it.
public enum Meaning {
    /// The first sense alone: the first line, without quoted examples after it ("; \"…\"") and
    /// without a second numbered sense ("1. to leave 2. to give up" → "1. to leave").
    public static func firstSense(of definition: String) -> String {
        var text = definition.split(whereSeparator: \.isNewline).first.map(String.init) ?? definition
        if let example = text.firstRange(of: "; \"") ?? text.firstRange(of: "; “") { text = String(text[..<example.lowerBound]) }
        if text.hasPrefix("1.") || text.hasPrefix("1)"), let second = secondSenseStart(in: text) {
            text = String(text[..<second])
        }
        return text.trimmingSpaces()
    }

    /// Where " 2. " or " 2) " starts (white space around the number), if anywhere.
    private static func secondSenseStart(in text: String) -> String.Index? {
        let characters = Array(text.indices)
        guard characters.count >= 4 else { return nil }
        for offset in 0...(characters.count - 4) {
            let space = text[characters[offset]], digit = text[characters[offset + 1]]
            let mark = text[characters[offset + 2]], after = text[characters[offset + 3]]
            if space.isWhitespace, digit == "2", mark == "." || mark == ")", after.isWhitespace { return characters[offset] }
        }
        return nil
    }

    /// The part of speech a definition starts with, as the dictionary writes it ("(adj.) …"):
    /// n., v., adj. or adv.; nil when it names none.
    public static func partOfSpeech(of definition: String) -> String? {
        guard definition.hasPrefix("("), let close = definition.firstIndex(of: ")") else { return nil }
        let marker = definition[definition.index(after: definition.startIndex)..<close].lowercased()
        return ["n.", "v.", "adj.", "adv."].contains(marker) ? marker : nil
    }
}

/// Judging an answer.
public enum AnswerJudge {
    /// Whether `input` answers `question`: an option's number (or its text) in choice and
    /// reverse modes, the word itself in spelling mode (trimmed, case-insensitive, NFC).
    public static func isCorrect(_ input: String, for question: Question) -> Bool {
        let cleaned = TextRules.clean(input)
        if let correct = question.correctOption {
            if let number = Int(cleaned) { return number == correct + 1 }
            return TextRules.answersMatch(cleaned, question.options[correct])
        }
        return TextRules.answersMatch(cleaned, question.expected)
    }

    /// Whether `input` is a valid reply at all (an option number in range, or any text).
    public static func isWellFormed(_ input: String, for question: Question) -> Bool {
        let cleaned = TextRules.clean(input)
        guard !cleaned.isEmpty else { return false }
        if !question.options.isEmpty, let number = Int(cleaned) { return (1...question.options.count).contains(number) }
        return true
    }
}
