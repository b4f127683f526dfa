import Dispatch
import Foundation
import Synchronization
import TestServices
import XCTest
@testable import VocabWeb

/// A large answer is handed to libmicrohttpd as it is, not copied, and held until it is sent or
/// its connection is gone: against a real HTTP server, it arrives whole to many clients at once,
/// and a client that leaves in the middle harms no one after it.
final class LargeAnswerTests: XCTestCase {
    /// 3 MiB that differ from place to place (a shifted or repeated part would not compare equal).
    private static let large: [UInt8] = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    func testALargeAnswerArrivesWholeToEveryClientAndOneWhoLeavesHarmsNoOne() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits()) { request in
            let body = request.path == "/small" ? Array("small".utf8) : Self.large
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: body)
        }
        defer { server.stop() }

        // One who asks and leaves after the first bytes.
        let leaving = try XCTUnwrap(LoopbackConnection(port: server.port))
        leaving.send("GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(LoopbackConnection.status(leaving.receive(most: 1024)), 200)

        // Six at once, each reading the whole answer.
        let whole = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                if let body = Self.body(of: "/large", port: server.port), body == Self.large { whole.add(1, ordering: .relaxed) }
                group.leave()
            }.start()
        }
        withExtendedLifetime(leaving) {}
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(whole.load(ordering: .relaxed), 6, "every client got the 3 MiB as they were")
        // Small answers (copied) and large ones go on after.
        XCTAssertEqual(Self.body(of: "/small", port: server.port), Array("small".utf8))
        XCTAssertEqual(Self.body(of: "/large", port: server.port), Self.large)
    }

    /// The body of the answer to `GET path` (nil without a 200 and the length it announced).
    private static func body(of path: String, port: UInt16) -> [UInt8]? {
        guard let connection = LoopbackConnection(port: port),
              connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") else { return nil }
        let answer = connection.receiveAll()
        guard LoopbackConnection.status(answer) == 200,
              let end = answer.indices.first(where: { answer[$0...].starts(with: Array("\r\n\r\n".utf8)) }) else { return nil }
        let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
        let body = Array(answer[(end + 4)...])
        guard head.contains("content-length: \(body.count)") else { return nil }
        return body
    }
}
