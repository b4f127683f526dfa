import Foundation
import XCTest

/// Word lists from where learners keep them (issue 15): Anki's plain-text exports (made by
/// Anki itself: scripts/make_import_fixtures.py), Quizlet-style lists, headerless files, and
/// hostile text.
final class OtherListsEndToEndTests: EndToEndTestCase {
    private func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = vocab.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func word(_ text: String, book: String? = nil) throws -> [String: Any] {
        try XCTUnwrap(try vocab.json(["word", "show", text, "--json"] + (book.map { ["--book", $0] } ?? [])) as? [String: Any])
    }

    func testAnAnkiNotesExportImportsIntoItsDecksAndAgainChangesNothing() throws {
        let file = fixture("anki-notes-html.txt")
        let first = try vocab.ok(["import", file])
        XCTAssertTrue(first.contains("4 added, 0 updated, 0 unchanged"), first)
        XCTAssertTrue(first.contains("Created book \"TOEIC::Verbs\""), first)
        XCTAssertTrue(first.contains("Anki fields were read in order as word, definition, then detail."), first)
        XCTAssertTrue(first.contains("Dropped 1 [sound:…] reference"), first)
        let abandon = try word("abandon")
        XCTAssertEqual(abandon["book"] as? String, "TOEIC::Verbs")
        XCTAssertEqual(abandon["definition"] as? String, "to leave behind\n버리다 & 포기하다")
        XCTAssertEqual(abandon["detail"] as? String, "tags: exam verb")
        XCTAssertEqual(try word("사과")["definition"] as? String, "apple\na red \"fruit\"")
        XCTAssertEqual(try word("tab here")["definition"] as? String, "quote \" and, comma", "a tab in a field shows as a space")
        XCTAssertEqual(try word("The cat sat on the mat")["book"] as? String, "TOEIC::Verbs", "a cloze note is its text")
        let again = try vocab.ok(["import", file])
        XCTAssertTrue(again.contains("0 added, 0 updated, 4 unchanged"), again)
        // The plain (no HTML) export of the same notes updates the same words, by guid.
        let plain = try vocab.ok(["import", fixture("anki-notes-plain.txt")])
        XCTAssertTrue(plain.contains("0 added"), plain)
        XCTAssertEqual(try vocab.ok(["word", "list", "--json"]).components(separatedBy: "\"word\"").count - 1, 4)
    }

    func testAnAnkiNotesExportGoesIntoTheBookGivenAndACardsExportReadsQuestionAndAnswer() throws {
        let notes = try vocab.ok(["import", fixture("anki-notes-plain.txt"), "--book", "Mine"])
        XCTAssertTrue(notes.contains("4 added"), notes)
        XCTAssertEqual((try vocab.json(["book", "list", "--json"]) as? [[String: Any]])?.count, 1)
        let cards = try vocab.ok(["import", fixture("anki-cards.txt"), "--book", "Cards"])
        XCTAssertTrue(cards.contains("4 added"), cards)
        XCTAssertEqual(try word("abandon", book: "Cards")["definition"] as? String, "to leave behind\n버리다 & 포기하다")
    }

    func testQuizletListsWithTabsOrCustomSeparatorsImport() throws {
        let tab = try vocab.ok(["import", fixture("quizlet-tab.txt"), "--book", "Q"])
        XCTAssertTrue(tab.contains("3 added"), tab)
        XCTAssertTrue(tab.contains("The file has no header row: its columns were read as word, definition."), tab)
        XCTAssertEqual(try word("run")["definition"] as? String, "달리다 - 뛰다")
        let custom = try vocab.ok(["import", fixture("quizlet-custom.txt"), "--book", "Q", "--separator", " - ", "--row-separator", ";"])
        XCTAssertTrue(custom.contains("0 added, 0 updated, 3 unchanged"), custom)
        let refused = try vocab.run(["import", fixture("quizlet-custom.txt"), "--separator", ";", "--row-separator", ";"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
    }

    func testColumnsNameAHeaderlessFileAndAWideOneWithoutThemIsRefused() throws {
        let list = try write("list.csv", "apple,사과,an apple a day\nbanana,바나나,\n")
        let refused = try vocab.run(["import", list, "--book", "B"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("--columns"), refused.stderr)
        let imported = try vocab.ok(["import", list, "--book", "B", "--columns", "word,definition,detail"])
        XCTAssertTrue(imported.contains("2 added"), imported)
        XCTAssertEqual(try word("apple")["detail"] as? String, "an apple a day")
        let bad = try vocab.run(["import", list, "--columns", "word,colour"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--columns"), bad.stderr)
    }

    func testAHugeLineIsRefusedAndNothingChanges() throws {
        try vocab.ok(["book", "add", "B"])
        let long = String(repeating: "x", count: 3 << 20)
        for name in ["long.txt", "long.csv"] {
            let file = try write(name, "word,definition\nok,fine\n" + long + ",y\n")
            let result = try vocab.run(["import", file, "--book", "B"])
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.stderr.contains("longer than 1 MiB"), result.stderr)
        }
        XCTAssertEqual(try vocab.ok(["word", "list", "--json"]).trimmingCharacters(in: .whitespacesAndNewlines), "[]")
    }

    func testANotesExportForAnkiReadsBackWithItsIds() throws {
        try vocab.ok(["book", "add", "TOEIC"])
        try vocab.ok(["word", "add", "abandon", "--book", "TOEIC", "--definition", "to leave\nbehind", "--detail", "He abandoned <it>.",
                      "--pronunciation", "əˈbændən", "--synonym", "desert", "--antonym", "keep"])
        let out = vocab.file("notes.txt")
        try vocab.ok(["export", "--book", "TOEIC", "-o", out])
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#separator:tab\n#html:true\n#notetype:Basic\n"), text)
        XCTAssertTrue(text.contains("to leave<br>behind<br><br>He abandoned &lt;it&gt;.<br>Pronunciation: əˈbændən<br>Synonyms: desert<br>Antonyms: keep"), text)
        let again = try vocab.ok(["import", out])
        XCTAssertTrue(again.contains("0 added, 1 updated"), again)
        XCTAssertEqual(try vocab.ok(["word", "list", "--json"]).components(separatedBy: "\"word\"").count - 1, 1, "the id came back as the guid")
    }

    func testAnExcelSheetImportsWithKoreanNumbersDatesAndEmptyAndMergedCells() throws {
        let file = fixture("words.xlsx")
        let first = try vocab.ok(["import", file, "--book", "Excel"])
        XCTAssertTrue(first.contains("5 added, 0 updated, 0 unchanged"), first)
        XCTAssertTrue(first.contains("Ignored unknown columns: Count"), first)
        let abandon = try word("abandon")
        XCTAssertEqual(abandon["definition"] as? String, "버리다", "a shared string, its phonetic run skipped")
        XCTAssertEqual(abandon["detail"] as? String, "He abandoned the car.")
        XCTAssertEqual((abandon["date"] as? String)?.prefix(10), "2025-03-01", "a date cell")
        XCTAssertEqual((try word("apple")["date"] as? String)?.prefix(16), "2025-03-02T14:30", "a date and time cell")
        XCTAssertEqual(try word("merged")["detail"] as? String, "one", "a merged cell's value is in its first cell")
        XCTAssertEqual(try word("rich")["definition"] as? String, "굵은 글씨", "an inline rich string")
        XCTAssertEqual(try word("42")["definition"] as? String, "the answer", "a number as text")
        let again = try vocab.ok(["import", file, "--book", "Excel"])
        XCTAssertTrue(again.contains("0 added, 0 updated, 5 unchanged"), again)
        let verbs = try vocab.ok(["import", file, "--sheet", "Verbs", "--book", "Verbs"])
        XCTAssertTrue(verbs.contains("1 added"), verbs)
        let missing = try vocab.run(["import", file, "--sheet", "Nouns"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no sheet named \"Nouns\""), missing.stderr)
    }

    private func truncated(_ path: String) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = vocab.file("truncated.xlsx")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        return cut
    }

    func testHostileWorkbooksAreRefusedAndNothingChanges() throws {
        try vocab.ok(["book", "add", "B"])
        let before = try vocab.storeSnapshot()
        let cases: [(String, String)] = [
            (fixture("bomb.xlsx"), "unpacks to more than"),
            (fixture("laughs.xlsx"), "declares a DTD"),
            (try write("fake.xlsx", "word,definition\nnot,a zip\n"), "not a readable zip file"),
            (try truncated(fixture("words.xlsx")), "not a readable zip file"),
        ]
        for (path, expected) in cases {
            let result = try vocab.run(["import", path, "--book", "B"])
            XCTAssertEqual(result.status, 1, path)
            XCTAssertTrue(result.stderr.contains(expected), "\(path): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one clear line: \(result.stderr)")
        }
        XCTAssertEqual(try vocab.storeSnapshot(), before)
        let export = try vocab.run(["export", "-o", vocab.file("out.xlsx")])
        XCTAssertEqual(export.status, 2, export.stderr)
    }
}
