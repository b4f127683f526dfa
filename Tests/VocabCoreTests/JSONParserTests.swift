import Foundation
import XCTest
@testable import VocabCore

/// Vocab's own JSON reader (it replaced Foundation's JSONSerialization), against the same
/// texts read by Foundation.
final class JSONParserTests: XCTestCase {
    func testItReadsWhatFoundationReads() throws {
        let text = #"{"word": "caf\u00e9 \ud83d\ude00", "n": 3, "x": -1.5e2, "ok": true, "none": null, "list": [1, "two", [false]], "o": {}}"#
        let value = try JSONParser.parse(text)
        XCTAssertEqual(value["word"]?.stringValue, "café 😀")
        XCTAssertEqual(value["n"], .int(3))
        XCTAssertEqual(value["x"]?.doubleValue, -150)
        XCTAssertEqual(value["ok"]?.boolValue, true)
        XCTAssertEqual(value["none"], .null)
        XCTAssertEqual(value["list"]?.arrayValue?.count, 3)
        XCTAssertEqual(value["o"]?.objectValue?.count, 0)
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual(foundation?["word"] as? String, value["word"]?.stringValue)
        // Written back and read again: the same value.
        XCTAssertEqual(try JSONParser.parse(value.compact), value)
    }

    func testBadTextIsAnErrorWithItsPlace() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"\\x\"", "\"\u{1}\"", "\"\\ud800\"", "tru", "{} x", "[1] [2]",
                    "\"abc", "{\"a\":}", "nan", "'a'"] {
            XCTAssertThrowsError(try JSONParser.parse(bad), bad)
        }
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xFF, 0x22]), "not UTF-8")
    }

    func testDeepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep))
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        XCTAssertNoThrow(try JSONParser.parse(fine))
    }

    func testNumbersKeepTheirKind() throws {
        XCTAssertEqual(try JSONParser.parse("9223372036854775807"), .int(Int64.max))
        XCTAssertEqual(try JSONParser.parse("9223372036854775808"), .double(9223372036854775808))
        XCTAssertEqual(try JSONParser.parse("2.0").int64Value, 2)
        XCTAssertNil(try JSONParser.parse("2.5").int64Value)
        XCTAssertEqual(try JSONParser.parse("[1]").plainValue as? [Int], [1])
    }

    func testARepeatedKeyCountsItsLastValue() throws {
        XCTAssertEqual(try JSONParser.parse(#"{"a": 1, "a": 2}"#)["a"], .int(2))
    }
}

/// The small pieces that replaced Foundation's: percent escapes, printf.
final class SystemPiecesTests: XCTestCase {
    func testPercentEscapes() {
        XCTAssertEqual(PercentEncoding.decode("a%20b%ED%95%9C"), "a b한")
        XCTAssertNil(PercentEncoding.decode("a%2"))
        XCTAssertNil(PercentEncoding.decode("%FF"))
        XCTAssertEqual(PercentEncoding.encodeAllButAlphanumerics("단어 a.txt"), "%EB%8B%A8%EC%96%B4%20a%2Etxt")
    }

    func testPrintfFormatsAsC() {
        XCTAssertEqual(CFormat.string("%.2f", 0.905), String(format: "%.2f", 0.905))
        XCTAssertEqual(CFormat.string("%3d. %08d", 7, 42), "  7. 00000042")
        let long = CFormat.string("%0300d", 1)
        XCTAssertEqual(long.count, 300)
    }
}
