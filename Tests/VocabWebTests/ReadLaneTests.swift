import Dispatch
import Foundation
import Synchronization
import TestServices
import XCTest
@testable import VocabWeb

/// A card shown never waits behind writes waiting on something else: against a real HTTP
/// server whose writes all wait (as they wait for the learner's lock or a cloud connection),
/// a read is answered while they wait, and every write is answered once they may go on.
final class ReadLaneTests: XCTestCase {
    func testAReadIsAnsweredWhileWritesHoldEveryWorkerTheyMay() throws {
        var limits = HTTPLimits()
        limits.workers = 4
        limits.workersKeptForReads = 1
        let release = DispatchSemaphore(value: 0)
        let writesWaiting = Atomic<Int>(0)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { request in
            if request.method == "POST" {
                writesWaiting.add(1, ordering: .relaxed)
                release.wait()
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array("ok".utf8))
        }
        defer { server.stop() }
        let writes = 10
        let answered = Atomic<Int>(0)
        let group = DispatchGroup()
        // Each on a thread of its own (the global queue starts its threads one by one when they block).
        for _ in 0..<writes {
            group.enter()
            Thread {
                if Self.status(of: "POST /grade HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n", port: server.port) == 200 {
                    answered.add(1, ordering: .relaxed)
                }
                group.leave()
            }.start()
        }
        XCTAssertTrue(waitUntil { writesWaiting.load(ordering: .relaxed) == 3 }, "writes hold three of the four workers")
        XCTAssertEqual(Self.status(of: "GET /card HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port), 200,
                       "the read is answered while the writes wait")
        XCTAssertEqual(writesWaiting.load(ordering: .relaxed), 3, "no more writes began meanwhile")
        // A device's pull is a read that may wait on the cloud: it waits its turn with the writes.
        let pulled = DispatchSemaphore(value: 0)
        let pullStatus = Atomic<Int>(0)
        Thread {
            pullStatus.store(Self.status(of: "GET /api/v1/sync/pull HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port), ordering: .relaxed)
            pulled.signal()
        }.start()
        XCTAssertTrue(waitUntil { server.workers.load.waiting == writes - 3 + 1 }, "the pull waits behind the writes: \(server.workers.load)")
        XCTAssertEqual(Self.status(of: "GET /card HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port), 200, "another read is answered")
        XCTAssertEqual(pullStatus.load(ordering: .relaxed), 0, "the pull is not answered while the writes hold their workers")
        for _ in 0..<writes { release.signal() }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(answered.load(ordering: .relaxed), writes, "every write was answered in the end")
        XCTAssertEqual(pulled.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(pullStatus.load(ordering: .relaxed), 200, "and the pull after them")
    }

    /// The status of the answer to `request` sent on a new loopback connection to `port`
    /// (0 when none came within 30 s).
    private static func status(of request: String, port: UInt16) -> Int {
        guard let connection = LoopbackConnection(port: port), connection.send(request) else { return 0 }
        return LoopbackConnection.status(connection.receive(most: 512))
    }
}
