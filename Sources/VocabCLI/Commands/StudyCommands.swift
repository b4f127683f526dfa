import FoundationEssentials
import VocabCore
import VocabSessions

/// `vocab study`, `vocab due` and `vocab review`: spaced repetition with FSRS-6.
enum StudyCommands {
    private static let now = OptionSpec("now", value: "TIME", help: "The time to use (ISO 8601; default: now).")
    private static let books = OptionSpec("book", short: "b", value: "BOOK", repeatable: true, help: "Only this book (default: all).")

    static let study = Command(spec: CommandSpec(
        name: "study", abstract: "Study what is due, then new words up to a daily limit.",
        options: [books, OptionSpec("new", value: "N", help: "New words per day (default \(StudySession.defaultNewPerDay))."), now],
        discussion: """
            Each card shows a word; on a terminal press Enter to see its meaning. Then grade how well you knew it:
            1 again, 2 hard, 3 good, 4 easy (q stops; what you graded is kept). From a pipe, each line is one grade.
            """,
        examples: ["vocab study --book TOEIC", "vocab study --now 2026-12-01T09:00:00Z"]
    )) { arguments, context in
        let library = try context.library()
        let clock = try context.clock(arguments)
        let bookIds = try resolve(arguments.allValues("book"), library: library)
        let newPerDay = try number(arguments, "new", default: StudySession.defaultNewPerDay)
        let session = try StudySession(library: library, bookIds: bookIds, newPerDay: newPerDay, day: try context.paths.studyDay(),
                                       clock: clock)
        let console = context.console
        let style = Style(console: console, environment: context.environment)
        guard !session.cards.isEmpty else {
            console.print(TerminalWording.nothingToStudy(try StudySession.nothingToStudy(library: library, bookIds: bookIds),
                                                         at: clock.now()))
            return
        }
        console.print("\(plural(session.dueCount, "word")) due, \(plural(session.newCount, "new word")).")
        let names = try library.bookNames()
        while let card = session.current {
            let word = card.word
            if let clear = style.clearScreen { console.write(clear) }
            console.print(style.dim("\(session.position + 1)/\(session.cards.count) · \(card.isDue ? "due" : "new") · \(names[word.bookId] ?? "")"))
            console.print(style.bold(word.word) + (word.pronunciation.isEmpty ? "" : style.dim("  [\(word.pronunciation)]")))
            if style.interactive {
                console.prompt(style.dim("Enter: show the meaning · q: stop "))
                guard let line = console.readLine(), line.trimmingSpaces() != "q" else { break }
            }
            console.print("→ " + (word.definition.isEmpty ? "(no definition)" : word.definition))
            for (label, value) in [("synonym", word.synonym), ("antonym", word.antonym), ("detail", word.detail)] where !value.isEmpty {
                console.print(style.dim("  \(label): \(value)"))
            }
            guard let rating = readGrade(console), let schedule = try session.grade(rating) else { break }
            console.print(style.dim("Next: \(describeDue(schedule.due, from: schedule.lastReview))"))
        }
        console.print("Studied \(plural(session.graded, "word")).")
    }

    static let due = Command(spec: CommandSpec(
        name: "due", abstract: "List the words due for review.",
        options: [books, now, .json]
    )) { arguments, context in
        let library = try context.library()
        let time = try context.now(arguments)
        let bookIds = try resolve(arguments.allValues("book"), library: library)
        let due = try library.dueWords(inBooks: bookIds, at: time, limit: 100_000)
        let newCount = try library.newWordCount(inBooks: bookIds)
        let console = context.console
        // The books' names only when a word is listed (nothing due is the common answer).
        let names = due.isEmpty ? [:] : try library.bookNames()
        if arguments.flag("json") {
            console.print(JSONValue.object([
                ("now", .string(time.iso8601)),
                ("due", .array(due.map { item in
                    var members: [(String, JSONValue)] = [("id", .string(item.word.id.lowercaseText)),
                                                          ("book", .string(names[item.word.bookId] ?? "")),
                                                          ("word", .string(item.word.word))]
                    if let schedule = item.schedule { members += ScheduleJSON.members(schedule) }
                    return .object(members)
                })),
                ("newWords", .int(Int64(newCount))),
            ]).pretty)
            return
        }
        guard !due.isEmpty else {
            let next = TerminalWording.nextReview(try StudySession.nextReview(library: library, bookIds: bookIds), from: time)
            console.print("Nothing is due. \(next) \(plural(newCount, "new word")) waiting.")
            return
        }
        var table = TextTable(header: ["WORD", "BOOK", "STATE", "DUE"])
        for item in due {
            table.rows.append([TextWidth.fit(item.word.word, width: 30), TextWidth.fit(names[item.word.bookId] ?? "", width: 20),
                               item.schedule?.state.name ?? "", item.schedule.map { describeDue($0.due, from: time) } ?? ""])
        }
        table.render().forEach(console.print)
        console.print("(\(plural(due.count, "word")) due, \(plural(newCount, "new word")) waiting; `vocab study` to review)")
    }

    static let review = Command(spec: CommandSpec(
        name: "review", abstract: "Record one review of a word and show when it is due next.",
        arguments: [ArgumentSpec("WORD", help: "The word's text or id.")],
        options: [OptionSpec("book", short: "b", value: "BOOK", help: "The word's book, when several hold it."),
                  OptionSpec("rating", short: "r", value: "RATING", help: "again, hard, good or easy (or 1-4)."), now, .json],
        examples: ["vocab review abandon --rating good --now 2026-12-01T09:00:00Z"]
    )) { arguments, context in
        guard let ratingText = arguments.value("rating") else {
            throw UsageError.missingArgument(name: "--rating again|hard|good|easy", command: "review")
        }
        guard let rating = Rating(name: ratingText) else {
            throw UsageError.invalidValue(option: "rating", value: ratingText, expected: "again, hard, good or easy")
        }
        let library = try context.library()
        let time = try context.now(arguments)
        let bookId = try arguments.value("book").map { try library.book($0).id }
        let word = try library.word(arguments.positionals[0], inBook: bookId)
        let schedule = try ReviewRecording.record(word.id, rating: rating, at: time, source: .review, in: library)
        if arguments.flag("json") {
            context.console.print(JSONValue.object([("word", .string(word.word))] + ScheduleJSON.members(schedule)).pretty)
        } else {
            context.console.print("Reviewed \"\(word.word)\" (\(rating.name)): \(schedule.state.name), due \(describeDue(schedule.due, from: time)) (\(schedule.due.iso8601)).")
        }
    }

    static func readGrade(_ console: Console) -> Rating? {
        while true {
            console.prompt("Grade 1 again · 2 hard · 3 good · 4 easy · q stop > ")
            guard let line = console.readLine() else { return nil }
            let text = line.trimmingSpaces()
            if text == "q" { return nil }
            if let rating = Rating(name: text) { return rating }
            console.print("Type 1, 2, 3 or 4 (or again, hard, good, easy).")
        }
    }

    static func resolve(_ references: [String], library: Library) throws -> [UUID]? {
        try BookLookup.bookIds(references, library: library)
    }

    /// "in 10 minutes", "in 3 days", "now".
    static func describeDue(_ due: Timestamp, from time: Timestamp) -> String {
        TerminalWording.due(DueInterval(due, from: time))
    }
}

/// The JSON members of a schedule (in `word show --json`, `due --json`, `review --json`).
enum ScheduleJSON {
    static func members(_ schedule: Schedule) -> [(String, JSONValue)] {
        [("state", .string(schedule.state.name)), ("step", schedule.step.map { .int(Int64($0)) } ?? .null),
         ("stability", .double(schedule.stability)), ("difficulty", .double(schedule.difficulty)),
         ("due", .string(schedule.due.iso8601)), ("lastReview", .string(schedule.lastReview.iso8601)),
         ("reviews", .int(Int64(schedule.reviews))), ("lapses", .int(Int64(schedule.lapses)))]
    }

    static func value(_ schedule: Schedule?) -> JSONValue {
        schedule.map { .object(members($0)) } ?? .null
    }
}
