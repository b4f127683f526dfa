import Foundation
import XCTest
import VocabStore

/// A learner who only uses the phone: `vocab serve` runs the same upkeep as the terminal and
/// the window — the automatic backup when one is due, and search indexing of a big import.
final class ServeUpkeepTests: ServeTestCase {
    private var backups: String { vocab.home + "/backups" }

    /// The automatic backups made whole (one being written is `.partial-…`, not yet a backup).
    private func autoBackups() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: backups)) ?? []).filter { !$0.hasPrefix(".") && $0.contains("-auto.sqlite") }.sorted()
    }

    func testWordsAddedOnlyFromThePhoneAreBackedUpAndABigImportIsIndexed() throws {
        try startServer()
        let device = try pairForWrites()
        let made = try send("POST", "/api/books", body: #"{"name": "Phone"}"#, headers: device)
        XCTAssertEqual(made.status, 201, made.body)
        let bookId = try XCTUnwrap(made.object["id"] as? String)
        // No terminal ran: the server itself backs up the phone's first change (the store was empty before).
        XCTAssertTrue(waitUntil(15) { !autoBackups().isEmpty }, "an automatic backup after the phone's change: \(autoBackups())")
        let listed = try XCTUnwrap(try vocab.json(["backup", "list", "--json"]) as? [[String: Any]])
        XCTAssertEqual(listed.count, 1, "\(listed)")
        XCTAssertEqual(listed.first?["books"] as? Int, 1, "the backup holds the phone's book: \(listed)")
        XCTAssertEqual(try send("POST", "/api/words", body: #"{"bookId": "\#(bookId)", "word": "abandon"}"#, headers: device).status, 201)
        // The next change is not due one (the newest is minutes old): still one, read below once
        // the server's upkeep has run again (it indexes the import that follows).
        XCTAssertEqual(try send("POST", "/api/words", body: #"{"bookId": "\#(bookId)", "word": "brave"}"#, headers: device).status, 201)

        // A file of 3,000 words leaves its search indexing for later: the server catches up.
        let file = "word,definition\n" + (0..<3_000).map { "w\($0)x,meaning \($0)" }.joined(separator: "\n") + "\n"
        let imported = try send("POST", "/api/imports?name=words.csv&format=csv&book=\(bookId)", headers: device, rawBody: Array(file.utf8))
        XCTAssertLessThan(imported.status, 300, imported.body)
        let store = try Store(path: vocab.home + "/vocab.sqlite")
        XCTAssertTrue(try waitUntil(30) { try store.wordCount() == 3_002 && store.searchBacklog() == 0 },
                      "indexed: \((try? store.wordCount()) ?? -1) words, \((try? store.searchBacklog()) ?? -1) waiting")
        let found = try vocab.ok(["word", "search", "w2999x"])
        XCTAssertTrue(found.contains("w2999x"), found)
        XCTAssertEqual(autoBackups().count, 1, "no second backup by the upkeeps since: \(autoBackups())")
    }
}
