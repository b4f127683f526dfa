import VocabCore
import XCTest

/// SHA-1 (Anki's note checksums) and SHA-256 (the web app's device tokens and page validators)
/// share how a message is read: the standard vectors for both.
final class DigestTests: XCTestCase {
    func testSHA1MatchesTheStandardVectors() {
        func hex(_ text: String) -> String { SHA1.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        XCTAssertEqual(hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(String(repeating: "a", count: 1000)), "291e9a6c66994949b57ba5e650361e98fc36b1ba")
        // A million bytes (whole blocks read in place, then the tail), as hex.
        XCTAssertEqual(SHA1.hex([UInt8](repeating: 0x61, count: 1_000_000)), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testSHA256MatchesTheStandardVectors() {
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex(Array(String(repeating: "a", count: 1000).utf8)),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testSecretsAreRandomHexAndCompareWholly() {
        let one = Secrets.randomHex(bytes: 32), two = Secrets.randomHex(bytes: 32)
        XCTAssertEqual(one.count, 64)
        XCTAssertTrue(one.allSatisfy { "0123456789abcdef".contains($0) })
        XCTAssertNotEqual(one, two)
        XCTAssertTrue(Secrets.sameBytes(Array(one.utf8), Array(one.utf8)))
        XCTAssertFalse(Secrets.sameBytes(Array(one.utf8), Array(two.utf8)))
        XCTAssertFalse(Secrets.sameBytes([1, 2], [1, 2, 3]))
    }
}
