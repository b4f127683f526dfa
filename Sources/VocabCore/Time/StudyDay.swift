import Glibc

/// When a learner's study day begins: at `startHour` o'clock where they are (4 a.m. by
/// default, as Anki), not at midnight UTC (9 a.m. in Seoul). The new words of a day are
/// counted from its start.
///
/// "Where they are" is this process's local time, as the C library keeps it: the `TZ`
/// variable ("Asia/Seoul", ":Asia/Seoul", a POSIX rule), else the system's zone
/// (/etc/localtime), with the zone rules of the system's tzdata.
public struct StudyDay: Sendable, Equatable {
    /// 0 to 23.
    public var startHour: Int

    public static let defaultStartHour = 4

    public init(startHour: Int = StudyDay.defaultStartHour) {
        self.startHour = min(max(startHour, 0), 23)
    }

    /// The start of the study day that `time` falls in: the latest local `startHour`:00 at or
    /// before it (on a day that skips that hour for daylight saving, the first moment after).
    public func start(of time: Timestamp) -> Timestamp {
        let seconds = time.milliseconds.floorDivided(by: 1000).quotient
        var now = time_t(seconds)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return utcStart(of: seconds) }
        var start = startOfHour(on: local)
        if start > seconds {
            local.tm_mday -= 1  // mktime carries it into the month before when needed
            start = startOfHour(on: local)
        }
        return Timestamp(milliseconds: start * 1000)
    }

    /// `startHour`:00:00 of the local day of `day`, in seconds since the epoch: `mktime`
    /// settles whether summer time is in force, and moves an hour that does not exist that
    /// day (clocks going forward) to the first one after.
    private func startOfHour(on day: tm) -> Int64 {
        var wanted = day
        wanted.tm_hour = Int32(startHour)
        wanted.tm_min = 0
        wanted.tm_sec = 0
        wanted.tm_isdst = -1
        return Int64(mktime(&wanted))
    }

    /// Without a local time (the C library could not tell): the hour in UTC.
    private func utcStart(of seconds: Int64) -> Timestamp {
        let hour = Int64(startHour) * 3600
        return Timestamp(milliseconds: ((seconds - hour).floorDivided(by: 86_400).quotient * 86_400 + hour) * 1000)
    }
}
