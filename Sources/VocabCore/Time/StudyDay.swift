import FoundationEssentials

/// When a learner's study day begins: at `startHour` o'clock where they are (4 a.m. by
/// default, as Anki), not at midnight UTC (9 a.m. in Seoul). The new words of a day are
/// counted from its start.
public struct StudyDay: Sendable, Equatable {
    public var timeZone: TimeZone
    /// 0 to 23.
    public var startHour: Int

    public static let defaultStartHour = 4

    public init(timeZone: TimeZone = .current, startHour: Int = StudyDay.defaultStartHour) {
        self.timeZone = timeZone
        self.startHour = min(max(startHour, 0), 23)
    }

    /// The start of the study day that `time` falls in: the latest local `startHour`:00 at or
    /// before it (on a day that skips that hour for daylight saving, the first moment after).
    public func start(of time: Timestamp) -> Timestamp {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: Double(time.milliseconds) / 1000)
        let startOfDate = calendar.startOfDay(for: date)
        guard var start = calendar.date(bySettingHour: startHour, minute: 0, second: 0, of: startOfDate) else {
            return Timestamp(milliseconds: Int64((startOfDate.timeIntervalSince1970 * 1000).rounded(.down)))
        }
        if start > date, let dayBefore = calendar.date(byAdding: .day, value: -1, to: startOfDate),
           let earlier = calendar.date(bySettingHour: startHour, minute: 0, second: 0, of: dayBefore) {
            start = earlier
        }
        return Timestamp(milliseconds: Int64((start.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
