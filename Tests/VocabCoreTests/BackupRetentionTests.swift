import XCTest
@testable import VocabCore

final class BackupRetentionTests: XCTestCase {
    let start = Timestamp(iso8601: "2026-01-01T00:00:00Z")!

    func testAYearOfHalfHourlyBackupsKeepsThePromisedSet() {
        let retention = BackupRetention()
        var kept: [Timestamp] = []
        // Every 30 minutes for a year, pruning after each backup as vocab does.
        for step in 0..<(365 * 48) {
            kept.append(start.adding(seconds: Double(step) * 1800))
            let keep = retention.keep(kept)
            kept = kept.filter { keep.contains($0) }
        }
        let newest = kept.max()!
        XCTAssertEqual(newest, start.adding(seconds: Double(365 * 48 - 1) * 1800))
        let day: Int64 = 86_400_000
        let days = Set(kept.map { $0.milliseconds / day })
        // 8 newest (all on the last day) + the newest of each of the 6 days before, then weeks, then months.
        XCTAssertEqual(kept.filter { $0.milliseconds / day == newest.milliseconds / day }.count, 8)
        for back in 1..<7 { XCTAssertTrue(days.contains(newest.milliseconds / day - Int64(back)), "day -\(back)") }
        let months = Set(kept.map { CivilCalendar.date(fromDaysSinceEpoch: $0.milliseconds / day).month })
        XCTAssertEqual(months.count, 12, "one per month for a year")
        XCTAssertLessThanOrEqual(kept.count, 8 + 6 + 4 + 12)
        XCTAssertGreaterThanOrEqual(kept.count, 8 + 6 + 11)
    }

    func testTheNewestBackupOfEachBucketIsTheOneKept() {
        let retention = BackupRetention(recent: 1, daily: 2, weekly: 0, monthly: 0)
        let times = [0, 3600, 7200, 86_400 + 10, 86_400 + 20].map { start.adding(seconds: Double($0)) }
        XCTAssertEqual(retention.keep(times), [times[4], times[2]])
    }
}
