import Dispatch
import Synchronization
import XCTest
@testable import VocabWeb

/// A learner's turns: three of his requests at once, the next waiting behind his own (and
/// going on when one of his ends), too many waiting refused at once, a wait that lasts past its
/// patience refused; another learner never waits on him.
final class LearnerTurnsTests: XCTestCase {
    struct Busy: Error {}

    /// Starts `count` requests of `owner` that each hold their turn until `release` is signalled;
    /// returns once `count` of them are in their turn.
    private func hold(_ turns: LearnerTurns, _ owner: String, count: Int, release: DispatchSemaphore, group: DispatchGroup) {
        let entered = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            DispatchQueue.global().async(group: group) {
                _ = try? turns.run(for: owner) {
                    entered.signal()
                    release.wait()
                }
            }
        }
        for _ in 0..<count { entered.wait() }
    }

    func testAFourthRequestWaitsBehindHisOwnAndGoesOnWhenOneEnds() throws {
        let turns = LearnerTurns(inFlight: 3, waiting: 2, patience: .seconds(30)) { Busy() }
        let release = DispatchSemaphore(value: 0), group = DispatchGroup()
        hold(turns, "bob", count: 3, release: release, group: group)
        let fourth = Atomic<Bool>(false)
        DispatchQueue.global().async(group: group) { _ = try? turns.run(for: "bob") { fourth.store(true, ordering: .relaxed) } }
        // Alice is answered at once meanwhile.
        XCTAssertEqual(try turns.run(for: "alice") { "hers" }, "hers")
        XCTAssertFalse(fourth.load(ordering: .relaxed), "his fourth waits while his three are in flight")
        release.signal()  // one of his three ends: the fourth has its turn
        let deadline = Date().addingTimeInterval(10)
        while !fourth.load(ordering: .relaxed) && Date() < deadline { usleep(1_000) }
        XCTAssertTrue(fourth.load(ordering: .relaxed))
        release.signal()
        release.signal()
        group.wait()
        XCTAssertEqual(turns.learners, 0, "nothing is kept once his requests ended")
    }

    func testTooManyWaitingOrAWaitTooLongIsRefusedAndOthersAreUnharmed() throws {
        let turns = LearnerTurns(inFlight: 3, waiting: 1, patience: .milliseconds(200)) { Busy() }
        let release = DispatchSemaphore(value: 0), group = DispatchGroup()
        hold(turns, "bob", count: 3, release: release, group: group)
        // One more waits, and, his three still held, is refused once its patience is spent...
        let waited = Atomic<Int>(0)
        DispatchQueue.global().async(group: group) {
            do { try turns.run(for: "bob") {} } catch { waited.store(1, ordering: .relaxed) }
        }
        let deadline = Date().addingTimeInterval(10)
        while turns.places(of: "bob") < 4 && Date() < deadline { usleep(1_000) }
        // ...while one past the waiting place is refused at once.
        XCTAssertThrowsError(try turns.run(for: "bob") {})
        XCTAssertEqual(try turns.run(for: "alice") { 1 }, 1, "alice never waits on bob")
        while waited.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(waited.load(ordering: .relaxed), 1, "a wait past its patience is refused")
        for _ in 0..<3 { release.signal() }
        group.wait()
        XCTAssertEqual(turns.learners, 0)
    }
}
