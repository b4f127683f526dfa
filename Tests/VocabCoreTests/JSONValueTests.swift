import XCTest
@testable import VocabCore

final class JSONValueTests: XCTestCase {
    func testEscapesEverythingJSONRequiresAndParsesBack() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t bell \u{7} 한국어 😀 \u{2028}"
        let text = JSONValue.object([("text", .string(tricky)), ("n", .int(-3)), ("ok", .bool(true)), ("none", .null)]).compact
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual(parsed?["text"] as? String, tricky)
        XCTAssertEqual(parsed?["n"] as? Int, -3)
        XCTAssertFalse(text.contains("\n"), "compact JSON stays on one line")
    }

    func testEscapedBytesAreExact() {
        XCTAssertEqual(JSONValue.string("a\"b\\c\u{1}\u{2028}\u{2029}é\r").compact, #""a\"b\\c\u0001\u2028\u2029é\r""#)
        XCTAssertEqual(JSONValue.string("").compact, "\"\"")
        XCTAssertEqual(JSONValue.string("\u{2027}\u{202A}").compact, "\"\u{2027}\u{202A}\"", "neighbours of U+2028 pass as they are")
    }

    func testTheObjectWriterWritesWhatJSONValueWrites() {
        var inner = JSONObjectWriter()
        inner.addPair("definition", 1_700_000_000_000, "device \"1\"")
        inner.addPair("word", -5, "")
        var writer = JSONObjectWriter()
        writer.add("text", "quote \" backslash \\ 한국어 😀 \u{2028} \n")
        writer.add("n", Int64(-3))
        writer.add("ok", true)
        writer.addNull("none")
        writer.add("stamps", inner)
        writer.add("empty", JSONObjectWriter())
        let value = JSONValue.object([
            ("text", .string("quote \" backslash \\ 한국어 😀 \u{2028} \n")), ("n", .int(-3)), ("ok", .bool(true)), ("none", .null),
            ("stamps", .object([("definition", .array([.int(1_700_000_000_000), .string("device \"1\"")])),
                                ("word", .array([.int(-5), .string("")]))])),
            ("empty", .object([])),
        ])
        XCTAssertEqual(writer.text, value.compact)
    }

    func testKeepsKeysInTheOrderGiven() {
        let value = JSONValue.object([("b", .int(1)), ("a", .array([.int(1), .int(2)])), ("c", .object([]))])
        XCTAssertEqual(value.compact, #"{"b":1,"a":[1,2],"c":{}}"#)
        XCTAssertEqual(value.pretty, "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    2\n  ],\n  \"c\": {}\n}")
    }

    func testWordJSONUsesTheDesignFieldNames() {
        let stamp = Timestamp(milliseconds: 0)
        let word = Word(bookId: UUID(), word: "apple", date: stamp, createdAt: stamp, modifiedAt: stamp)
        guard case .object(let members) = word.json(bookName: "Fruit") else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.0), ["id", "bookId", "book", "word", "definition", "detail", "pronunciation",
                                          "synonym", "antonym", "date", "memorized", "createdAt", "modifiedAt"])
    }
}
