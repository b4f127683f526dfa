import Foundation
@testable import VocabAnki
import VocabCore
import VocabSystem
import XCTest

/// The small parts the package reader and writer are built from.
final class AnkiPartsTests: XCTestCase {
    /// A file compressed a chunk at a time (a full download's collection) unpacks to the same
    /// bytes, in one frame that records its size (as the whole-body compression writes it); an
    /// empty file too, and a missing one is refused.
    func testAFileCompressedInChunksUnpacksToItsBytes() throws {
        let path = NSTemporaryDirectory() + "vocab-zstd-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        var generator = SystemRandomNumberGenerator()
        // Past several of the reader's 256 KiB chunks and the compressor's 128 KiB output chunks;
        // half of it random (incompressible), half repeated text.
        let bytes = (0..<400_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            + Array(String(repeating: "a word and its meaning\n", count: 30_000).utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let packed = try Zstd.compress(file: path)
        XCTAssertEqual(packed.size, bytes.count)
        XCTAssertLessThan(packed.bytes.count, bytes.count)
        XCTAssertEqual(try Zstd.decompress(packed.bytes, bound: bytes.count), bytes)
        // The frame header's descriptor (after the 4-byte magic): a content size field, or a
        // single segment (whose window is the size): the frame records how large it unpacks.
        XCTAssertTrue(packed.bytes[4] >> 6 != 0 || packed.bytes[4] & 0x20 != 0, "the frame records its size")
        try Data().write(to: URL(fileURLWithPath: path))
        let empty = try Zstd.compress(file: path)
        XCTAssertEqual(try Zstd.decompress(empty.bytes, bound: 0), [])
        XCTAssertThrowsError(try Zstd.compress(file: path + "-missing"))
    }

    /// A body unpacked into a file (a full upload's collection, never held unpacked) holds its
    /// bytes; one that unpacks past the bound, or is not zstd, is refused.
    func testABodyUnpackedIntoAFileHoldsItsBytesWithinTheBound() throws {
        let path = NSTemporaryDirectory() + "vocab-zstd-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Array(String(repeating: "a word and its meaning\n", count: 60_000).utf8)  // past several chunks
        let packed = try Zstd.compress(bytes)
        let file = try OutputFile(path: path)
        try Zstd.decompress(packed, bound: bytes.count, into: file)
        file.close()
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), bytes)
        XCTAssertThrowsError(try Zstd.decompress(packed, bound: bytes.count - 1, into: OutputFile(path: path))) { error in
            XCTAssertEqual(error as? Zstd.Failure, .tooLarge(bound: bytes.count - 1))
        }
        XCTAssertThrowsError(try Zstd.decompress(Array("not zstd".utf8), bound: 100, into: OutputFile(path: path))) { error in
            guard case .damaged = error as? Zstd.Failure else { return XCTFail("\(error)") }
        }
        // A file that cannot be written (a full disk): the server's own trouble, not the body's.
        if FileManager.default.isWritableFile(atPath: "/dev/full") {
            XCTAssertThrowsError(try Zstd.decompress(packed, bound: bytes.count, into: OutputFile(path: "/dev/full"))) { error in
                guard case .cannotWrite = error as? Zstd.Failure else { return XCTFail("\(error)") }
            }
        }
    }

    func testProtobufFieldsReadVarintsAndNestedMessagesAndRefuseTruncation() throws {
        // PackageMetadata { version: 3 }
        XCTAssertEqual(try ProtobufFields([0x08, 0x03]).varint(1), 3)
        // MediaEntries { entries { name: "a.png" size: 300 } entries { name: "b" } }
        let entry1: [UInt8] = [0x0A, 0x05] + Array("a.png".utf8) + [0x10, 0xAC, 0x02]
        let entry2: [UInt8] = [0x0A, 0x01, 0x62]
        let list = try ProtobufFields([0x0A, UInt8(entry1.count)] + entry1 + [0x0A, UInt8(entry2.count)] + entry2)
        let entries = try list.bytes(1).map { try ProtobufFields($0) }
        XCTAssertEqual(entries.map { $0.string(1) }, ["a.png", "b"])
        XCTAssertEqual(entries[0].varint(2), 300)
        XCTAssertThrowsError(try ProtobufFields([0x0A, 0x09, 0x01]), "a length past the end")
        XCTAssertThrowsError(try ProtobufFields([0x08, 0x80]), "a varint cut short")
        XCTAssertThrowsError(try ProtobufFields([0x0B]), "an unknown wire type")
    }

    func testAFlatRowIsReadInPlaceAndAnyOtherShapeIsLeftToJSON() {
        func read(_ text: String) -> [AnkiFlatRow.Value]? {
            var flat = AnkiFlatRow()
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { flat.read($0) ? flat.values : nil }
        }
        XCTAssertEqual(read(#"[1733011200000,-5, 0 ,"{"s":1}"]"#), nil, "an escape: read as JSON")
        XCTAssertEqual(read(#"[1733011200000,-5, 0 ,"",  "ab" ]"#),
                       [.integer(1_733_011_200_000), .integer(-5), .integer(0), .text(23..<23), .text(28..<30)])
        XCTAssertEqual(read("[]"), [])
        XCTAssertEqual(read(" [ 7 ] "), [.integer(7)])
        XCTAssertEqual(read(#"["강"]"#), [.text(2..<5)])
        XCTAssertEqual(read("[9223372036854775807]"), [.integer(Int64.max)])
        for other in ["[9223372036854775808]", "[1.5]", "[1e3]", "[[1]]", "[null]", "[true]", "[1,]", "[1", "[1] x", "{}", "",
                      "[-]", "[\"a]", "[\"\u{1}\"]", "[1 2]"] {
            XCTAssertNil(read(other), other)
        }
    }

    func testTheFirstImageOfADeckDescriptionAndSafeMediaNames() {
        XCTAssertEqual(AnkiImport.firstImage(in: #"Words <img src="cover.png"> and <img src="b.png">"#), "cover.png")
        XCTAssertEqual(AnkiImport.firstImage(in: "<IMG SRC='my%20cover.jpg'>"), "my cover.jpg")
        XCTAssertEqual(AnkiImport.firstImage(in: "<img src=plain.gif>"), "plain.gif")
        XCTAssertNil(AnkiImport.firstImage(in: "no picture"))
        XCTAssertTrue(AnkiPackage.isSafeMediaName("cover.png"))
        for name in ["../x.png", "/etc/passwd", "a/b.png", "..", "", "a\\b"] {
            XCTAssertFalse(AnkiPackage.isSafeMediaName(name), name)
        }
    }

    func testClozeDeletionsGiveAnswersAndHints() {
        let deletions = HTMLText.clozeDeletions("The {{c1::cat::animal}} sat on the {{c2::<b>mat</b>}}.")
        XCTAssertEqual(deletions.map(\.answer), ["cat", "<b>mat</b>"])
        XCTAssertEqual(deletions.map(\.hint), ["animal", nil])
        XCTAssertEqual(HTMLText.unwrapCloze("The {{c1::cat::animal}} sat {{c2::here}}"), "The cat sat here")
        XCTAssertTrue(HTMLText.clozeDeletions("no deletion {{c::x}}").isEmpty)
    }

    func testFieldsMapByNameThenByPosition() throws {
        let types: [Int64: AnkiNoteType] = [
            1: AnkiNoteType(name: "Basic", fields: ["Front", "Back"], isCloze: false),
            2: AnkiNoteType(name: "Japanese", fields: ["Kanji", "Kana", "Meaning", "Example"], isCloze: false),
        ]
        let map = try AnkiFieldMap(noteTypes: types, overrides: [:], usedNoteTypes: [1, 2])
        XCTAssertEqual(map.targets(ofNoteType: 1), [.word, .definition])
        XCTAssertEqual(map.targets(ofNoteType: 2), [.word, nil, .definition, .detail])
        XCTAssertEqual(map.notes, ["Anki fields read by position: Kanji → word (Japanese)."])
        XCTAssertEqual(map.notCarried, ["Kana (Japanese)"])
        let given = try AnkiFieldMap(noteTypes: types, overrides: ["kana": .pronunciation], usedNoteTypes: [2])
        XCTAssertEqual(given.targets(ofNoteType: 2), [.word, .pronunciation, .definition, .detail])
        XCTAssertThrowsError(try AnkiFieldMap(noteTypes: types, overrides: ["Colour": .detail], usedNoteTypes: [1]))
    }
}
