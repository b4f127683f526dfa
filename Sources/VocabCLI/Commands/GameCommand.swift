import Foundation
import VocabCore
import VocabStore

/// `vocab game`: the test game over one or more books.
enum GameCommand {
    static let command = Command(spec: CommandSpec(
        name: "game", abstract: "Play a test game over one or more books.",
        options: [
            OptionSpec("book", short: "b", value: "BOOK", repeatable: true, help: "A book to play (default: your only book)."),
            OptionSpec("count", short: "n", value: "N", help: "How many questions (default 10)."),
            OptionSpec("mode", short: "m", value: "MODE", help: "choice (default), reverse, spelling or flashcard."),
            OptionSpec("order", value: "ORDER", help: "random (default), oldest or due."),
            OptionSpec("include-memorized", help: "Also ask words marked memorised."),
            OptionSpec("seed", value: "N", help: "Make question order and options reproducible."),
            OptionSpec("memorize-after", value: "N", help: "Offer to mark words right N times in a row as memorised (default 3; 0: never)."),
            OptionSpec("now", value: "TIME", help: "The time to record answers at (ISO 8601; default: now)."),
        ],
        discussion: """
            choice: see the word, type the number of its meaning. reverse: see the meaning, pick the word.
            spelling: see the meaning, type the word. flashcard: see the word, reveal, grade yourself 1-4.
            Answers are read from standard input, so a game can be played from a pipe. Type q to stop early:
            what you answered is kept. Every answer is also a review for `vocab study` (right = good, wrong = again).
            """,
        examples: ["vocab game --book TOEIC --count 20", "vocab game --book TOEIC --mode spelling --seed 7",
                   "printf '1\\n2\\n' | vocab game --book TOEIC --count 2 --seed 1"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ context: AppContext) throws {
        let count = try positiveNumber(arguments, "count", default: 10)
        let memorizeAfter = try number(arguments, "memorize-after", default: 3)
        let mode = try choice(arguments, "mode", GameMode.self, default: .choice)
        let order = try choice(arguments, "order", GameOrder.self, default: .random)
        let seed: UInt64
        if let text = arguments.value("seed") {
            guard let value = UInt64(text) else { throw UsageError.invalidValue(option: "seed", value: text, expected: "a whole number") }
            seed = value
        } else {
            var system = SystemRandomNumberGenerator()
            seed = system.next()
        }
        var now = try context.now(arguments)
        let fixedClock = arguments.value("now") != nil
        let store = try context.store()
        let books = try resolveBooks(arguments.allValues("book"), store: store)

        let planner = GamePlanner(mode: mode, count: count, order: order,
                                  includeMemorized: arguments.flag("include-memorized"), seed: seed)
        let (questions, note) = try store.planGame(planner, books: books)
        let console = context.console
        let style = Style(console: console, environment: context.environment)
        if let note { console.print(note) }

        let gameId = UUID.timeOrdered(milliseconds: now.milliseconds)
        let config = JSONValue.object([
            ("mode", .string(mode.rawValue)), ("count", .int(Int64(count))), ("order", .string(order.rawValue)),
            ("includeMemorized", .bool(arguments.flag("include-memorized"))), ("seed", .string(String(seed))),
        ]).compact
        try store.startGame(id: gameId, mode: mode, books: books.map(\.name), planned: questions.count, configJSON: config, at: now)

        var ids = TimeOrderedIDs()
        var answered = 0, right = 0
        var wrongWords: [Word] = []
        var rightWords: [Word] = []
        questionLoop: for (index, question) in questions.enumerated() {
            if let clear = style.clearScreen { console.write(clear) }
            console.print(style.dim("Question \(index + 1) of \(questions.count)"))
            guard let (given, rating) = ask(question, mode: mode, console: console, style: style) else { break questionLoop }
            if !fixedClock { now = .now() }
            try store.recordGameAnswer(gameId: gameId, position: index, question: question, given: given,
                                       rating: rating, at: now, ids: &ids)
            answered += 1
            if rating.rawValue >= Rating.good.rawValue {
                right += 1
                rightWords.append(question.word)
            } else {
                wrongWords.append(question.word)
            }
            // On a terminal the next question clears the screen: let the player read the verdict first.
            if style.interactive && index + 1 < questions.count {
                console.prompt(style.dim("Enter: next question · q: quit "))
                guard let line = console.readLine(), line.trimmingCharacters(in: .whitespaces) != "q" else { break questionLoop }
            }
        }
        try store.finishGame(id: gameId, at: now)

        console.print("")
        let percent = answered == 0 ? 0 : right * 100 / answered
        console.print(style.bold("Score: \(right)/\(answered) (\(percent)%)") + (answered < questions.count ? " — stopped after \(answered) of \(questions.count)" : ""))
        if !wrongWords.isEmpty {
            console.print("To review: " + wrongWords.map { "\($0.word) (\($0.definition.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""))" }.joined(separator: ", "))
        }
        try offerToMemorize(rightWords, after: memorizeAfter, store: store, context: context, now: now)
    }

    /// Shows a question and reads the answer; nil when the player quits (q or end of input).
    private static func ask(_ question: Question, mode: GameMode, console: Console, style: Style) -> (String, Rating)? {
        console.print(style.bold(question.prompt))
        if let hint = question.hint { console.print(style.dim("[\(hint)]")) }
        for (number, option) in question.options.enumerated() { console.print("  \(number + 1). \(option)") }

        if mode == .flashcard {
            if style.interactive {
                console.prompt(style.dim("Enter: show the meaning · q: quit "))
                guard let line = console.readLine(), line.trimmingCharacters(in: .whitespaces) != "q" else { return nil }
            }
            console.print("→ " + question.expected)
            while true {
                console.prompt("Grade 1 again · 2 hard · 3 good · 4 easy · q quit > ")
                guard let line = console.readLine() else { return nil }
                let text = line.trimmingCharacters(in: .whitespaces)
                if text == "q" { return nil }
                if let rating = Rating(name: text) { return (text, rating) }
                console.print("Type 1, 2, 3 or 4.")
            }
        }

        let hint = question.options.isEmpty ? "type the word · q quit" : "number 1-\(question.options.count) · q quit"
        while true {
            console.prompt(style.dim("(\(hint)) ") + "> ")
            guard let line = console.readLine() else { return nil }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text == "q" { return nil }
            guard AnswerJudge.isWellFormed(text, for: question) else {
                console.print(question.options.isEmpty ? "Type an answer, or q to quit." : "Type a number from 1 to \(question.options.count).")
                continue
            }
            let correct = AnswerJudge.isCorrect(text, for: question)
            let answerText = question.correctOption.map { "\($0 + 1). \(question.options[$0])" } ?? question.expected
            console.print(correct ? style.green("✓ Right: \(answerText)") : style.red("✗ Wrong — the answer is \(answerText)"))
            return (text, correct ? .good : .again)
        }
    }

    private static func offerToMemorize(_ words: [Word], after streak: Int, store: Store, context: AppContext, now: Timestamp) throws {
        guard streak > 0 else { return }
        var ready: [Word] = []
        for word in words where !word.memorized {
            if try store.rightStreak(wordId: word.id) >= streak { ready.append(word) }
        }
        guard !ready.isEmpty else { return }
        let list = ready.map(\.word).joined(separator: ", ")
        let console = context.console
        console.print("Right \(streak) times in a row: \(list).")
        if context.console.stdinIsTerminal {
            guard console.confirm("Mark them memorised?") else { return }
            try store.transaction {
                for word in ready { try store.updateWord(id: word.id, WordChanges(memorized: true), now: now) }
            }
            console.print("Marked \(plural(ready.count, "word")) memorised.")
        } else {
            console.print("Mark them memorised: vocab word memorize " + ready.map { ShellQuote.quote($0.word) }.joined(separator: " "))
        }
    }

    /// The books named with --book, or the only book when none is named.
    static func resolveBooks(_ references: [String], store: Store) throws -> [Book] {
        if !references.isEmpty {
            var seen = Set<UUID>()
            return try references.map { try store.book($0) }.filter { seen.insert($0.id).inserted }
        }
        let summaries = try store.bookSummaries()
        if summaries.isEmpty { throw GameSetupError.noBooks }
        if summaries.count == 1 { return [summaries[0].book] }
        throw UsageError.missingArgument(
            name: "--book BOOK (your books: \(summaries.map(\.book.name).joined(separator: ", ")))", command: "game")
    }
}

/// Parsing of numeric and named option values, shared by commands.
func number(_ arguments: ParsedArguments, _ name: String, default fallback: Int) throws -> Int {
    guard let text = arguments.value(name) else { return fallback }
    guard let value = Int(text), value >= 0 else {
        throw UsageError.invalidValue(option: name, value: text, expected: "a whole number, 0 or more")
    }
    return value
}

func positiveNumber(_ arguments: ParsedArguments, _ name: String, default fallback: Int) throws -> Int {
    let value = try number(arguments, name, default: fallback)
    guard value > 0 else { throw UsageError.invalidValue(option: name, value: "\(value)", expected: "a whole number above 0") }
    return value
}

func choice<T: RawRepresentable & CaseIterable>(_ arguments: ParsedArguments, _ name: String, _ type: T.Type,
                                                default fallback: T) throws -> T where T.RawValue == String {
    guard let text = arguments.value(name) else { return fallback }
    guard let value = T(rawValue: text.lowercased()) else {
        throw UsageError.invalidValue(option: name, value: text, expected: T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
}

