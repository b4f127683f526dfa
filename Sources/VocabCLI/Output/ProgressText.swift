import VocabCore

/// The progress report in a terminal: bars of Unicode blocks, a calendar of weeks, tables.
enum ProgressText {
    /// Every section of `report`, as lines.
    static func lines(_ report: ProgressReport, style: Style) -> [String] {
        var lines: [String] = []
        let due = report.dueAhead
        lines.append(style.bold("Due") + "         \(due.backlog) overdue · \(due.days.first ?? 0) today · \(due.thisWeek) this week")
        lines.append("  next \(due.days.count) days   \(bars(due.days))  (most in a day: \(due.days.max() ?? 0))")
        lines.append("  next 52 weeks  \(bars(due.weeks))")

        let calendar = report.calendar
        lines.append(style.bold("Studied") + "     \(calendar.studiedDays) of the last \(plural(report.days, "day")) · "
                     + "streak \(plural(calendar.currentStreak, "day")) (longest \(calendar.longestStreak)) · "
                     + CFormat.string("%.1f", calendar.averagePerStudiedDay) + " reviews a day studied")
        lines += weeks(report.calendarCells).map { "  " + $0 }
        lines.append(style.dim("  a column a week, today last; · none, ░▒▓█ more"))

        lines.append(style.bold("True retention") + " (the scheduler aims at \(percent(report.desiredRetention)))")
        var table = TextTable(header: [""] + report.retention.map(\.period.rawValue))
        table.rows.append(["young"] + report.retention.map { rate($0.young) })
        table.rows.append(["mature"] + report.retention.map { rate($0.mature) })
        table.rows.append(["all"] + report.retention.map { rate($0.all) })
        lines += table.render().map { "  " + $0 }

        let words = report.standing
        lines.append(style.bold("Words") + "       \(words.new) new · \(words.learning) learning · \(words.young) young · "
                     + "\(words.mature) mature · \(words.memorized) memorised")
        if report.books.count > 1 {
            var books = TextTable(header: ["BOOK", "NEW", "LEARNING", "YOUNG", "MATURE", "MEMORISED"])
            for book in report.books {
                let standing = book.standing
                books.rows.append([TextWidth.fit(book.name, width: 30), "\(standing.new)", "\(standing.learning)",
                                   "\(standing.young)", "\(standing.mature)", "\(standing.memorized)"])
            }
            lines += books.render().map { "  " + $0 }
        }
        let recent = report.recentlyAdded
        lines.append(style.bold("Added") + "       \(bars(recent))  \(plural(recent.reduce(0, +), "word")) in the last \(plural(recent.count, "day"))")
        let hours = report.hours
        lines.append(style.bold("By hour") + "     \(bars(hours.map(\.total)))  0–23 h; most reviews at \(busiestHour(hours))")
        lines.append(style.bold("Answers") + "     " + report.buttons.map { button in
            "\(button.kind.rawValue): " + zip(Rating.allCases, button.counts).map { "\($0.name) \($1)" }.joined(separator: " ")
        }.joined(separator: " · "))
        let memory = report.memory
        lines.append(style.bold("Memory") + "      stability " + CFormat.string("%.1f", memory.meanStability) + " days on average · "
                     + "difficulty \(percent(memory.meanDifficulty)) · recall now \(percent(memory.meanRetrievability))")
        return lines
    }

    private static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One block per value, as tall as its share of the largest; `·` for none.
    static func bars(_ values: [Int]) -> String {
        let top = max(values.max() ?? 0, 1)
        return String(values.map { value in
            value == 0 ? "·" : blocks[min(blocks.count - 1, (value * blocks.count - 1) / top)]
        })
    }

    /// The calendar's cells as a grid of 7 rows, a column a week, today the last cell: none
    /// `·`, then four shades by the day's share of the busiest day.
    static func weeks(_ padded: [Int?]) -> [String] {
        let top = max(padded.compactMap { $0 }.max() ?? 0, 1)
        let shades: [Character] = ["░", "▒", "▓", "█"]
        return (0..<7).map { row in
            String(stride(from: row, to: padded.count, by: 7).map { index -> Character in
                guard let count = padded[index] else { return " " }
                return count == 0 ? "·" : shades[min(3, (count * 4 - 1) / top)]
            })
        }
    }

    private static func rate(_ tally: PassTally) -> String {
        tally.rate.map { "\(percent($0)) of \(tally.total)" } ?? "–"
    }

    static func percent(_ share: Double) -> String { CFormat.string("%.1f%%", share * 100) }

    private static func busiestHour(_ hours: [PassTally]) -> String {
        guard let best = hours.indices.max(by: { hours[$0].total < hours[$1].total }), hours[best].total > 0 else { return "–" }
        return "\(best) h"
    }
}
