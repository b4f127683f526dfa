import VocabArchives
import XCTest

/// The zip of stored entries Anki's media sync sends both ways: what is written reads back the
/// same, and a zip cut short, damaged, compressed or past its bounds is refused.
final class StoredZipTests: XCTestCase {
    private let entries: [(name: String, data: [UInt8])] = [("0", Array("사과".utf8)), ("1", [0, 1, 2, 255]), ("_meta", Array("{}".utf8))]

    func testWhatIsWrittenReadsBackTheSame() throws {
        let read = try StoredZip.entries(of: StoredZip.bytes(of: entries), maxEntries: 3, maxEntryBytes: 100)
        XCTAssertEqual(read.map(\.name), entries.map(\.name))
        XCTAssertEqual(read.map(\.data), entries.map(\.data))
        XCTAssertEqual(try StoredZip.entries(of: StoredZip.bytes(of: []), maxEntries: 0, maxEntryBytes: 0).count, 0)
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926, "the standard check value")
    }

    func testBadZipsAreRefused() {
        let zip = StoredZip.bytes(of: entries)
        func failure(_ bytes: [UInt8], maxEntries: Int = 3, maxEntryBytes: Int = 100) -> StoredZip.Failure? {
            do {
                _ = try StoredZip.entries(of: bytes, maxEntries: maxEntries, maxEntryBytes: maxEntryBytes)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(failure(Array(zip.prefix(zip.count - 30))), .damaged, "cut short")
        XCTAssertEqual(failure([]), .damaged)
        var flipped = zip
        flipped[31] ^= 1  // the first entry's content
        XCTAssertEqual(failure(flipped), .damaged, "its checksum disagrees")
        XCTAssertEqual(failure(zip, maxEntries: 2), .tooManyEntries)
        XCTAssertEqual(failure(zip, maxEntryBytes: 3), .entryTooLarge(name: "0"))
        var deflated = zip
        deflated[8] = 8
        XCTAssertEqual(failure(deflated), .compressed)
    }
}
