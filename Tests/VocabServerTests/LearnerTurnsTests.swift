import Dispatch
import XCTest
@testable import VocabServer
import VocabWeb

/// A learner's turns: three of his requests at once, each counted until its answer is sent,
/// the fourth refused at once; another learner is answered meanwhile; nothing is kept once his
/// answers went.
final class LearnerTurnsTests: XCTestCase {
    struct Busy: Error {}

    func testAFourthRequestIsRefusedAtOnceWhileOthersAreAnswered() throws {
        let turns = LearnerTurns(inFlight: 3) { Busy() }
        // Bob's three answers, made and not yet sent (a client that does not read them, say).
        let unsent = try (0..<3).map { _ in try turns.answer(for: "bob") { HTTPResponse(status: 200) } }
        XCTAssertThrowsError(try turns.answer(for: "bob") { HTTPResponse(status: 200) }) { XCTAssertTrue($0 is Busy) }
        let hers = try turns.answer(for: "alice") { HTTPResponse(status: 201) }
        XCTAssertEqual(hers.status, 201, "alice never waits on bob")
        hers.whenDone?()
        unsent.forEach { $0.whenDone?() }  // sent at last
        let again = try turns.answer(for: "bob") { HTTPResponse(status: 200) }
        XCTAssertEqual(again.status, 200, "his turns come back as his answers are sent")
        again.whenDone?()
        XCTAssertEqual(turns.learners, 0, "nothing is kept once his answers went")
    }

    /// A request that throws gives its turn back at once (nothing will be sent).
    func testARefusedRequestGivesItsTurnBack() {
        let turns = LearnerTurns(inFlight: 1) { Busy() }
        struct Refused: Error {}
        XCTAssertThrowsError(try turns.answer(for: "bob") { throw Refused() }) { XCTAssertTrue($0 is Refused) }
        XCTAssertEqual(turns.learners, 0)
    }
}
