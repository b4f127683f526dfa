/// What the progress report's charts show, declared once: the window (cairo), the page (SVG,
/// from the report's JSON `charts` and `/api/meta`) and the terminal (blocks) draw these and
/// choose nothing of their own.
public enum ProgressCharts {
    /// The spans (study days) a learner chooses from; the last is the one shown first.
    public static let spans = [30, 90, ProgressReport.defaultDays]
    /// The recent days the "words added" chart shows.
    public static let recentDays = 30
    /// The weeks the calendar shows, a column a week, today in the last.
    public static let calendarWeeks = 53
    /// The due chart's marked days, from today (0) to the last of `DueAhead.dayCount`.
    public static let dueDayMarks = [0, 7, 14, 21, DueAhead.dayCount - 1]
    /// The hours marked under the reviews-by-hour chart.
    public static let hourMarks = [0, 6, 12, 18, 23]
    /// The memory chart's marked tenths of recall (0 %, 50 %, 90 %).
    public static let recallMarks = [0, 5, 9]
}

extension ProgressReport {
    /// Words added on each of the chart's recent days, oldest first.
    public var recentlyAdded: [Int] { Array(added.suffix(ProgressCharts.recentDays)) }

    /// The calendar's cells, seven a column (a week), oldest first and today the last: nil
    /// fills the first column's days before the span.
    public var calendarCells: [Int?] {
        let shown = calendar.reviews.suffix(ProgressCharts.calendarWeeks * 7)
        return [Int?](repeating: nil, count: (7 - shown.count % 7) % 7) + shown.map { Optional($0) }
    }
}
