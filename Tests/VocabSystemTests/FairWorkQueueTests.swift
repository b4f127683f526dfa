import Dispatch
import Synchronization
import TestServices
import XCTest
@testable import VocabSystem

/// The server's workers: keys take turns, one key never holds more than its share of them, and
/// what waits is bounded.
final class FairWorkQueueTests: XCTestCase {
    /// Bob's twenty requests that wait (on a lock, say) hold two of the four workers at most:
    /// alice's request, queued after all of them, is answered while his still wait.
    func testAKeyWhoseRequestsWaitNeverHoldsEveryWorker() {
        let queue = FairWorkQueue(workers: 4, pendingPerKey: 32, pendingInAll: 100, runningPerKey: 2)
        let release = DispatchSemaphore(value: 0)
        let bobsRunning = Atomic<Int>(0)
        for _ in 0..<20 {
            XCTAssertTrue(queue.submit(key: "bob") {
                bobsRunning.add(1, ordering: .relaxed)
                release.wait()
            })
        }
        let alice = DispatchSemaphore(value: 0)
        XCTAssertTrue(queue.submit(key: "alice") { alice.signal() })
        XCTAssertEqual(alice.wait(timeout: .now() + 10), .success, "alice is answered while bob's wait")
        // The queue settles with two of bob's running and the rest waiting, two workers idle.
        XCTAssertTrue(waitUntil { queue.load == (2, 18) }, "\(queue.load)")
        XCTAssertEqual(bobsRunning.load(ordering: .relaxed), 2, "bob holds two workers, no more")
        for _ in 0..<20 { release.signal() }
        XCTAssertTrue(waitUntil { queue.load == (0, 0) }, "all of bob's ran in the end")
        queue.stop()
    }

    /// Twenty learners' writes that wait (for a connection to the cloud, say) hold three of the
    /// four workers at most: alice's read, queued after all of them, is answered while they
    /// wait, and her write waits its turn behind theirs.
    func testWritesThatWaitNeverHoldTheWorkersKeptForReads() {
        let queue = FairWorkQueue(workers: 4, pendingPerKey: 32, pendingInAll: 100, keptForReads: 1)
        let release = DispatchSemaphore(value: 0)
        let writesRunning = Atomic<Int>(0)
        for learner in 0..<20 {
            XCTAssertTrue(queue.submit(key: "learner \(learner)") {
                writesRunning.add(1, ordering: .relaxed)
                release.wait()
            })
        }
        let aliceWrote = Atomic<Bool>(false)
        XCTAssertTrue(queue.submit(key: "alice") { aliceWrote.store(true, ordering: .relaxed) })
        let aliceRead = DispatchSemaphore(value: 0)
        XCTAssertTrue(queue.submit(key: "alice", reading: true) { aliceRead.signal() })
        XCTAssertEqual(aliceRead.wait(timeout: .now() + 10), .success, "alice's read is answered while the writes wait")
        XCTAssertTrue(waitUntil { queue.load == (3, 18) }, "\(queue.load)")
        XCTAssertEqual(writesRunning.load(ordering: .relaxed), 3, "writes hold three workers, no more")
        XCTAssertFalse(aliceWrote.load(ordering: .relaxed), "alice's write waits behind the others'")
        for _ in 0..<20 { release.signal() }
        XCTAssertTrue(waitUntil { queue.load == (0, 0) }, "every write ran in the end")
        XCTAssertTrue(aliceWrote.load(ordering: .relaxed))
        queue.stop()
    }

    /// Past a key's waiting bound its next request is refused at once; others' are not.
    func testWhatWaitsIsBounded() {
        let queue = FairWorkQueue(workers: 1, pendingPerKey: 2, pendingInAll: 3)
        let release = DispatchSemaphore(value: 0)
        XCTAssertTrue(queue.submit(key: "bob") { release.wait() })
        XCTAssertTrue(waitUntil { queue.load.running == 1 })
        XCTAssertTrue(queue.submit(key: "bob") {})
        XCTAssertTrue(queue.submit(key: "bob") {})
        XCTAssertFalse(queue.submit(key: "bob") {}, "bob has two waiting")
        XCTAssertTrue(queue.submit(key: "carol") {}, "carol is not held by bob's bound")
        XCTAssertFalse(queue.submit(key: "dave") {}, "three wait in all")
        release.signal()
        XCTAssertTrue(waitUntil { queue.load == (0, 0) })
        queue.stop()
    }
}
