import XCTest
@testable import VocabCore

/// Our FSRS-6 against the reference implementation (PyPI `fsrs` 6.x, defaults, no fuzz):
/// cases made by scripts/fsrs_reference.py.
final class FSRSTests: XCTestCase {
    private struct Step: Decodable {
        let rating: Int
        let at: Int64
        let state: Int
        let step: Int?
        let stability: Double
        let difficulty: Double
        let due: Int64
    }

    private struct Cases: Decodable {
        let cases: [[Step]]
    }

    func testEveryReviewMatchesTheReferenceImplementation() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/fsrs-cases.json")
        let cases = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: url)).cases
        XCTAssertGreaterThanOrEqual(cases.count, 300)
        let scheduler = FSRSScheduler()
        var compared = 0
        for (caseIndex, steps) in cases.enumerated() {
            var schedule: Schedule?
            for (index, expected) in steps.enumerated() {
                let rating = try XCTUnwrap(Rating(rawValue: expected.rating))
                let next = scheduler.review(schedule, rating: rating, at: Timestamp(milliseconds: expected.at * 1000))
                let place = "case \(caseIndex) review \(index)"
                XCTAssertEqual(next.state.rawValue, expected.state, place)
                XCTAssertEqual(next.step, expected.step, place)
                XCTAssertEqual(next.stability, expected.stability, accuracy: 1e-6, place)
                XCTAssertEqual(next.difficulty, expected.difficulty, accuracy: 1e-6, place)
                XCTAssertEqual(next.due.milliseconds / 1000, expected.due, place)
                schedule = next
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000)
    }

    func testReplayingALogInAnyOrderGivesTheSameSchedule() {
        let scheduler = FSRSScheduler()
        let t = Timestamp(iso8601: "2026-01-01T09:00:00Z")!
        let log: [(rating: Rating, at: Timestamp)] = [
            (.good, t), (.good, t.adding(seconds: 600)), (.again, t.adding(seconds: 86_400 * 3)), (.easy, t.adding(seconds: 86_400 * 4)),
        ]
        XCTAssertEqual(scheduler.replay(log), scheduler.replay(log.reversed()))
        XCTAssertNil(scheduler.replay([]))
    }

    func testANewWordRatedGoodTwiceGraduatesToReview() throws {
        let scheduler = FSRSScheduler()
        let t = Timestamp(iso8601: "2026-01-01T09:00:00Z")!
        let first = scheduler.review(nil, rating: .good, at: t)
        XCTAssertEqual(first.state, .learning)
        XCTAssertEqual(first.due, t.adding(seconds: 600))
        let second = scheduler.review(first, rating: .good, at: first.due)
        XCTAssertEqual(second.state, .review)
        XCTAssertNil(second.step)
        XCTAssertGreaterThanOrEqual(second.due.milliseconds - second.lastReview.milliseconds, 86_400_000)
    }
}
