import Foundation
import XCTest
@testable import VocabCore

/// A study day starts at the learner's 4 a.m. (or the hour they set), where they are: the
/// process's local time, `TZ` here.
final class StudyDayTests: XCTestCase {
    private func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
    private var savedZone: String?

    override func setUp() {
        savedZone = ProcessInfo.processInfo.environment["TZ"]
    }

    override func tearDown() {
        if let savedZone { setenv("TZ", savedZone, 1) } else { unsetenv("TZ") }
        tzset()
    }

    /// Makes `zone` this process's local time.
    private func living(in zone: String) {
        setenv("TZ", zone, 1)
        tzset()
    }

    func testInSeoulTheDayTurnsAt4AMLocalNotAtMidnightUTC() throws {
        living(in: "Asia/Seoul")
        let seoul = StudyDay()
        // 08:00 and 10:00 the same Seoul morning (23:00 and 01:00 UTC: two UTC days) are one study day.
        XCTAssertEqual(seoul.start(of: at("2026-12-01T23:00:00Z")), at("2026-12-01T19:00:00Z"))
        XCTAssertEqual(seoul.start(of: at("2026-12-02T01:00:00Z")), at("2026-12-01T19:00:00Z"))
        // Around 04:00 in Seoul (19:00 UTC): 03:59 is the day before, 04:00 a new day.
        XCTAssertEqual(seoul.start(of: at("2026-12-02T18:59:59Z")), at("2026-12-01T19:00:00Z"))
        XCTAssertEqual(seoul.start(of: at("2026-12-02T19:00:00Z")), at("2026-12-02T19:00:00Z"))
        // Around 00:00 UTC (09:00 in Seoul): nothing happens.
        XCTAssertEqual(seoul.start(of: at("2026-12-02T23:59:00Z")), seoul.start(of: at("2026-12-03T00:01:00Z")))
    }

    func testInUTCAndWithAnotherHour() throws {
        living(in: "UTC")
        let utc = StudyDay()
        XCTAssertEqual(utc.start(of: at("2026-12-02T03:59:00Z")), at("2026-12-01T04:00:00Z"))
        XCTAssertEqual(utc.start(of: at("2026-12-02T04:00:00Z")), at("2026-12-02T04:00:00Z"))
        let midnight = StudyDay(startHour: 0)
        XCTAssertEqual(midnight.start(of: at("2026-12-02T00:00:00Z")), at("2026-12-02T00:00:00Z"))
        XCTAssertEqual(StudyDay(startHour: 99).startHour, 23)
    }

    func testADaylightSavingChangeStillGivesOneStartADay() throws {
        living(in: "America/New_York")
        let newYork = StudyDay()
        // 2026-03-08: clocks go from 02:00 to 03:00 (EST to EDT). 04:00 EDT is 08:00 UTC.
        XCTAssertEqual(newYork.start(of: at("2026-03-08T12:00:00Z")), at("2026-03-08T08:00:00Z"))
        XCTAssertEqual(newYork.start(of: at("2026-03-08T07:00:00Z")), at("2026-03-07T09:00:00Z"))
        // A start hour the change skips (02:00 that day) is the first moment after: 03:00 EDT.
        XCTAssertEqual(StudyDay(startHour: 2).start(of: at("2026-03-08T12:00:00Z")), at("2026-03-08T07:00:00Z"))
    }

    func testTheDayBeforeMayBeInTheMonthBefore() {
        living(in: ":Asia/Seoul")
        // 03:00 on December 1 in Seoul belongs to November 30's study day.
        XCTAssertEqual(StudyDay().start(of: at("2026-11-30T18:00:00Z")), at("2026-11-29T19:00:00Z"))
        XCTAssertEqual(StudyDay().start(of: at("2027-01-01T18:30:00Z")), at("2026-12-31T19:00:00Z"))
    }
}
