import XCTest
import TestServices
#if canImport(Glibc)
import Glibc
#endif
@testable import VocabDictionary

/// The DICT client against a real dictd that scripts/test.sh starts on a loopback port.
final class DictClientTests: XCTestCase {
    private func server() throws -> DictClient {
        try DictClient(server: try requiredService("VOCAB_TEST_DICT_SERVER", "dictd"))
    }

    func testDefinesAWordFromARealDictd() throws {
        let definitions = try server().define("happy")
        XCTAssertEqual(definitions.first?.database, "wn")
        XCTAssertTrue(definitions.first?.text.contains("enjoying or showing or marked by joy") ?? false, "\(definitions)")
        XCTAssertTrue(definitions.first?.text.contains("unhappy") ?? false)
    }

    func testAnUnknownWordIsNoDefinitionNotAnError() throws {
        let client = try server()  // outside the assertion, so that a missing server skips rather than fails
        XCTAssertEqual(try client.define("qqqzzzx"), [])
    }

    func testAClosedPortIsUnreachable() throws {
        XCTAssertThrowsError(try DictClient(host: "127.0.0.1", port: 1, timeout: 2).define("happy")) { error in
            guard case .serverUnreachable = error as? DictionaryError else { return XCTFail("\(error)") }
        }
    }

    func testAServerThatNeverAnswersTimesOut() throws {
        // A real listening socket on loopback that accepts and then says nothing.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        XCTAssertEqual(listen(listener, 1), 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        XCTAssertThrowsError(try DictClient(host: "127.0.0.1", port: port, timeout: 0.5).define("happy")) { error in
            XCTAssertEqual(error as? DictionaryError, .serverTimeout(host: "127.0.0.1", port: port))
        }
    }

    func testServerAddressesAreParsed() throws {
        XCTAssertEqual(try DictClient(server: "localhost").port, 2628)
        XCTAssertEqual(try DictClient(server: "dict.example:2629").port, 2629)
        XCTAssertEqual(try DictClient(server: "[::1]:2630").host, "::1")
        XCTAssertThrowsError(try DictClient(server: "host:99999"))
        XCTAssertThrowsError(try DictClient(server: ":2628"))
    }
}
