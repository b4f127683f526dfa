import Foundation
import XCTest

/// A new user's path through books and words, with the real binary.
final class BookAndWordEndToEndTests: EndToEndTestCase {
    func testTheFirstRunWelcomesTheUserAndCreatesAPrivateStore() throws {
        let output = try vocab.ok([])
        XCTAssertTrue(output.contains("Welcome to Vocab"), output)
        XCTAssertTrue(output.contains("vocab book add"), output)
        let attributes = try FileManager.default.attributesOfItem(atPath: vocab.home)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testANewUserBuildsABookEditsWordsRenamesItAndFindsEverythingThere() throws {
        try vocab.ok(["book", "add", "TOEIC", "--explain", "exam words", "--meaning", "goal: 900", "--cover-word", "abandon"])
        try vocab.ok(["word", "add", "abandon", "--book", "toeic", "--definition", "to leave behind", "--detail", "He abandoned the car.",
                      "--pronunciation", "əˈbændən", "--synonym", "desert", "--antonym", "keep", "--date", "2026-01-15"])
        try vocab.ok(["word", "add", "사과", "--book", "TOEIC", "-d", "apple, \"red\" fruit\nsecond line", "--memorized"])
        try vocab.ok(["word", "add", "abide", "--book", "TOEIC"])
        try vocab.ok(["word", "edit", "abide", "--definition", "to accept", "--synonym", "tolerate"])
        try vocab.ok(["word", "memorize", "abide", "abandon"])
        try vocab.ok(["word", "unmemorize", "abandon"])
        try vocab.ok(["book", "rename", "TOEIC", "TOEIC 900"])

        let words = try XCTUnwrap(try vocab.json(["word", "list", "--book", "toeic 900", "--json"]) as? [[String: Any]])
        XCTAssertEqual(words.count, 3)
        let byWord = Dictionary(uniqueKeysWithValues: words.compactMap { word in (word["word"] as? String).map { ($0, word) } })
        XCTAssertEqual(Set(byWord.keys), ["abandon", "abide", "사과"])
        let abandon = try XCTUnwrap(byWord["abandon"])
        XCTAssertEqual(abandon["book"] as? String, "TOEIC 900")
        XCTAssertEqual(abandon["definition"] as? String, "to leave behind")
        XCTAssertEqual(abandon["detail"] as? String, "He abandoned the car.")
        XCTAssertEqual(abandon["pronunciation"] as? String, "əˈbændən")
        XCTAssertEqual(abandon["synonym"] as? String, "desert")
        XCTAssertEqual(abandon["antonym"] as? String, "keep")
        XCTAssertEqual(abandon["date"] as? String, "2026-01-15T00:00:00Z")
        XCTAssertEqual(abandon["memorized"] as? Bool, false)
        XCTAssertEqual(byWord["abide"]?["memorized"] as? Bool, true)
        XCTAssertEqual(byWord["abide"]?["synonym"] as? String, "tolerate")
        XCTAssertEqual(byWord["사과"]?["definition"] as? String, "apple, \"red\" fruit\nsecond line")
        for word in words {
            XCTAssertNotNil(UUID(uuidString: word["id"] as? String ?? ""))
            XCTAssertEqual(word["bookId"] as? String, abandon["bookId"] as? String)
        }

        let book = try XCTUnwrap(try vocab.json(["book", "show", "TOEIC 900", "--json"]) as? [String: Any])
        XCTAssertEqual(book["wordCount"] as? Int, 3)
        XCTAssertEqual(book["memorizedCount"] as? Int, 2)
        XCTAssertEqual(book["meaning"] as? String, "goal: 900")
        XCTAssertEqual(book["coverWord"] as? String, "abandon")

        let home = try vocab.ok([])
        XCTAssertTrue(home.contains("TOEIC 900"), home)
        XCTAssertTrue(home.contains("3 words"), home)
    }

    func testACoverImageIsStoredCheckedAndGivenBack() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300).map { UInt8($0 % 256) }
        try Data(png).write(to: URL(fileURLWithPath: vocab.file("cover.png")))
        try vocab.ok(["book", "add", "Pictures", "--image", vocab.file("cover.png")])
        XCTAssertTrue(try vocab.ok(["book", "show", "pictures"]).contains("PNG, 308 bytes"))
        try vocab.ok(["book", "show", "pictures", "--save-image", vocab.file("back.png")])
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: vocab.file("back.png")))), png)
        try vocab.ok(["book", "edit", "pictures", "--remove-image"])
        XCTAssertFalse(try vocab.ok(["book", "show", "pictures"]).contains("PNG"))
    }

    func testDeletingABookWithWordsNeedsConfirmation() throws {
        try vocab.ok(["book", "add", "Old"])
        try vocab.ok(["word", "add", "one", "--book", "Old"])
        let error = try vocab.fails(["book", "delete", "old"], status: 1)
        XCTAssertTrue(error.contains("--yes"), error)
        XCTAssertEqual(try vocab.ok(["word", "list", "--json"]).contains("one"), true, "nothing deleted")
        XCTAssertTrue(try vocab.ok(["book", "delete", "old", "--yes"]).contains("1 word"))
        XCTAssertEqual((try vocab.json(["word", "list", "--json"]) as? [Any])?.count, 0)
        try vocab.ok(["book", "add", "Empty"])
        try vocab.ok(["book", "delete", "Empty"])
    }

    func testSearchFindsWordsByAnyField() throws {
        try vocab.ok(["book", "add", "B"])
        try vocab.ok(["word", "add", "happy", "--synonym", "glad"])
        try vocab.ok(["word", "add", "sad", "--definition", "Not happy"])
        let found = try XCTUnwrap(try vocab.json(["word", "search", "HAPPY", "--json"]) as? [[String: Any]])
        XCTAssertEqual(Set(found.compactMap { $0["word"] as? String }), ["happy", "sad"])
        XCTAssertTrue(try vocab.ok(["word", "search", "zebra"]).contains("Nothing matches"))
    }

    func testEveryCommandHasHelp() throws {
        let commands = [[], ["book"], ["word"], ["book", "add"], ["book", "list"], ["book", "show"], ["book", "edit"],
                        ["book", "rename"], ["book", "delete"], ["word", "add"], ["word", "list"], ["word", "show"],
                        ["word", "edit"], ["word", "delete"], ["word", "memorize"], ["word", "unmemorize"], ["word", "search"]]
        for command in commands {
            let output = try vocab.ok(command + ["--help"])
            XCTAssertTrue(output.contains("Usage: vocab"), "\(command): \(output)")
        }
        XCTAssertTrue(try vocab.ok(["help", "word", "add"]).contains("--definition"))
    }
}

/// Lists page through a book and stream it (the same words as one list, in pieces).
final class WordListPagingEndToEndTests: EndToEndTestCase {
    func testLimitAndOffsetPageThroughTheWordsInOrder() throws {
        _ = try vocab.ok(["book", "add", "Pages"])
        for index in 1...5 { _ = try vocab.ok(["word", "add", "w\(index)", "--book", "Pages", "--date", "2026-01-0\(index)"]) }
        func words(_ extra: [String]) throws -> [String] {
            let list = try XCTUnwrap(try vocab.json(["word", "list", "--json"] + extra) as? [[String: Any]])
            return list.compactMap { $0["word"] as? String }
        }
        XCTAssertEqual(try words([]), ["w1", "w2", "w3", "w4", "w5"])
        XCTAssertEqual(try words(["--limit", "2", "--offset", "1"]), ["w2", "w3"])
        XCTAssertEqual(try words(["--offset", "4"]), ["w5"])
        XCTAssertEqual(try words(["--offset", "9"]), [])
        let table = try vocab.ok(["word", "list", "--limit", "2"])
        XCTAssertTrue(table.contains("w1") && table.contains("w2") && !table.contains("w3") && table.contains("(2 words)"), table)
        XCTAssertEqual(try vocab.run(["word", "list", "--limit", "-1"]).status, 2)
    }
}
