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
        // The waits it asks for, recorded instead of slept (the test never measures time).
        var waits: [UInt32] = []
        account.pause = { waits.append($0) }
        XCTAssertEqual(try account.counts(), CloudCounts(books: 1, words: 2, reviews: 3, latest: 4), "it went on once answered")
        XCTAssertEqual(arrivals.withLock { $0.count }, 3, "asked again after each refusal, then no more")
        XCTAssertEqual(waits.count, 2, "a wait before each ask again")
        // Told 2 s: it waits between half of that and all of it, then twice as long.
        XCTAssertTrue((1_000_000...2_000_000).contains(waits.first ?? 0), "the first wait honours Retry-After: \(waits)")
        XCTAssertTrue((2_000_000...4_000_000).contains(waits.last ?? 0), "the second is twice as long: \(waits)")
    }
}
