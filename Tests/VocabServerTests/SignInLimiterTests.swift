import Dispatch
import Synchronization
import XCTest
@testable import VocabCloudSessions

/// The sign-in limits of a server of many learners: free tries, then waits that grow, cleared
/// by a success, tries that take their place before they are checked, and a bounded memory of keys.
final class SignInLimiterTests: XCTestCase {
    func testFiveFailuresAreFreeThenTheKeyWaitsLongerEachTime() {
        let limiter = SignInLimiter(free: 5, firstLock: 30, longestLock: 900)
        let keys = ["account:alice", "address:10.0.0.1"]
        for _ in 0..<4 { limiter.failed(keys, reserved: false) }
        XCTAssertEqual(limiter.wait(keys), 0, "four wrong passwords cost nothing yet")
        limiter.failed(keys, reserved: false)
        let first = limiter.wait(keys)
        XCTAssertTrue((1...31).contains(first), "the fifth locks: \(first)")
        limiter.failed(keys, reserved: false)
        XCTAssertGreaterThan(limiter.wait(keys), first, "the next wait is longer")
        XCTAssertEqual(limiter.wait(["account:bob", "address:10.0.0.2"]), 0, "others are not held")
        XCTAssertGreaterThan(limiter.wait(["account:bob", "address:10.0.0.1"]), 0, "the address waits for any account")
        for _ in 0..<40 { limiter.failed(keys, reserved: false) }
        XCTAssertLessThanOrEqual(limiter.wait(keys), 901, "never longer than the longest")
        limiter.succeeded(keys)
        XCTAssertEqual(limiter.wait(keys), 0)
    }

    /// Forty tries at once: five take their places (the free ones), the rest are refused before
    /// any is checked; once the five fail, the key is locked.
    func testTriesAtOnceTakeTheirPlacesBeforeTheyAreChecked() {
        let limiter = SignInLimiter(free: 5, firstLock: 30, longestLock: 900)
        let keys = ["account:alice@10.0.0.9"]
        let taken = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 40) { _ in
            if limiter.reserve(keys) == 0 { taken.add(1, ordering: .relaxed) }
        }
        XCTAssertEqual(taken.load(ordering: .relaxed), 5, "only the free tries are let through")
        XCTAssertEqual(limiter.reserve(keys), 1, "while they are checked, the next is told to try again in a moment")
        XCTAssertEqual(limiter.reserve(["account:bob@10.0.0.9"]), 0, "another key is not held")
        for _ in 0..<5 { limiter.failed(keys, reserved: true) }
        XCTAssertGreaterThan(limiter.reserve(keys), 1, "five failures lock the key")
    }

    /// A try that ends without a verdict (the cloud out of reach) gives its place back.
    func testATryWithoutAVerdictGivesItsPlaceBack() {
        let limiter = SignInLimiter(free: 1)
        XCTAssertEqual(limiter.reserve(["k"]), 0)
        XCTAssertEqual(limiter.reserve(["k"]), 1)
        limiter.settled(["k"])
        XCTAssertEqual(limiter.reserve(["k"]), 0)
        XCTAssertFalse(limiter.hasFailed(["k"]))
    }

    func testItForgetsTheQuietestKeysPastItsBound() {
        let limiter = SignInLimiter(free: 0, firstLock: 30, longestLock: 900, keysKept: 100)
        for n in 0..<1_000 { limiter.failed(["address:\(n)"], reserved: false) }
        XCTAssertGreaterThan(limiter.wait(["address:999"]), 0, "the latest is kept")
        XCTAssertEqual(limiter.wait(["address:0"]), 0, "the oldest were forgotten")
    }

    /// One typo is not held against its sender for ever (it once was, until a success from the
    /// same address): a failure is forgotten `forgetAfter` seconds after it, not before; a key
    /// locked is not forgotten while its lock lasts.
    func testAFailureIsForgottenAfterItsTime() {
        let now = Mutex(ContinuousClock.now)
        let limiter = SignInLimiter(free: 2, firstLock: 1_000, longestLock: 1_000, forgetAfter: 900, clock: { now.withLock { $0 } })
        limiter.failed(["typo"], reserved: false)
        XCTAssertTrue(limiter.hasFailed(["typo"]))
        now.withLock { $0 += .seconds(899) }
        XCTAssertTrue(limiter.hasFailed(["typo"]), "remembered within its time")
        now.withLock { $0 += .seconds(1) }
        XCTAssertFalse(limiter.hasFailed(["typo"]), "forgotten after it")

        limiter.failed(["guesser"], reserved: false)
        limiter.failed(["guesser"], reserved: false)
        now.withLock { $0 += .seconds(950) }
        XCTAssertGreaterThan(limiter.wait(["guesser"]), 0, "a lock outlasts the time a failure is kept")
        now.withLock { $0 += .seconds(51) }
        XCTAssertEqual(limiter.wait(["guesser"]), 0)
        XCTAssertFalse(limiter.hasFailed(["guesser"]), "and is forgotten once it ends")
    }
}
