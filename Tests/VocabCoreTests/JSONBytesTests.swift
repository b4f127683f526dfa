import Foundation
import XCTest
@testable import VocabCore

/// The web API's writer: keys in the order of the properties, nil as null, text escaped as
/// `JSONValue` escapes it, lists and objects nested to any depth, and what it writes parsed back.
final class JSONBytesTests: XCTestCase {
    private struct Inner: Codable, Equatable {
        var rating: String
        var interval: Int
    }

    private struct Outer: Codable, Equatable {
        var name: String
        var due: String?
        var count: Int
        var share: Double?
        var done: Bool
        var inner: Inner?
        var list: [Inner]
        var empty: [String]
        var table: [String: String]
    }

    private func text(_ value: some Encodable) throws -> String {
        String(decoding: try JSONBytes.encode(value), as: UTF8.self)
    }

    func testKeysComeInTheOrderOfThePropertiesAndNilIsNull() throws {
        let value = Outer(name: "a", due: nil, count: -3, share: 0.5, done: true, inner: nil, list: [Inner(rating: "good", interval: 2)],
                          empty: [], table: ["k": "v"])
        XCTAssertEqual(try text(value),
                       #"{"name":"a","due":null,"count":-3,"share":0.5,"done":true,"inner":null,"list":[{"rating":"good","interval":2}],"empty":[],"table":{"k":"v"}}"#)
    }

    func testTextIsEscapedAndWhatIsWrittenReadsBackTheSame() throws {
        let tricky = "quote \" back \\ line\nnul \u{0} sep \u{2028} 한국어 😀"
        let value = Outer(name: tricky, due: "2026-12-03T00:00:00Z", count: Int.max, share: nil, done: false,
                          inner: Inner(rating: tricky, interval: Int.min), list: [], empty: ["", tricky], table: [:])
        let written = try JSONBytes.encode(value)
        XCTAssertEqual(try JSONDecoder().decode(Outer.self, from: Data(written)), value)
        XCTAssertEqual(try JSONParser.parse(written)["name"], .string(tricky), "VocabCore's own parser reads it too")
        XCTAssertFalse(String(decoding: written, as: UTF8.self).contains("\n"), "one line")
    }

    func testTopLevelListsAndPlainValues() throws {
        XCTAssertEqual(try text([Inner(rating: "a", interval: 1), Inner(rating: "b", interval: 2)]),
                       #"[{"rating":"a","interval":1},{"rating":"b","interval":2}]"#)
        XCTAssertEqual(try text("x\"y"), #""x\"y""#)
        XCTAssertEqual(try text([[1, 2], [], [3]]), "[[1,2],[],[3]]")
        XCTAssertEqual(try text(Double.nan), "null")
    }
}
