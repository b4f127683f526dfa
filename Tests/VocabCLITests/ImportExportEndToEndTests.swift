import Foundation
import XCTest

final class ImportExportEndToEndTests: EndToEndTestCase {
    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = vocab.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testASpreadsheetImportsAndSaysWhatHappened() throws {
        let csv = try write("list.csv", [0xEF, 0xBB, 0xBF] + Array("Word,Meaning,Colour,memorized\r\napple,\"사과, red \"\"fruit\"\"\nline 2\",red,yes\r\nbanana,바나나 🍌,yellow,no\r\n".utf8))
        let first = try vocab.ok(["import", csv, "--book", "Fruit"])
        XCTAssertTrue(first.contains("2 added, 0 updated, 0 unchanged"), first)
        XCTAssertTrue(first.contains("Created book \"Fruit\""), first)
        XCTAssertTrue(first.contains("Ignored unknown columns: Colour"), first)
        let again = try vocab.ok(["import", csv, "--book", "fruit"])
        XCTAssertTrue(again.contains("0 added, 0 updated, 2 unchanged"), again)
        let apple = try XCTUnwrap(try vocab.json(["word", "show", "apple", "--json"]) as? [String: Any])
        XCTAssertEqual(apple["definition"] as? String, "사과, red \"fruit\"\nline 2")
        XCTAssertEqual(apple["memorized"] as? Bool, true)
    }

    /// One-character relative names once trapped inside Foundation's path code.
    func testOneLetterRelativeDataFolderAndOutputFileWork() throws {
        let folder = vocab.file("cwd")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let relative = ["VOCAB_HOME": "h"]
        XCTAssertEqual(try vocab.run(["book", "add", "B"], environment: relative, directory: folder).status, 0)
        XCTAssertEqual(try vocab.run(["word", "add", "w", "--book", "B"], environment: relative, directory: folder).status, 0)
        let export = try vocab.run(["export", "-o", "x", "--format", "csv"], environment: relative, directory: folder)
        XCTAssertEqual(export.status, 0, export.stderr)
        let written = try String(contentsOfFile: folder + "/x", encoding: .utf8)
        XCTAssertTrue(written.contains(",B,w,"), written)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/h/vocab.sqlite"))
    }

    func testAMalformedFileIsRefusedWithItsLineAndTheStoreIsUntouched() throws {
        try vocab.ok(["book", "add", "B"])
        try vocab.ok(["word", "add", "kept", "--book", "B"])
        let before = try vocab.storeSnapshot()
        let cases: [(String, [UInt8], String)] = [
            ("quote.csv", Array("word,definition\nfine,ok\nbad\"word,x\n".utf8), "Line 3"),
            ("open.csv", Array("word,definition\nfine,ok\nnext,\"never closed\n".utf8), "Line 3"),
            ("empty-word.csv", Array("word,definition\nfine,ok\n,orphan\n".utf8), "Line 3"),
            ("date.csv", Array("word,date\nfine,2026-01-01\nlate,2026-02-30\n".utf8), "Line 3"),
            ("bool.csv", Array("word,memorized\nfine,yes\nodd,sometimes\n".utf8), "Line 3"),
            ("utf8.csv", Array("word\nfine\n".utf8) + [0x62, 0xC3, 0x28, 0x0A], "Line 3"),
            ("fields.tsv", Array("word\tdefinition\nfine\tok\ntoo\tmany\tfields\n".utf8), "Line 3"),
            ("lines.jsonl", Array("{\"word\":\"fine\"}\n{not json}\n".utf8), "Line 2"),
            ("header.csv", Array("apple,red,fruit\n".utf8), "--columns"),
            ("no-word.csv", Array("definition,detail\nred,fruit\n".utf8), "header"),
            ("nothing.csv", [], "empty"),
        ]
        for (name, bytes, expected) in cases {
            let path = try write(name, bytes)
            let error = try vocab.fails(["import", path, "--book", "B"], status: 1)
            XCTAssertTrue(error.contains(expected), "\(name): \(error)")
        }
        XCTAssertTrue(try vocab.fails(["import", vocab.file("missing.csv"), "--book", "B"], status: 1).contains("no such file"))
        XCTAssertTrue(try vocab.fails(["import", try write("list.doc", Array("word\nx\n".utf8)), "--book", "B"], status: 1).contains("--format"))
        try vocab.fails(["import", vocab.file("list.csv"), "--format", "pdf"], status: 2)
        XCTAssertTrue(try vocab.fails(["import", vocab.file("list.xlsx")], status: 1).contains("no such file"))
        XCTAssertEqual(try vocab.storeSnapshot(), before)
    }

    /// `--book` takes a name or an id, like every other `--book`; an existing book is found by
    /// either, and a new name makes a new book.
    func testImportTakesItsBookByNameOrId() throws {
        let book = try XCTUnwrap(try vocab.json(["book", "add", "TOEIC", "--json"]) as? [String: Any])
        let id = try XCTUnwrap(book["id"] as? String)
        try "word,definition\nabandon,to leave\n".write(toFile: vocab.file("a.csv"), atomically: true, encoding: .utf8)
        try "word,definition\nbrave,bold\n".write(toFile: vocab.file("b.csv"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try vocab.ok(["import", vocab.file("a.csv"), "--book", id]).contains("1 added"))
        XCTAssertFalse(try vocab.ok(["import", vocab.file("b.csv"), "--book", "toeic"]).contains("Created book"))
        let shown = try XCTUnwrap(try vocab.json(["book", "show", id, "--json"]) as? [String: Any])
        XCTAssertEqual(shown["wordCount"] as? Int, 2)
        XCTAssertTrue(try vocab.ok(["import", vocab.file("a.csv"), "--book", "Other"]).contains("Created book \"Other\""))
    }

    func testSkipInvalidImportsTheRestAndListsRejectedLines() throws {
        let path = try write("mixed.csv", Array("word,memorized\nok,no\n,no\nfine,maybe\nlast,1\n".utf8))
        let output = try vocab.ok(["import", path, "--book", "B", "--skip-invalid"])
        XCTAssertTrue(output.contains("2 added"), output)
        XCTAssertTrue(output.contains("line 3: the word must not be empty"), output)
        XCTAssertTrue(output.contains("line 4:"), output)
    }

    func testExportThenImportIntoAnotherStoreGivesTheSameWordsInEveryFormat() throws {
        try vocab.ok(["book", "add", "혼합 Mixed"])
        try vocab.ok(["word", "add", "사과", "-d", "apple, \"red\"\nsecond line", "--detail", "tab\there", "--synonym", "🍎",
                      "--pronunciation", "sa-gwa", "--antonym", "x", "--date", "2025-05-05T05:05:05.005Z", "--memorized"])
        try vocab.ok(["word", "add", "quote\"d", "--book", "혼합 Mixed", "-d", "back\\slash"])
        let original = try vocab.ok(["word", "list", "--json"])
        for format in ["csv", "tsv", "jsonl"] {
            let file = vocab.file("export.\(format)")
            XCTAssertTrue(try vocab.ok(["export", "-o", file]).contains("Exported 2 words"))
            let other = vocab.file("other-\(format)")
            let result = try vocab.run(["import", file], environment: ["VOCAB_HOME": other])
            XCTAssertEqual(result.status, 0, result.stderr)
            let copy = try vocab.run(["word", "list", "--json"], environment: ["VOCAB_HOME": other])
            XCTAssertEqual(copy.stdout, original, format)
        }
        let piped = try vocab.ok(["export", "--format", "tsv", "--book", "혼합 mixed"])
        XCTAssertTrue(piped.hasPrefix("id\tbookId\tbook\tword"), piped)
        XCTAssertTrue(try vocab.ok(["import", "-", "--format", "tsv"], input: piped).contains("2 unchanged"))
    }
}
