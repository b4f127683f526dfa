import Dispatch
import XCTest
@testable import VocabServer

/// A learner's turns: three of his requests at once, the fourth refused at once; another
/// learner is answered meanwhile; nothing is kept once his requests ended.
final class LearnerTurnsTests: XCTestCase {
    struct Busy: Error {}

    func testAFourthRequestIsRefusedAtOnceWhileOthersAreAnswered() throws {
        let turns = LearnerTurns(inFlight: 3) { Busy() }
        let release = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0), group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                _ = try? turns.run(for: "bob") {
                    entered.signal()
                    release.wait()
                }
            }
        }
        for _ in 0..<3 { entered.wait() }
        XCTAssertThrowsError(try turns.run(for: "bob") {}) { XCTAssertTrue($0 is Busy) }
        XCTAssertEqual(try turns.run(for: "alice") { "hers" }, "hers", "alice never waits on bob")
        for _ in 0..<3 { release.signal() }
        group.wait()
        XCTAssertEqual(try turns.run(for: "bob") { 1 }, 1, "his turns come back as his requests end")
        XCTAssertEqual(turns.learners, 0, "nothing is kept once his requests ended")
    }
}
