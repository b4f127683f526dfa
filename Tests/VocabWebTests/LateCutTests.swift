import Foundation
import XCTest
@testable import VocabWeb
#if canImport(Glibc)
import Glibc
#endif

/// The connections late with their heads are cut, each once; one libmicrohttpd has said it
/// closes is never shut down after (its socket number may be another connection's by then),
/// even when the cut found it late just before.
final class LateCutTests: XCTestCase {
    private func connectedPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EMFILE) }
        return (ends[0], ends[1])
    }

    /// Whether the peer of `end` has shut its side (a read finds the end at once).
    private func shutDown(peerOf end: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(end, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    func testLateHeadsAreCutOnceAndAClosingConnectionNever() throws {
        let bounds = ConnectionGuard.Bounds(perAddress: 0, headerSeconds: 10, bodiesPerAddress: 0, bodyBytesPerAddress: 0,
                                            bodyBytesInAll: 0, bodyGraceSeconds: 10, slowestBody: 0, exempt: [])
        let connections = ConnectionGuard(bounds: bounds)
        let (lateServer, lateClient) = try connectedPair()
        let (quickServer, quickClient) = try connectedPair()
        defer { [lateServer, lateClient, quickServer, quickClient].forEach { close($0) } }
        let late = ConnectionGuard.Watched(socket: lateServer, address: "127.0.0.2")
        let quick = ConnectionGuard.Watched(socket: quickServer, address: "127.0.0.3")
        connections.opened(late)
        connections.opened(quick)
        connections.requestBegan(quick)
        let later = ContinuousClock.now + .seconds(11)
        XCTAssertEqual(connections.cutLate(now: later), 1, "the late head is cut, the one whose head came is not")
        XCTAssertTrue(shutDown(peerOf: lateClient))
        XCTAssertFalse(shutDown(peerOf: quickClient))
        XCTAssertEqual(connections.cutLate(now: later), 0, "a connection is cut once")

        // Said closing: its socket is never shut down from then on.
        let (closingServer, closingClient) = try connectedPair()
        defer { [closingServer, closingClient].forEach { close($0) } }
        let closing = ConnectionGuard.Watched(socket: closingServer, address: "127.0.0.4")
        connections.opened(closing)
        connections.closed(closing)
        closing.shutDown()  // as a cut that found it late just before would
        XCTAssertFalse(shutDown(peerOf: closingClient), "a socket said closing is left alone")
        XCTAssertEqual(connections.load.connections, 2)
    }

    /// Many late together are cut a few at a time, each once, until none is left.
    func testAWaveOfLateHeadsIsCutAFewAtATime() throws {
        let bounds = ConnectionGuard.Bounds(perAddress: 0, headerSeconds: 10, bodiesPerAddress: 0, bodyBytesPerAddress: 0,
                                            bodyBytesInAll: 0, bodyGraceSeconds: 10, slowestBody: 0, exempt: [])
        let connections = ConnectionGuard(bounds: bounds)
        let pairs = try (0..<5).map { _ in try connectedPair() }
        defer { pairs.forEach { close($0.0); close($0.1) } }
        for (server, _) in pairs { connections.opened(ConnectionGuard.Watched(socket: server, address: "127.0.0.2")) }
        let later = ContinuousClock.now + .seconds(11)
        XCTAssertEqual(connections.cutLate(now: later, most: 2), 2)
        XCTAssertEqual(pairs.filter { shutDown(peerOf: $0.1) }.count, 2, "two shut down, three left for the next rounds")
        XCTAssertEqual(connections.cutLate(now: later, most: 2), 2)
        XCTAssertEqual(connections.cutLate(now: later, most: 2), 1)
        XCTAssertEqual(connections.cutLate(now: later, most: 2), 0)
        XCTAssertEqual(pairs.filter { shutDown(peerOf: $0.1) }.count, 5, "the other three in the next rounds")
    }
}
