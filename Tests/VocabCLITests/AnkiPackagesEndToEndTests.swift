import Foundation
import VocabCore
import XCTest

/// Anki packages (issue 13): decks exported by Anki itself (modern and legacy layouts, a whole
/// collection) and by genanki, made by scripts/make_anki_packages.py; hostile packages derived
/// from them. Exporting to Anki and back is tested with Anki's own package by
/// Tests/Anki/apkg_roundtrip.py.
final class AnkiPackagesEndToEndTests: EndToEndTestCase {
    /// The fixture's review history starts 2026-01-05 09:00 UTC.
    private static let day0: Int64 = 1_767_603_600_000
    private static let day: Int64 = 86_400_000

    private func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    private func word(_ text: String, book: String? = nil) throws -> [String: Any] {
        try XCTUnwrap(try vocab.json(["word", "show", text, "--json"] + (book.map { ["--book", $0] } ?? [])) as? [String: Any])
    }

    private func schedule(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try word(text)["schedule"] as? [String: Any], "\(text) has no schedule")
    }

    /// The due date Vocab's FSRS gives after these reviews (offsets from day 0, ratings).
    private func expectedDue(_ reviews: [(Int64, Rating)]) throws -> String {
        let log = reviews.map { (rating: $0.1, at: Timestamp(milliseconds: Self.day0 + $0.0)) }
        return try XCTUnwrap(FSRSScheduler().replay(log)).due.iso8601
    }

    func testADeckExportedByTheCurrentAnkiImportsWithItsFieldsBooksHistoryAndCover() throws {
        let output = try vocab.ok(["import", fixture("anki-modern.apkg")])
        XCTAssertTrue(output.contains("5 added, 0 updated, 0 unchanged"), output)
        for book in ["TOEIC", "TOEIC::Verbs", "Japanese"] {
            XCTAssertTrue(output.contains("Created book \"\(book)\""), output)
        }
        XCTAssertTrue(output.contains("Carried 10 reviews from Anki's log"), output)
        XCTAssertTrue(output.contains("Left out 3 reviews of notes' other cards"), output)
        XCTAssertTrue(output.contains("Anki fields read by position: Kanji → word (Japanese)."), output)
        XCTAssertTrue(output.contains("Anki fields not carried: Kana (Japanese), Audio (Japanese)"), output)
        XCTAssertTrue(output.contains("Dropped 1 [sound:…] reference ("), output)
        XCTAssertFalse(output.contains("Please update"), output)

        let abandon = try word("abandon")
        XCTAssertEqual(abandon["book"] as? String, "TOEIC::Verbs")
        XCTAssertEqual(abandon["definition"] as? String, "to leave behind\n버리다 & 포기하다")
        XCTAssertEqual(abandon["detail"] as? String, "tags: exam verb")
        XCTAssertEqual(try word("사과")["definition"] as? String, "apple\na red \"fruit\"")
        XCTAssertEqual(try word("borrow")["definition"] as? String, "빌리다")
        let cloze = try word("cat, mat")
        XCTAssertEqual(cloze["definition"] as? String, "animal", "a cloze hint is the definition")
        XCTAssertEqual(cloze["detail"] as? String, "The cat sat on the mat.\n고양이")
        XCTAssertEqual(try word("猫")["definition"] as? String, "cat")

        // The first card's reviews, replayed by Vocab's FSRS; the manual reschedule is not one.
        XCTAssertEqual(try schedule("abandon")["reviews"] as? Int, 4)
        XCTAssertEqual(try schedule("abandon")["due"] as? String,
                       try expectedDue([(0, .good), (600_000, .good), (Self.day, .good), (4 * Self.day, .good)]))
        XCTAssertEqual(try schedule("사과")["reviews"] as? Int, 4)
        XCTAssertEqual(try schedule("사과")["lapses"] as? Int, 0)
        XCTAssertEqual(try schedule("사과")["due"] as? String,
                       try expectedDue([(1000, .again), (61_000, .good), (661_000, .good), (2 * Self.day + 1000, .hard)]))
        XCTAssertEqual(try schedule("borrow")["reviews"] as? Int, 2, "only the forward card's log")
        XCTAssertNil(try word("猫")["schedule"] as? [String: Any])

        let toeic = try XCTUnwrap(try vocab.json(["book", "show", "TOEIC", "--json"]) as? [String: Any])
        XCTAssertEqual(toeic["explain"] as? String, "Words for the TOEIC test.")
        XCTAssertEqual(toeic["imageType"] as? String, "png", "the deck's picture is the cover")

        // Again: matched by guid, nothing added, no review twice.
        let again = try vocab.ok(["import", fixture("anki-modern.apkg")])
        XCTAssertTrue(again.contains("0 added, 0 updated, 5 unchanged"), again)
        XCTAssertFalse(again.contains("Carried"), again)
        XCTAssertEqual(try schedule("abandon")["reviews"] as? Int, 4)
    }

    func testTheLegacyLayoutAWholeCollectionAndTheModernOneGiveTheSameWords() throws {
        func words() throws -> [String] {
            let list = try XCTUnwrap(try vocab.json(["word", "list", "--json"]) as? [[String: Any]])
            return list.map { "\($0["id"] ?? "")|\($0["book"] ?? "")|\($0["word"] ?? "")|\($0["definition"] ?? "")|\($0["detail"] ?? "")" }.sorted()
        }
        try vocab.ok(["import", fixture("anki-modern.apkg")])
        let modern = try words()
        for package in ["anki-legacy.apkg", "anki-collection.colpkg"] {
            let output = try vocab.ok(["import", fixture(package)])
            XCTAssertTrue(output.contains("0 added, 0 updated, 5 unchanged"), "\(package): \(output)")
            XCTAssertEqual(try words(), modern, package)
            XCTAssertEqual(try schedule("abandon")["reviews"] as? Int, 4, package)
        }
    }

    func testAGenankiDeckImportsWithItsCover() throws {
        let output = try vocab.ok(["import", fixture("genanki.apkg")])
        XCTAssertTrue(output.contains("2 added"), output)
        XCTAssertEqual(try word("serendipity")["definition"] as? String, "a happy accident")
        let book = try vocab.ok(["book", "show", "Genanki Words"])
        XCTAssertTrue(book.contains("Image:    PNG"), book)
        XCTAssertTrue(book.contains("GRE words"), book)
    }

    func testABookAndFieldMappingsGivenOnTheCommandLine() throws {
        let output = try vocab.ok(["import", fixture("anki-modern.apkg"), "--book", "Mine", "--field", "Kana=pronunciation",
                                   "--field", "Audio=detail"])
        XCTAssertTrue(output.contains("5 added"), output)
        XCTAssertFalse(output.contains("not carried"), output)
        XCTAssertEqual((try vocab.json(["book", "list", "--json"]) as? [[String: Any]])?.count, 1)
        XCTAssertEqual(try word("猫")["pronunciation"] as? String, "ねこ")
        XCTAssertEqual(try word("猫")["book"] as? String, "Mine")

        let before = try vocab.storeSnapshot()
        let unknown = try vocab.fails(["import", fixture("anki-modern.apkg"), "--field", "Colour=detail"], status: 1)
        XCTAssertTrue(unknown.contains("\"Colour\""), unknown)
        let malformed = try vocab.fails(["import", fixture("anki-modern.apkg"), "--field", "Kana"], status: 2)
        XCTAssertTrue(malformed.contains("--field"), malformed)
        XCTAssertEqual(try vocab.storeSnapshot(), before)
    }

    func testHostilePackagesAreRefusedInOneLineAndLeaveNothingBehind() throws {
        try vocab.ok(["book", "add", "Mine"])
        try vocab.ok(["word", "add", "keep", "--book", "Mine"])
        let before = try vocab.storeSnapshot()
        let temporary = vocab.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let cases = [
            ("anki-truncated.apkg", "not a readable zip file"),
            ("anki-bomb.apkg", "unpacks to more than"),
            ("anki-zstd-bomb.apkg", "unpacks to more than"),
            ("anki-traversal.apkg", "outside the package's own folder"),
            ("anki-not-sqlite.apkg", "is not an SQLite database"),
            ("anki-meta-9.apkg", "version 9"),
            // Read on the main thread (the log's size), and on the log's own thread.
            ("anki-no-revlog.apkg", "its collection cannot be read (no such table: revlog)"),
            ("anki-revlog-no-time.apkg", "its collection cannot be read (no such column: r.time)"),
            ("anki-notes-no-mid.apkg", "its collection cannot be read (no such column: mid)"),
        ]
        for (name, expected) in cases {
            let result = try vocab.run(["import", fixture(name)], environment: ["TMPDIR": temporary])
            XCTAssertEqual(result.status, 1, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("Nothing was imported"), "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(name): \(result.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "\(name) left files behind")
        }
        XCTAssertEqual(try vocab.storeSnapshot(), before)
        let fromStandardInput = try vocab.fails(["import", "-", "--format", "apkg"], status: 1)
        XCTAssertTrue(fromStandardInput.contains("give its file name"), fromStandardInput)
    }

    func testAnExportReadsBackIntoTheSameWordsWithTheirHistory() throws {
        try vocab.ok(["import", fixture("anki-modern.apkg")])
        try vocab.ok(["word", "add", "abundant", "--book", "TOEIC", "--definition", "plentiful\n풍부한", "--detail", "a <b> & c",
                      "--pronunciation", "əˈbʌndənt", "--synonym", "ample", "--antonym", "scarce"])
        let package = vocab.file("out.apkg")
        let output = try vocab.ok(["export", "-o", package])
        XCTAssertTrue(output.contains("Exported 6 words"), output)
        func fields(_ runner: VocabRunner) throws -> [String] {
            let list = try XCTUnwrap(try runner.json(["word", "list", "--json"]) as? [[String: Any]])
            let keys = ["id", "book", "word", "definition", "detail", "pronunciation", "synonym", "antonym", "createdAt"]
            return list.map { word in keys.map { "\(word[$0] ?? "")" }.joined(separator: "|") }.sorted()
        }
        let words = try fields(vocab)
        let due = try schedule("abandon")["due"] as? String

        let other = try VocabRunner()
        let imported = try other.ok(["import", package])
        XCTAssertTrue(imported.contains("6 added"), imported)
        XCTAssertTrue(imported.contains("Carried 10 reviews"), imported)
        XCTAssertFalse(imported.contains("not carried"), imported)
        // Same ids (the guids are the word ids), fields, books, dates; the same schedules.
        XCTAssertEqual(try fields(other), words)
        let abandon = try XCTUnwrap(try other.json(["word", "show", "abandon", "--json"]) as? [String: Any])
        XCTAssertEqual((abandon["schedule"] as? [String: Any])?["due"] as? String, due)
        XCTAssertEqual(abandon["detail"] as? String, "tags: exam verb", "tags go out as Anki tags and come back as the line")
        let toeic = try XCTUnwrap(try other.json(["book", "show", "TOEIC", "--json"]) as? [String: Any])
        XCTAssertEqual(toeic["imageType"] as? String, "png")
        XCTAssertEqual(toeic["explain"] as? String, "Words for the TOEIC test.")
    }

    func testAnExportWithNothingToWriteOrNowhereToWriteItIsRefused() throws {
        try vocab.ok(["book", "add", "Empty"])
        let empty = try vocab.fails(["export", "--book", "Empty", "-o", vocab.file("empty.apkg")], status: 1)
        XCTAssertTrue(empty.contains("no words to export"), empty)
        try vocab.ok(["word", "add", "one", "--book", "Empty"])
        let toStandardOutput = try vocab.fails(["export", "--format", "apkg"], status: 2)
        XCTAssertTrue(toStandardOutput.contains("-o book.apkg"), toStandardOutput)
        let nowhere = try vocab.fails(["export", "-o", vocab.file("missing/folder/x.apkg")], status: 1)
        XCTAssertTrue(nowhere.contains("its folder does not exist"), nowhere)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vocab.file("empty.apkg")))
    }
}
