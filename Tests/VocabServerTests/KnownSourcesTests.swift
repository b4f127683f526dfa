import XCTest
import VocabWeb
@testable import VocabCloudSessions

/// Where an account's owner has been: networks and browser marks, bounded, per account.
final class KnownSourcesTests: XCTestCase {
    func testTheOwnersNetworksAndMarksAreKnownAndNoOneElses() {
        let known = KnownSources(placesPerAccount: 2)
        known.saw("Alice", at: "10.0.0.1")
        let mark = known.mark(for: "alice")
        XCTAssertTrue(known.knows("alice", at: .init(network: "10.0.0.1")), "her network, whatever the name's case")
        XCTAssertTrue(known.knows("alice", at: .init(network: "10.9.9.9", mark: mark)), "her browser, from anywhere")
        XCTAssertFalse(known.knows("alice", at: .init(network: "10.9.9.9", mark: "0123")), "a made-up mark")
        XCTAssertFalse(known.knows("bob", at: .init(network: "10.0.0.1", mark: mark)), "not another account's")
        known.saw("alice", at: "10.0.0.2")
        known.saw("alice", at: "10.0.0.3")
        XCTAssertFalse(known.knows("alice", at: .init(network: "10.0.0.1")), "the least recently seen goes past the bound")
        XCTAssertTrue(known.knows("alice", at: .init(network: "10.0.0.3")))
    }

    /// Limits key an IPv6 client by its /64 (a proxy forwarding IPv6 would otherwise give a
    /// guesser 2^64 fresh addresses); an IPv4 address as itself, also when written as IPv6.
    func testAnIPv6AddressIsKeyedByItsNetwork() {
        XCTAssertEqual(AddressNetwork.of("2001:db8:1:2:aaaa::1"), AddressNetwork.of("2001:db8:1:2:ffff:1:2:3"))
        XCTAssertNotEqual(AddressNetwork.of("2001:db8:1:2::1"), AddressNetwork.of("2001:db8:1:3::1"))
        XCTAssertEqual(AddressNetwork.of("2001:db8:1:2::1"), "2001:db8:1:2::/64")
        XCTAssertEqual(AddressNetwork.of("192.0.2.7"), "192.0.2.7")
        XCTAssertEqual(AddressNetwork.of("::ffff:192.0.2.7"), "192.0.2.7")
        XCTAssertEqual(AddressNetwork.of("not an address"), "not an address")
    }
}
