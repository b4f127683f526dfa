import Foundation
import XCTest

/// `word list` writes its rows as bytes (`WordListWriter`): the same JSON as each word shown
/// on its own (`Word.json`), and the same table as the rest of the app draws — with quotes,
/// backslashes, line breaks, control characters, Hangul, full-width text, emoji and cells cut
/// to their column.
final class WordListOutputTests: EndToEndTestCase {
    private func addTrickyWords() throws {
        try vocab.ok(["book", "add", "TOEIC"])
        try vocab.ok(["book", "add", "일상 영어"])
        try vocab.ok(["word", "add", "say \"hi\"", "--book", "TOEIC", "--definition", "back\\slash and \"quotes\"", "--date", "2026-01-01"])
        try vocab.ok(["word", "add", "사과", "--book", "일상 영어", "--date", "2026-01-02",
                      "--definition", "과일의 한 종류로 빨간색이나 초록색이며 아주 맛있는 것이고 사람들이 많이 먹는다"])
        try vocab.ok(["word", "add", "emoji😀", "--book", "TOEIC", "--definition", "line one\nline two\ttab", "--date", "2026-01-03"])
        try vocab.ok(["word", "add", "averyveryveryveryverylongwordthatexceedsthirtycolumns", "--book", "TOEIC", "--date", "2026-01-04",
                      "--definition", "a definition that is certainly longer than fifty columns wide", "--detail", "ctrl\u{1}char\u{2028}end"])
        try vocab.ok(["word", "add", "café", "--book", "TOEIC", "--definition", "ｆｕｌｌｗｉｄｔｈ", "--date", "2026-01-05T10:20:30.045Z"])
        try vocab.ok(["word", "memorize", "café"])
    }

    func testEachListedWordIsTheWordShownOnItsOwn() throws {
        try addTrickyWords()
        let listed = try XCTUnwrap(try vocab.json(["word", "list", "--json"]) as? [[String: Any]])
        XCTAssertEqual(listed.count, 5)
        for word in listed {
            let id = try XCTUnwrap(word["id"] as? String)
            var shown = try XCTUnwrap(try vocab.json(["word", "show", id, "--json"]) as? [String: Any])
            shown.removeValue(forKey: "schedule")
            XCTAssertEqual(NSDictionary(dictionary: word), NSDictionary(dictionary: shown), id)
        }
        XCTAssertEqual(listed.last?["date"] as? String, "2026-01-05T10:20:30.045Z")
        let raw = try vocab.ok(["word", "list", "--book", "TOEIC", "--json", "--limit", "1", "--offset", "2"])
        XCTAssertTrue(raw.hasPrefix("[\n  {\n    \"id\": \""), raw)
        XCTAssertTrue(raw.contains("\"detail\": \"ctrl\\u0001char\\u2028end\""), raw)
        XCTAssertEqual(try vocab.ok(["word", "list", "--book", "TOEIC", "--json", "--offset", "9"]), "[]\n")
    }

    func testTheTableCutsAndAlignsEveryKindOfText() throws {
        try addTrickyWords()
        XCTAssertEqual(try vocab.ok(["word", "list"]), """
            BOOK       WORD                            DEFINITION                                          MEMORISED
            TOEIC      say "hi"                        back\\slash and "quotes"
            일상 영어  사과                            과일의 한 종류로 빨간색이나 초록색이며 아주 맛있…
            TOEIC      emoji😀                         line one line two\ttab
            TOEIC      averyveryveryveryverylongword…  a definition that is certainly longer than fifty …
            TOEIC      café                            ｆｕｌｌｗｉｄｔｈ                                  yes
            (5 words)

            """)
    }
}
