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
        keepNewestPer(daily) { $0.milliseconds >= 0 ? $0.milliseconds / day : ($0.milliseconds - day + 1) / day }
        keepNewestPer(weekly) { ($0.milliseconds >= 0 ? $0.milliseconds / day : ($0.milliseconds - day + 1) / day) / 7 }
        keepNewestPer(monthly) { time in
            let (year, month, _) = CivilDate.from(daysSinceEpoch: time.milliseconds / day)
            return Int64(year) * 12 + Int64(month)
        }
        return kept
    }
}

/// Calendar dates from day numbers (proleptic Gregorian, UTC).
enum CivilDate {
    /// Howard Hinnant's civil_from_days.
    static func from(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }
}
