import VocabCore
import VocabSessions

/// `vocab stats`: totals, the progress report (due ahead, days studied, true retention, where
/// words stand, memory) and game history.
enum StatsCommand {
    static let command = Command(spec: CommandSpec(
        name: "stats", abstract: "Show your progress: what is due, days studied, retention, words and games.",
        options: [OptionSpec("book", short: "b", value: "BOOK", repeatable: true, help: "Only this book (default: all)."),
                  OptionSpec("days", value: "N", help: "Days the calendar and answers cover (1 to \(ProgressReport.maximumDays); default \(ProgressReport.defaultDays))."),
                  OptionSpec("games", value: "N", help: "How many recent games to list (default 10)."),
                  OptionSpec("now", value: "TIME", help: "The time to count due words at (ISO 8601)."), .json],
        discussion: """
            Every day is a study day: it begins at 4 a.m. where you are (TZ), or at the hour set as dayStartHour.
            True retention counts the reviews of words last seen on an earlier day: young words (an interval under
            21 days) and mature ones.
            """,
        examples: ["vocab stats", "vocab stats --book TOEIC --days 30", "vocab stats --json"]
    )) { arguments, context in
        let library = try context.library()
        let time = try context.now(arguments)
        let limit = try number(arguments, "games", default: 10)
        let days = try number(arguments, "days", default: ProgressReport.defaultDays)  // its bounds: ProgressService's
        let bookIds = try StudyCommands.resolve(arguments.allValues("book"), library: library)
        let report = try ProgressService.report(in: library, books: bookIds, days: days, now: time, studyDay: try context.paths.studyDay())
        let summaries = try library.bookSummaries()
        let words = summaries.reduce(0) { $0 + $1.wordCount }
        let memorized = summaries.reduce(0) { $0 + $1.memorizedCount }
        let reviews = try library.reviewCount()
        let due = try library.dueCount(inBooks: nil, at: time)
        let totals = try library.gameTotals()
        let games = try library.recentGames(limit: limit)
        let console = context.console
        if arguments.flag("json") {
            console.print(JSONValue.object([
                ("books", .int(Int64(summaries.count))), ("words", .int(Int64(words))),
                ("memorized", .int(Int64(memorized))), ("reviews", .int(Int64(reviews))), ("due", .int(Int64(due))),
                ("games", .int(Int64(totals.games))), ("answered", .int(Int64(totals.answered))),
                ("correct", .int(Int64(totals.correct))),
                ("progress", report.json),
                ("recentGames", .array(games.map { game in
                    .object([("id", .string(game.id.lowercaseText)), ("startedAt", .string(game.startedAt.iso8601)),
                             ("mode", .string(game.mode)), ("books", .array(game.books.map { .string($0) })),
                             ("planned", .int(Int64(game.planned))), ("answered", .int(Int64(game.answered))),
                             ("correct", .int(Int64(game.correct))), ("wrong", .array(game.wrongWords.map { .string($0) }))])
                })),
            ]).pretty)
            return
        }
        console.print("\(plural(summaries.count, "book")), \(plural(words, "word")) (\(memorized) memorised)")
        console.print("\(plural(reviews, "review")) logged; \(plural(due, "word")) due now")
        let accuracy = GameSummary.percent(right: totals.correct, of: totals.answered)
        console.print("\(plural(totals.games, "game")) played: \(totals.correct)/\(totals.answered) right (\(accuracy)%)")
        console.print("")
        ProgressText.lines(report, style: Style(console: console, environment: context.environment)).forEach(console.print)
        guard !games.isEmpty else { return }
        console.print("")
        var table = TextTable(header: ["WHEN", "MODE", "BOOKS", "SCORE", "WRONG"])
        for game in games {
            table.rows.append([game.startedAt.iso8601, game.mode, TextWidth.fit(game.books.joined(separator: ", "), width: 24),
                               "\(game.correct)/\(game.answered)" + (game.answered < game.planned ? " of \(game.planned)" : ""),
                               TextWidth.fit(game.wrongWords.joined(separator: ", "), width: 40)])
        }
        table.render().forEach(console.print)
    }
}
