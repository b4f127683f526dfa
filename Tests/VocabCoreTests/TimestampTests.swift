import XCTest
@testable import VocabCore

final class TimestampTests: XCTestCase {
    func testFormatsTheEpochAndMilliseconds() {
        XCTAssertEqual(Timestamp(milliseconds: 0).iso8601, "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(milliseconds: 1_764_495_296_250).iso8601, "2025-11-30T09:34:56.250Z")
        XCTAssertEqual(Timestamp(milliseconds: -1).iso8601, "1969-12-31T23:59:59.999Z")
    }

    func testParsesTheFormsPeopleWrite() {
        XCTAssertEqual(Timestamp(iso8601: "2026-11-30")?.iso8601, "2026-11-30T00:00:00Z")
        XCTAssertEqual(Timestamp(iso8601: "2026-11-30T09:15")?.iso8601, "2026-11-30T09:15:00Z")
        XCTAssertEqual(Timestamp(iso8601: "2026-11-30 09:15:07.5Z")?.iso8601, "2026-11-30T09:15:07.500Z")
        XCTAssertEqual(Timestamp(iso8601: "2026-11-30T18:15:00+09:00")?.iso8601, "2026-11-30T09:15:00Z")
        XCTAssertEqual(Timestamp(iso8601: "2024-02-29")?.isoDay, "2024-02-29")
    }

    func testRejectsImpossibleOrMalformedDates() {
        for text in ["", "2026", "2026-13-01", "2023-02-29", "2026-11-31", "2026-11-30T25:00", "30/11/2026",
                     "2026-11-30T09:15:00Zjunk", "2026-11-30T09:15:00.Z", "２０２６-11-30"] {
            XCTAssertNil(Timestamp(iso8601: text), text)
        }
    }

    func testEveryFormattedTimeParsesBackToItself() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let stamp = Timestamp(milliseconds: Int64.random(in: -2_000_000_000_000...5_000_000_000_000, using: &generator))
            XCTAssertEqual(Timestamp(iso8601: stamp.iso8601), stamp, stamp.iso8601)
        }
    }

    /// Foundation switches to the Julian calendar before 1582; ISO 8601 stays Gregorian, so
    /// compare from 1600 on.
    func testAgreesWithFoundationOnCalendarDays() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for days in stride(from: -135_000, to: 800_000, by: 997) {
            let stamp = Timestamp(milliseconds: Int64(days) * 86_400_000)
            XCTAssertEqual(stamp.iso8601, formatter.string(from: stamp.date), "day \(days)")
        }
    }
}
