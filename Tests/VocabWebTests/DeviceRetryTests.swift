import Foundation
import Synchronization
import XCTest
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabWeb

/// A device (the terminal's and the window's `ServerAccount`) told "busy" (429 with
/// Retry-After) waits at least what it was told before it asks again, twice as long each time,
/// and goes on once the server answers: against a real HTTP server that refuses its first asks.
final class DeviceRetryTests: XCTestCase {
    func testADeviceWaitsTheRetryAfterItIsGivenThenTriesAgain() throws {
        let arrivals = Mutex<[ContinuousClock.Instant]>([])
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
            let count = arrivals.withLock { list in
                list.append(.now)
                return list.count
            }
            guard count > 2 else {
                return HTTPResponse(status: 429, headers: [("Retry-After", "2"), ("Content-Type", "application/json")],
                                    body: Array(#"{"error":"Too many requests of this account at once: try again in a moment."}"#.utf8))
            }
            let counts = DeviceAPI.Counts(account: "alice", counts: CloudCounts(books: 1, words: 2, reviews: 3, latest: 4))
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: DeviceAPI.encode(counts))
        }
        defer { server.stop() }
        let account = try ServerAccount(CloudLogin(address: ServerAddress(web: "http://127.0.0.1:\(server.port)", user: "device"),
                                                   password: "secret", account: "alice"))
        XCTAssertEqual(try account.counts(), CloudCounts(books: 1, words: 2, reviews: 3, latest: 4), "it went on once answered")
        let seen = arrivals.withLock { $0 }
        XCTAssertEqual(seen.count, 3, "asked again after each refusal, then no more")
        // Told 2 s: it waits between half of that and all of it, then twice as long (lower bounds:
        // a slow machine only makes the waits longer).
        XCTAssertGreaterThanOrEqual(seen[1] - seen[0], .seconds(1), "the first wait honours Retry-After")
        XCTAssertGreaterThanOrEqual(seen[2] - seen[1], .seconds(2), "the second is twice as long")
    }
}
