import Foundation
import XCTest
@testable import VocabCore

/// A study day starts at the learner's 4 a.m. (or the hour they set), where they are.
final class StudyDayTests: XCTestCase {
    private func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    func testInSeoulTheDayTurnsAt4AMLocalNotAtMidnightUTC() throws {
        let seoul = StudyDay(timeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Seoul")))
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
        let utc = StudyDay(timeZone: try XCTUnwrap(TimeZone(identifier: "UTC")))
        XCTAssertEqual(utc.start(of: at("2026-12-02T03:59:00Z")), at("2026-12-01T04:00:00Z"))
        XCTAssertEqual(utc.start(of: at("2026-12-02T04:00:00Z")), at("2026-12-02T04:00:00Z"))
        let midnight = StudyDay(timeZone: try XCTUnwrap(TimeZone(identifier: "UTC")), startHour: 0)
        XCTAssertEqual(midnight.start(of: at("2026-12-02T00:00:00Z")), at("2026-12-02T00:00:00Z"))
        XCTAssertEqual(StudyDay(startHour: 99).startHour, 23)
    }

    func testADaylightSavingChangeStillGivesOneStartADay() throws {
        let newYork = StudyDay(timeZone: try XCTUnwrap(TimeZone(identifier: "America/New_York")))
        // 2026-03-08: clocks go from 02:00 to 03:00 (EST to EDT). 04:00 EDT is 08:00 UTC.
        XCTAssertEqual(newYork.start(of: at("2026-03-08T12:00:00Z")), at("2026-03-08T08:00:00Z"))
        XCTAssertEqual(newYork.start(of: at("2026-03-08T07:00:00Z")), at("2026-03-07T09:00:00Z"))
    }
}
