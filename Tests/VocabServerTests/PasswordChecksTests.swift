import Dispatch
import Synchronization
import TestServices
import XCTest
@testable import VocabCloudSessions

/// The server's few places for password checks: the likely owner (a known account from a clean
/// address) goes before strangers already waiting; a bounded number wait.
final class PasswordChecksTests: XCTestCase {
    func testTheLikelyOwnerGoesBeforeStrangersWaiting() {
        let checks = PasswordChecks(places: 1, seconds: 30)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = checks.run(as: .other) { holding.signal(); release.wait() }
        }
        holding.wait()
        let order = Mutex<[String]>([]), done = DispatchGroup()
        for name in ["stranger1", "stranger2", "stranger3"] {
            done.enter()
            DispatchQueue.global().async {
                _ = checks.run(as: .other) { order.withLock { $0.append(name) } }
                done.leave()
            }
            XCTAssertTrue(waitUntil { checks.waiting == Int(name.last!.wholeNumberValue!) })
        }
        done.enter()
        DispatchQueue.global().async {
            _ = checks.run(as: .likelyOwner) { order.withLock { $0.append("alice") } }
            done.leave()
        }
        XCTAssertTrue(waitUntil { checks.waiting == 4 })
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(order.withLock { $0 }, ["alice", "stranger1", "stranger2", "stranger3"], "alice first, the strangers in their order")
    }

    func testNoMoreThanItsBoundWait() {
        let checks = PasswordChecks(places: 1, seconds: 30, waitingAtMost: 1)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchGroup()
        DispatchQueue.global().async(group: done) { _ = checks.run(as: .other) { holding.signal(); release.wait() } }
        holding.wait()
        DispatchQueue.global().async(group: done) { _ = checks.run(as: .other) {} }
        XCTAssertTrue(waitUntil { checks.waiting == 1 })
        XCTAssertNil(checks.run(as: .other) { "checked" }, "a third is refused at once: one already waits")
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(checks.run(as: .other) { "checked" }, "checked")
    }
}
