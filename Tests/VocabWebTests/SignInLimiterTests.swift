import XCTest
@testable import VocabWeb

/// The sign-in limits of a server of many learners: free tries, then waits that grow, cleared
/// by a success, and a bounded memory of keys.
final class SignInLimiterTests: XCTestCase {
    func testFiveFailuresAreFreeThenTheKeyWaitsLongerEachTime() {
        let limiter = SignInLimiter(free: 5, firstLock: 30, longestLock: 900)
        let keys = ["account:alice", "address:10.0.0.1"]
        for _ in 0..<5 { limiter.failed(keys) }
        XCTAssertEqual(limiter.wait(keys), 0, "five wrong passwords cost nothing yet")
        limiter.failed(keys)
        let first = limiter.wait(keys)
        XCTAssertTrue((1...31).contains(first), "\(first)")
        limiter.failed(keys)
        XCTAssertGreaterThan(limiter.wait(keys), first, "the next wait is longer")
        XCTAssertEqual(limiter.wait(["account:bob", "address:10.0.0.2"]), 0, "others are not held")
        XCTAssertGreaterThan(limiter.wait(["account:bob", "address:10.0.0.1"]), 0, "the address waits for any account")
        for _ in 0..<40 { limiter.failed(keys) }
        XCTAssertLessThanOrEqual(limiter.wait(keys), 901, "never longer than the longest")
        limiter.succeeded(keys)
        XCTAssertEqual(limiter.wait(keys), 0)
    }

    func testItForgetsTheQuietestKeysPastItsBound() {
        let limiter = SignInLimiter(free: 0, firstLock: 30, longestLock: 900, keysKept: 100)
        for n in 0..<1_000 { limiter.failed(["address:\(n)"]) }
        XCTAssertGreaterThan(limiter.wait(["address:999"]), 0, "the latest is kept")
        XCTAssertEqual(limiter.wait(["address:0"]), 0, "the oldest were forgotten")
    }
}
