/// Which backups to keep, in the manner of Anki's and restic's: the newest `recent`, then the
/// newest backup of each of the last `daily` days, `weekly` weeks and `monthly` months that
/// have one (UTC days; weeks of 7 days since the epoch; calendar months). Pure: the same
/// times always keep the same set.
public struct BackupRetention: Sendable, Equatable {
    public var recent: Int
    public var daily: Int
    public var weekly: Int
    public var monthly: Int

    public init(recent: Int = 8, daily: Int = 7, weekly: Int = 4, monthly: Int = 12) {
        self.recent = max(1, recent)
        self.daily = max(0, daily)
        self.weekly = max(0, weekly)
        self.monthly = max(0, monthly)
    }

    /// The times of the backups to keep.
    public func keep(_ times: [Timestamp]) -> Set<Timestamp> {
        let newestFirst = times.sorted(by: >)
        var kept = Set(newestFirst.prefix(recent))
        func keepNewestPer(_ count: Int, bucket: (Timestamp) -> Int64) {
            var seen = Set<Int64>()
            for time in newestFirst where seen.count < count {
                if seen.insert(bucket(time)).inserted { kept.insert(time) }
            }
        }
        let day: Int64 = 86_400_000
        keepNewestPer(daily) { $0.milliseconds.floorDivided(by: day).quotient }
        keepNewestPer(weekly) { $0.milliseconds.floorDivided(by: day).quotient.floorDivided(by: 7).quotient }
        keepNewestPer(monthly) { time in
            let (year, month, _) = CivilCalendar.date(fromDaysSinceEpoch: time.milliseconds.floorDivided(by: day).quotient)
            return year * 12 + month
        }
        return kept
    }
}
