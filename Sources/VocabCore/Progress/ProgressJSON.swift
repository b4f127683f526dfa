/// The progress report as JSON: what `stats --json` prints and the page's Progress draws
/// from (DESIGN.md §9 lists the fields).
extension ProgressReport {
    public var json: JSONValue {
        func ints(_ values: [Int]) -> JSONValue { .array(values.map { .int(Int64($0)) }) }
        func tally(_ tally: PassTally) -> JSONValue {
            .object([("passed", .int(Int64(tally.passed))), ("failed", .int(Int64(tally.failed))),
                     ("rate", tally.rate.map { .double($0) } ?? .null)])
        }
        func counts(_ standing: WordStanding) -> JSONValue {
            .object([("new", .int(Int64(standing.new))), ("learning", .int(Int64(standing.learning))),
                     ("young", .int(Int64(standing.young))), ("mature", .int(Int64(standing.mature))),
                     ("memorized", .int(Int64(standing.memorized))), ("total", .int(Int64(standing.total)))])
        }
        return .object([
            ("now", .string(now.iso8601)), ("todayStart", .string(todayStart.iso8601)), ("days", .int(Int64(days))),
            ("dueAhead", .object([("backlog", .int(Int64(dueAhead.backlog))), ("thisWeek", .int(Int64(dueAhead.thisWeek))),
                                  ("days", ints(dueAhead.days)), ("weeks", ints(dueAhead.weeks))])),
            ("calendar", .object([("reviews", ints(calendar.reviews)), ("total", .int(Int64(calendar.total))),
                                  ("studiedDays", .int(Int64(calendar.studiedDays))),
                                  ("currentStreak", .int(Int64(calendar.currentStreak))),
                                  ("longestStreak", .int(Int64(calendar.longestStreak))),
                                  ("averagePerStudiedDay", .double(calendar.averagePerStudiedDay))])),
            ("retention", .object([("desired", .double(desiredRetention)),
                                   ("spans", .array(retention.map { span in
                                       .object([("period", .string(span.period.rawValue)), ("young", tally(span.young)),
                                                ("mature", tally(span.mature)), ("all", tally(span.all))])
                                   }))])),
            ("standing", counts(standing)),
            ("books", .array(books.map { book in
                .object([("id", .string(book.bookId.lowercaseText)), ("name", .string(book.name)), ("standing", counts(book.standing))])
            })),
            ("added", ints(added)),
            ("hours", .array(hours.map(tally))),
            ("buttons", .array(buttons.map { button in
                .object([("kind", .string(button.kind.rawValue))] + zip(Rating.allCases, button.counts).map { ($0.name, .int(Int64($1))) })
            })),
            ("memory", .object([("stabilityEdges", .array(MemorySpread.stabilityEdges.map { .double($0) })),
                                ("stability", ints(memory.stability)), ("difficulty", ints(memory.difficulty)),
                                ("retrievability", ints(memory.retrievability)),
                                ("meanStability", .double(memory.meanStability)),
                                ("meanDifficulty", .double(memory.meanDifficulty)),
                                ("meanRetrievability", .double(memory.meanRetrievability))])),
            ("charts", .object([("spans", ints(ProgressCharts.spans)), ("recentDays", .int(Int64(ProgressCharts.recentDays))),
                                ("calendarWeeks", .int(Int64(ProgressCharts.calendarWeeks))), ("dueDayMarks", ints(ProgressCharts.dueDayMarks)),
                                ("hourMarks", ints(ProgressCharts.hourMarks)), ("recallMarks", ints(ProgressCharts.recallMarks))])),
        ])
    }
}
