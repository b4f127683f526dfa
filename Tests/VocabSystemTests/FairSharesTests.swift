import Dispatch
import Synchronization
import TestServices
import XCTest
@testable import VocabSystem

final class FairSharesTests: XCTestCase {
    /// A learner takes a second place only while more than half are free, so the last places
    /// stay for learners who hold none.
    func testASecondPlaceOnlyWhileMoreThanHalfAreFree() {
        let shares = FairShares(capacity: 4)
        XCTAssertTrue(shares.take(for: "bob", waitingAtMost: 0.05))
        XCTAssertTrue(shares.take(for: "bob", waitingAtMost: 0.05), "three of four free: bob may take a second")
        XCTAssertFalse(shares.take(for: "bob", waitingAtMost: 0.05), "two of four free: not a third")
        XCTAssertTrue(shares.take(for: "carol", waitingAtMost: 0.05), "a learner holding none takes one")
        XCTAssertTrue(shares.take(for: "alice", waitingAtMost: 0.05))
        XCTAssertFalse(shares.take(for: "dave", waitingAtMost: 0.05), "all four lent")
        XCTAssertEqual(shares.lent.places, 4)
        XCTAssertEqual(shares.lent.waiting, 0, "a waiter whose time ran out is gone")
        shares.giveBack(for: "alice")
        XCTAssertTrue(shares.take(for: nil, waitingAtMost: 0.05), "a request with no learner yet counts as one holding none")
        shares.giveBack(for: nil)
        shares.giveBack(for: "carol")
        shares.giveBack(for: "bob")
        shares.giveBack(for: "bob")
        XCTAssertEqual(shares.lent.places, 0)
        XCTAssertEqual(shares.lent.learners, 0)
    }

    /// A place given back goes to a waiting learner who holds none before an earlier waiter
    /// for a second place; that one gets the next, once he holds none.
    func testAFreedPlaceGoesFirstToALearnerHoldingNone() throws {
        let shares = FairShares(capacity: 2)
        XCTAssertTrue(shares.take(for: "bob", waitingAtMost: 0.05))
        XCTAssertTrue(shares.take(for: "alice", waitingAtMost: 0.05))
        let order = Mutex<[String]>([])
        let bobsSecond = DispatchSemaphore(value: 0), carols = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if shares.take(for: "bob", waitingAtMost: 30) { order.withLock { $0.append("bob") } }
            bobsSecond.signal()
        }
        XCTAssertTrue(waitUntil { shares.lent.waiting == 1 })
        DispatchQueue.global().async {
            if shares.take(for: "carol", waitingAtMost: 30) { order.withLock { $0.append("carol") } }
            carols.signal()
        }
        XCTAssertTrue(waitUntil { shares.lent.waiting == 2 })

        shares.giveBack(for: "alice")
        XCTAssertEqual(carols.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(order.withLock { $0 }, ["carol"], "carol, holding none, before bob's second")
        XCTAssertEqual(shares.lent.waiting, 1, "bob's second still waits: one place of two free would not be more than half")

        shares.giveBack(for: "bob")
        XCTAssertEqual(bobsSecond.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(order.withLock { $0 }, ["carol", "bob"])
        XCTAssertEqual(shares.lent.places, 2)
        XCTAssertEqual(shares.lent.waiting, 0)
    }

    /// A learner may have only so many requests waiting: one more is refused at once, and
    /// other learners may still wait.
    func testALearnersWaitersAreBounded() {
        let shares = FairShares(capacity: 2, waitersPerLearner: 1)
        XCTAssertTrue(shares.take(for: "alice", waitingAtMost: 0))
        XCTAssertTrue(shares.take(for: "bob", waitingAtMost: 0))
        let bobsWait = DispatchSemaphore(value: 0), carolsWait = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = shares.take(for: "bob", waitingAtMost: 30)
            bobsWait.signal()
        }
        XCTAssertTrue(waitUntil { shares.lent.waiting == 1 })
        // Asked to wait an hour, it is answered while nothing is given back: refused at once.
        let refused = DispatchSemaphore(value: 0)
        let answer = Atomic<Bool>(true)
        DispatchQueue.global().async {
            answer.store(shares.take(for: "bob", waitingAtMost: 3_600), ordering: .relaxed)
            refused.signal()
        }
        XCTAssertEqual(refused.wait(timeout: .now() + 30), .success, "answered without waiting its hour")
        XCTAssertFalse(answer.load(ordering: .relaxed), "bob's second waiter is refused")
        DispatchQueue.global().async {
            _ = shares.take(for: "carol", waitingAtMost: 30)
            carolsWait.signal()
        }
        XCTAssertTrue(waitUntil { shares.lent.waiting == 2 }, "carol still waits her turn")
        shares.giveBack(for: "alice")
        XCTAssertEqual(carolsWait.wait(timeout: .now() + 30), .success, "carol, holding none, takes alice's place")
        shares.giveBack(for: "carol")
        shares.giveBack(for: "bob")
        XCTAssertEqual(bobsWait.wait(timeout: .now() + 30), .success)
        shares.giveBack(for: "bob")
        XCTAssertEqual(shares.lent.places, 0)
        XCTAssertEqual(shares.lent.waiting, 0)
    }

    /// Four accounts' bulk work (pages of records pulled, batches pushed) holds three of the
    /// four places at most: alice's grade takes the fourth; a fifth account's bulk waits and
    /// gets the first place bulk work gives back, never a place quick work gives back.
    func testBulkWorkNeverHoldsThePlacesKeptForQuickWork() {
        let shares = FairShares(capacity: 4, keptForQuick: 1)
        for account in ["slow1", "slow2", "slow3"] {
            XCTAssertTrue(shares.take(for: account, bulk: true, waitingAtMost: 0.05))
        }
        XCTAssertFalse(shares.take(for: "slow4", bulk: true, waitingAtMost: 0.05), "the last place is kept for quick work")
        XCTAssertTrue(shares.take(for: "alice", waitingAtMost: 0.05), "alice's grade takes it")
        shares.giveBack(for: "alice")
        let fifth = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if shares.take(for: "slow5", bulk: true, waitingAtMost: 30) { fifth.signal() }
        }
        XCTAssertTrue(waitUntil { shares.lent.waiting == 1 })
        XCTAssertTrue(shares.take(for: "bob", waitingAtMost: 0.05), "quick work goes past bulk work waiting")
        shares.giveBack(for: "bob")
        XCTAssertEqual(shares.lent.waiting, 1, "a place quick work gave back is not bulk work's")
        shares.giveBack(for: "slow1", bulk: true)
        XCTAssertEqual(fifth.wait(timeout: .now() + 30), .success, "bulk work given back makes room for bulk work")
        XCTAssertEqual(shares.lent.places, 3)
        for account in ["slow2", "slow3", "slow5"] { shares.giveBack(for: account, bulk: true) }
        XCTAssertEqual(shares.lent.places, 0)
    }

    /// Many threads of a few learners taking and giving back: never more than the capacity
    /// lent, and every take that succeeded is given back.
    func testManyThreadsNeverTakeMoreThanTheCapacity() {
        let shares = FairShares(capacity: 3)
        let most = Atomic<Int>(0), now = Atomic<Int>(0), taken = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let learner = ["alice", "bob", "carol", "dave", nil][index % 5]
            guard shares.take(for: learner, waitingAtMost: 30) else { return }
            let inside = now.add(1, ordering: .relaxed).newValue
            _ = most.max(inside, ordering: .relaxed)
            taken.add(1, ordering: .relaxed)
            usleep(200)
            now.subtract(1, ordering: .relaxed)
            shares.giveBack(for: learner)
        }
        XCTAssertEqual(taken.load(ordering: .relaxed), 400, "none waited in vain")
        XCTAssertLessThanOrEqual(most.load(ordering: .relaxed), 3)
        XCTAssertEqual(shares.lent.places, 0)
        XCTAssertEqual(shares.lent.learners, 0)
    }
}
