import Foundation
import TestServices
import XCTest

/// A whole collection uploaded from an Anki app (a full sync, the app's side chosen) on a
/// server of one learner, driven by Anki's own client: Basic, reversed and Cloze notes with
/// pictures and sounds reach a second app as the first holds them, the account's words follow
/// the collection, and the account as it was is kept as a backup, which the app is told.
final class AnkiFullUploadTests: ServeTestCase {
    private var python = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
        try vocab.ok(["book", "add", "Travel"])
        for (word, definition) in [("apple", "사과"), ("borrow", "빌리다"), ("cherry", "체리")] {
            try vocab.ok(["word", "add", word, "--book", "Travel", "--definition", definition])
        }
        try startServer()
    }

    @discardableResult
    private func anki(_ app: String, _ steps: [String], refusals: Bool = false) throws -> [[String: Any]] {
        try ankiApp(app, steps, python: python, refusals: refusals)
    }

    private func words() throws -> [String: String] {
        let list = try XCTUnwrap(try vocab.json(["word", "list", "--json"]) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.compactMap { word in
            (word["word"] as? String).map { ($0, word["definition"] as? String ?? "") }
        })
    }

    func testAnUploadedCollectionReachesASecondAppWholeAndTheAccountFollowsIt() throws {
        // A learner's own Anki collection, made before he knew of Vocab.
        try anki("phone", ["basic:Korean:river:<b>강</b>", "reversed:Korean:mountain:산", "cloze:Korean:The {{c1##sea}} is blue.:바다",
                           "answer:river:3", "answer:mountain:4", "file:river.txt:강 river", "blob:mountain.jpg:120000"])
        let first = try anki("phone", ["login", "sync"])
        XCTAssertEqual(first[1]["required"] as? Int, 2, "both sides hold cards: the app asks which to keep")
        let uploaded = try anki("phone", ["upload", "media", "sync", "dump", "files"])
        XCTAssertEqual(uploaded[2]["required"] as? Int, 0, "nothing left to sync after the upload")
        let message = uploaded[2]["message"] as? String ?? ""
        XCTAssertTrue(message.contains("3 words it did not hold were deleted"), "the app is told: \(message)")

        XCTAssertEqual(try words(), ["river": "강", "mountain": "산", "sea": ""], "the account's words follow the collection")
        XCTAssertEqual(try (vocab.json(["stats", "--json"]) as? [String: Any])?["reviews"] as? Int, 2, "its reviews count in Vocab")
        let backups = try vocab.ok(["backup", "list"])
        XCTAssertTrue(backups.contains("before-anki-upload"), "the account as it was is kept: \(backups)")

        // A second app downloads what the first uploaded: notes, cards, log, note types, deck options, media.
        let second = try anki("tablet", ["login", "sync", "download", "media", "dump", "files"])
        XCTAssertEqual(second[1]["required"] as? Int, 3, "an empty app downloads")
        let (phone, tablet) = (uploaded[3], second[4])
        for part in ["decks", "notes", "cards", "revlog", "models", "options"] {
            XCTAssertEqual(phone[part] as? NSArray, tablet[part] as? NSArray, "the second app holds the same \(part)")
        }
        XCTAssertEqual(uploaded[4]["files"] as? NSDictionary, second[5]["files"] as? NSDictionary, "and the same media, byte for byte")
        XCTAssertEqual(tablet["orphans"] as? Int, 0)

        // A word added in Vocab reaches both apps by a normal sync after.
        try vocab.ok(["word", "add", "lake", "--book", "Korean", "--definition", "호수"])
        let after = try anki("tablet", ["status", "sync", "status", "dump"])
        XCTAssertEqual(after[0]["required"] as? Int, 1, "a normal sync, not a full one: \(after)")
        XCTAssertEqual(after[2]["required"] as? Int, 0)
        let notes = (after[3]["notes"] as? [[String: Any]]) ?? []
        XCTAssertTrue(notes.contains { ($0["fields"] as? [String: String])?["Word"] == "lake" }, "the new word is a note: \(notes)")
    }

    /// A file that only looks like a collection (its notes a view that never ends) is refused
    /// before anything of it runs, and changes nothing.
    func testAFileThatIsNotACollectionIsRefusedBeforeItRuns() throws {
        try anki("phone", ["login"])
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vocab.file("anki-phone") + "/auth.json")))
        let key = try XCTUnwrap((kept as? [String: Any])?["key"] as? String)
        let file = vocab.file("hostile.anki2"), body = vocab.file("hostile.zst"), answer = vocab.file("answer.zst")
        let script = vocab.file("hostile.py")
        try """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.executescript(\"\"\"
            CREATE TABLE col (id, crt, mod, scm, ver, dty, usn, ls, conf, models, decks, dconf, tags);
            INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', '{}', '{}', '{}', '{}');
            CREATE VIEW notes AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)
              SELECT x AS id, '' AS guid, 0 AS mid, 0 AS mod, 0 AS usn, '' AS tags, '' AS flds, '' AS sfld, 0 AS csum,
                     0 AS flags, '' AS data FROM r;
            CREATE TABLE cards (id);
            CREATE TABLE revlog (id);
            \"\"\")
            c.commit()
            """.write(toFile: script, atomically: true, encoding: .utf8)
        func shell(_ command: String) throws {
            let run = Process()
            run.executableURL = URL(fileURLWithPath: "/bin/sh")
            run.arguments = ["-c", command]
            try run.run()
            run.waitUntilExit()
            XCTAssertEqual(run.terminationStatus, 0, command)
        }
        try shell("python3 '\(script)' '\(file)' && zstd -q -c '\(file)' > '\(body)'")
        let status = try curl(["-s", "-o", answer, "-w", "%{http_code}", "-X", "POST", "--data-binary", "@" + body,
                               "-H", #"anki-sync: {"v":11,"k":"\#(key)","c":"26.09,test,linux","s":"abc"}"#,
                               "http://127.0.0.1:\(port)/anki/sync/upload"])
        XCTAssertEqual(status, "200", "the protocol answers an upload in text")
        try shell("zstd -q -d -c '\(answer)' > '\(answer).txt'")
        XCTAssertEqual(try String(contentsOfFile: answer + ".txt", encoding: .utf8),
                       "Your upload was corrupt. Please use Check Database, or restore from backup; nothing was changed.")
        XCTAssertEqual(try words(), ["apple": "사과", "borrow": "빌리다", "cherry": "체리"], "nothing was changed")
    }

    func testADamagedUploadIsRefusedAndChangesNothing() throws {
        try anki("phone", ["login", "basic:Korean:river:강", "sync"])
        let folder = vocab.file("anki-phone")
        // The collection's pages damaged where the notes are, then uploaded.
        let path = folder + "/collection.anki2"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in stride(from: bytes.count / 2, to: min(bytes.count, bytes.count / 2 + 4096), by: 1) { bytes[index] = 0x5A }
        try bytes.write(to: URL(fileURLWithPath: path))
        let refused = try anki("phone", ["upload"], refusals: true)
        XCTAssertNotNil(refused.first?["error"], "\(refused)")
        XCTAssertEqual(try words(), ["apple": "사과", "borrow": "빌리다", "cherry": "체리"], "nothing was changed")
    }
}
