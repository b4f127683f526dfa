import FoundationEssentials
import VocabCore
import VocabSessions

/// `vocab game`: the test game over one or more books.
enum GameCommand {
    static let command = Command(spec: CommandSpec(
        name: "game", abstract: "Play a test game over one or more books.",
        options: [
            OptionSpec("book", short: "b", value: "BOOK", repeatable: true, help: "A book to play (default: your only book)."),
            OptionSpec("count", short: "n", value: "N", help: "How many questions (\(GamePlanner.countRange.lowerBound) to \(GamePlanner.countRange.upperBound); default \(GamePlanner.defaultCount))."),
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
        let count = try number(arguments, "count", default: GamePlanner.defaultCount)  // its bounds: GameSession's
        let memorizeAfter = try number(arguments, "memorize-after", default: 3)
        let mode = try choice(arguments, "mode", GameMode.self, default: .choice)
        let order = try choice(arguments, "order", GameOrder.self, default: .random)
        var seed: UInt64?
        if let text = arguments.value("seed") {
            guard let value = UInt64(text) else { throw UsageError.invalidValue(option: "seed", value: text, expected: "a whole number") }
            seed = value
        }
        let clock = try context.clock(arguments)
        let library = try context.library()
        let books = try resolveBooks(arguments.allValues("book"), library: library)
        let configuration = GameConfiguration(mode: mode, count: count, order: order,
                                              includeMemorized: arguments.flag("include-memorized"), seed: seed,
                                              memorizeAfter: memorizeAfter)
        let game = try GameSession(library: library, books: books, configuration: configuration, clock: clock)
        let console = context.console
        let style = Style(console: console, environment: context.environment)
        if let note = game.note { console.print(note) }

        questionLoop: while let question = game.current {
            if let clear = style.clearScreen { console.write(clear) }
            console.print(style.dim("Question \(game.index + 1) of \(game.questions.count)"))
            guard try ask(question, game: game, library: library, console: console, style: style) else { break questionLoop }
            game.advance()
            // On a terminal the next question clears the screen: let the player read the verdict first.
            if style.interactive && game.current != nil {
                console.prompt(style.dim("Enter: next question · q: quit "))
                guard let line = console.readLine(), line.trimmingSpaces() != "q" else { break questionLoop }
            }
        }
        let summary = try game.finish(in: library)

        console.print("")
        console.print(style.bold("Score: \(summary.right)/\(summary.answered) (\(summary.percent)%)")
                      + (summary.stoppedEarly ? " — stopped after \(summary.answered) of \(summary.planned)" : ""))
        if !summary.wrongWords.isEmpty {
            console.print("To review: " + summary.wrongWords.map { "\($0.word) (\($0.definition.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""))" }.joined(separator: ", "))
        }
        try offerToMemorize(game, library: library, context: context)
    }

    /// Shows a question, reads the answer and shows the verdict; false when the player quits
    /// (q or end of input).
    private static func ask(_ question: Question, game: GameSession, library: Library, console: Console, style: Style) throws -> Bool {
        console.print(style.bold(question.prompt))
        if let hint = question.hint { console.print(style.dim("[\(hint)]")) }
        for (number, option) in question.options.enumerated() { console.print("  \(number + 1). \(option)") }

        if game.configuration.mode == .flashcard {
            if style.interactive {
                console.prompt(style.dim("Enter: show the meaning · q: quit "))
                guard let line = console.readLine(), line.trimmingSpaces() != "q" else { return false }
            }
            console.print("→ " + question.expected)
            while true {
                console.prompt("Grade 1 again · 2 hard · 3 good · 4 easy · q quit > ")
                guard let line = console.readLine() else { return false }
                let text = line.trimmingSpaces()
                if text == "q" { return false }
                if let rating = Rating(name: text) {
                    try game.grade(rating, in: library)
                    return true
                }
                console.print("Type 1, 2, 3 or 4.")
            }
        }

        let hint = question.options.isEmpty ? "type the word · q quit" : "number 1-\(question.options.count) · q quit"
        while true {
            console.prompt(style.dim("(\(hint)) ") + "> ")
            guard let line = console.readLine() else { return false }
            let text = line.trimmingSpaces()
            if text == "q" { return false }
            guard let verdict = try game.answer(.typed(text), in: library) else {
                console.print(TerminalWording.expected(game.expectedAnswer))
                continue
            }
            console.print(verdict.correct ? style.green("✓ Right: \(verdict.answer)") : style.red("✗ Wrong — the answer is \(verdict.answer)"))
            return true
        }
    }

    private static func offerToMemorize(_ game: GameSession, library: Library, context: AppContext) throws {
        let ready = try game.memorizeCandidates(in: library)
        guard !ready.isEmpty else { return }
        let list = ready.map(\.word).joined(separator: ", ")
        let console = context.console
        console.print("Right \(game.configuration.memorizeAfter) times in a row: \(list).")
        if context.console.stdinIsTerminal {
            guard console.confirm("Mark them memorised?") else { return }
            try game.memorize(ready, in: library)
            console.print("Marked \(plural(ready.count, "word")) memorised.")
        } else {
            console.print("Mark them memorised: vocab word memorize " + ready.map { ShellQuote.quote($0.word) }.joined(separator: " "))
        }
    }

    /// The books named with --book, or the only book when none is named.
    static func resolveBooks(_ references: [String], library: Library) throws -> [Book] {
        switch try BookLookup.gameBooks(references, library: library) {
        case .books(let books): return books
        case .mustChoose(let names):
            throw UsageError.missingArgument(name: "--book BOOK (your books: \(names.joined(separator: ", ")))", command: "game")
        }
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

