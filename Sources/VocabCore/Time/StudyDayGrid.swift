/// The starts of consecutive study days around today, so that a time's study day is found by
/// a binary search instead of asking the C library for each of a million reviews. Days of 23
/// or 25 hours (summer time) are as long as they are where the learner is.
public struct StudyDayGrid: Sendable {
    /// Ascending starts in milliseconds: `back` days before today, today, `ahead` days after,
    /// and the end of the last of them.
    public let starts: [Int64]
    /// The position of today's start in `starts`.
    public let todayIndex: Int
    public let studyDay: StudyDay

    public init(around now: Timestamp, studyDay: StudyDay, back: Int, ahead: Int) {
        self.studyDay = studyDay
        let today = studyDay.start(of: now).milliseconds
        var before: [Int64] = []
        var start = today
        for _ in 0..<max(0, back) {
            start = studyDay.start(of: Timestamp(milliseconds: start - 1)).milliseconds
            before.append(start)
        }
        var after: [Int64] = []
        start = today
        for _ in 0...max(0, ahead) {
            // 26 hours on is inside the next day however long this one is (23 to 25 hours).
            start = studyDay.start(of: Timestamp(milliseconds: start + 26 * 3_600_000)).milliseconds
            after.append(start)
        }
        starts = before.reversed() + [today] + after
        todayIndex = before.count
    }

    public var todayStart: Timestamp { Timestamp(milliseconds: starts[todayIndex]) }

    /// The study day of `milliseconds` counted from today (0 today, -1 yesterday, 1 tomorrow),
    /// nil outside the grid.
    public func day(of milliseconds: Int64) -> Int? {
        guard let first = starts.first, let last = starts.last, milliseconds >= first, milliseconds < last else { return nil }
        // A guess from whole days, then a step or two: the days are 23 to 25 hours long and
        // their changes cancel out, so the guess is off by at most a day.
        var index = min(Int((milliseconds - first) / 86_400_000), starts.count - 2)
        while starts[index] > milliseconds { index -= 1 }
        while starts[index + 1] <= milliseconds { index += 1 }
        return index - todayIndex
    }

    /// The local hour of `milliseconds` on study day `day` (the hours since its start, from the
    /// hour it starts at; on a day of 23 or 25 hours the hours after the change are off by one).
    public func hour(of milliseconds: Int64, day: Int) -> Int {
        let since = milliseconds - starts[todayIndex + day]
        return (studyDay.startHour + Int(since / 3_600_000)) % 24
    }
}
