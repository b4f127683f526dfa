import Foundation
import TestServices
import XCTest

/// Anki's normal sync with a server of one learner (`vocab serve`), driven by Anki's own client:
/// words and reviews meet both ways, object by object, and what Vocab has no place for stays
/// Anki's, exactly.
final class AnkiNormalSyncServeTests: ServeTestCase {
    private var python = ""
    private var address: String { "http://127.0.0.1:\(port)" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
        try vocab.ok(["book", "add", "Travel"])
        for (word, definition) in [("apple", "사과"), ("borrow", "빌리다"), ("cherry", "체리")] {
            try vocab.ok(["word", "add", word, "--book", "Travel", "--definition", definition])
        }
        try startServer()
    }

    /// Runs Anki's client `app` (its own collection and key) through `steps`; fails on a refusal.
    @discardableResult
    private func anki(_ app: String, _ steps: [String], code: String = "") throws -> [[String: Any]] {
        let lines = try ankiClient(python: python, folder: vocab.file("anki-" + app), server: address, user: "me", password: code,
                                   steps: steps)
        XCTAssertEqual(lines.count, steps.count, "every step ran: \(lines)")
        XCTAssertNil(lines.first { $0["error"] != nil }, "\(lines)")
        try ankiWorkDone()
        return lines
    }

    private func words() throws -> [String: String] {
        let list = try XCTUnwrap(try vocab.json(["word", "list", "--json"]) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.compactMap { word in
            (word["word"] as? String).map { ($0, word["definition"] as? String ?? "") }
        })
    }

    private func reviews() throws -> Int? { (try vocab.json(["stats", "--json"]) as? [String: Any])?["reviews"] as? Int }

    private func notes(_ dump: [String: Any]?) -> [String: [String: String]] {
        let notes = dump?["notes"] as? [[String: Any]] ?? []
        return Dictionary(notes.compactMap { note in
            guard let fields = note["fields"] as? [String: String], let first = fields["Word"] ?? fields["Front"] else { return nil }
            return (first, fields)
        }, uniquingKeysWith: { first, _ in first })
    }

    func testWordsAndReviewsMeetBothWaysInANormalSync() throws {
        try anki("phone", ["login", "sync", "download"], code: try pairingCode())
        // Changes on both sides while apart.
        try vocab.ok(["word", "add", "dog", "--book", "Travel", "--definition", "개"])
        try vocab.ok(["word", "edit", "borrow", "--book", "Travel", "--definition", "빌리다 (돈)"])
        try vocab.ok(["word", "delete", "cherry", "--book", "Travel"])
        try anki("phone", ["add:Travel:eagle:독수리", "answer:apple:3", "basic:Travel:front:back", "edit:apple:Definition:사과 (과일)"])
        XCTAssertEqual(try anki("phone", ["status"]).first?["required"] as? Int, 1, "a normal sync is due, not a full one")

        let synced = try anki("phone", ["sync", "status", "check", "dump"])
        XCTAssertEqual(synced[1]["required"] as? Int, 0, "nothing is left to sync, and nothing came back as new")
        XCTAssertEqual(synced[2]["ok"] as? Bool, true, "Anki's own check finds the collection sound: \(synced[2])")
        let inAnki = notes(synced[3])
        XCTAssertEqual(Set(inAnki.keys), ["apple", "borrow", "dog", "eagle", "front"], "\(inAnki)")
        XCTAssertEqual(inAnki["borrow"]?["Definition"], "빌리다 (돈)", "Vocab's edit reached Anki")
        XCTAssertEqual(inAnki["dog"]?["Definition"], "개", "Vocab's new word reached Anki")
        XCTAssertEqual(inAnki["front"], ["Front": "front", "Back": "back"], "Anki's own note is its own")
        XCTAssertEqual((synced[3]["revlog"] as? [[String: Any]])?.count, 1, "the review stays in Anki's log")

        XCTAssertEqual(try words(), ["apple": "사과 (과일)", "borrow": "빌리다 (돈)", "dog": "개", "eagle": "독수리", "front": "back"],
                       "Anki's edit and new notes reached Vocab (the Basic one by its fields' names); the deleted word stays deleted")
        XCTAssertEqual(try reviews(), 1, "the review made in Anki counts in Vocab's progress")

        // Deleted in Anki, deleted in Vocab; reviewed in Vocab, in Anki's log.
        try anki("phone", ["remove:eagle", "sync"])
        XCTAssertNil(try words()["eagle"])
        try vocab.ok(["word", "edit", "dog", "--book", "Travel", "--detail", "a pet"])
        let again = try anki("phone", ["status", "sync", "dump"])
        XCTAssertEqual(again[0]["required"] as? Int, 1, "Vocab's change is news to the app")
        XCTAssertEqual(notes(again[2])["dog"]?["Detail"], "a pet")
        XCTAssertNil(notes(again[2])["eagle"])
    }

    func testTwoAnkiAppsAndTheStoreConverge() throws {
        try anki("phone", ["login", "sync", "download", "basic:Travel:front:back", "answer:apple:3", "sync"], code: try pairingCode())
        try anki("desktop", ["login", "sync", "download"], code: try pairingCode(next: true))
        let phone = try anki("phone", ["dump"]).first, desktop = try anki("desktop", ["dump"]).first
        for part in ["decks", "notes", "cards", "revlog"] {
            XCTAssertEqual(phone?[part] as? NSArray, desktop?[part] as? NSArray, "the second app downloads what the first has: \(part)")
        }
        try anki("desktop", ["answer:borrow:4", "edit:front:Back:back (edited)", "sync"])
        try vocab.ok(["word", "add", "dog", "--book", "Travel", "--definition", "개"])
        let phoneAfter = try anki("phone", ["sync", "dump"]).last, desktopAfter = try anki("desktop", ["sync", "dump"]).last
        for part in ["decks", "notes", "cards", "revlog"] {
            XCTAssertEqual(phoneAfter?[part] as? NSArray, desktopAfter?[part] as? NSArray, "both apps hold the same: \(part)")
        }
        XCTAssertEqual(notes(phoneAfter)["front"]?["Back"], "back (edited)")
        XCTAssertEqual(notes(phoneAfter)["dog"]?["Definition"], "개")
        XCTAssertEqual((phoneAfter?["revlog"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual(try reviews(), 2, "both apps' reviews count in Vocab")
        XCTAssertEqual(try words(), ["apple": "사과", "borrow": "빌리다", "cherry": "체리", "dog": "개", "front": "back (edited)"])
    }

    /// Notes of Anki's own types become words by their fields' names, as the `.apkg` import
    /// makes them; an edit in Vocab goes back into the field it came from (the others, and a
    /// field whose text did not change, keep their HTML), and a word deleted in Vocab takes its
    /// note with every card.
    func testNotesOfAnkisOwnTypesBecomeWordsAndVocabsEditsGoBack() throws {
        try anki("phone", ["login", "sync", "download", "basic:Travel:river:<b>강</b>", "reversed:Travel:mountain:산",
                           "cloze:Travel:The {{c1##sea}} is blue.:바다", "answer:river:3", "sync"], code: try pairingCode())
        let list = try XCTUnwrap(try vocab.json(["word", "list", "--json"]) as? [[String: Any]])
        let byWord = Dictionary(uniqueKeysWithValues: list.compactMap { word in (word["word"] as? String).map { ($0, word) } })
        XCTAssertEqual(byWord["river"]?["definition"] as? String, "강", "a Basic note's Back is the definition, as text")
        XCTAssertEqual(byWord["mountain"]?["definition"] as? String, "산")
        XCTAssertEqual(byWord["sea"]?["definition"] as? String, "", "a cloze note's answer is the word")
        XCTAssertEqual(byWord["sea"]?["detail"] as? String, "The sea is blue.\n바다", "its sentence first in the detail")
        XCTAssertEqual(try reviews(), 1, "the Basic card's review is the word's")

        // An edit of another field: the note's fields keep their HTML.
        try vocab.ok(["word", "edit", "river", "--book", "Travel", "--pronunciation", "/ˈrɪvər/"])
        var dump = try anki("phone", ["sync", "dump"]).last
        XCTAssertEqual(notes(dump)["river"], ["Front": "river", "Back": "<b>강</b>"], "nothing it has no field for, and its HTML kept")
        // An edit of the definition goes back into Back.
        try vocab.ok(["word", "edit", "river", "--book", "Travel", "--definition", "강 (물)"])
        try vocab.ok(["word", "edit", "mountain", "--book", "Travel", "--word", "mountains"])
        dump = try anki("phone", ["sync", "status", "dump"]).last
        XCTAssertEqual(notes(dump)["river"], ["Front": "river", "Back": "강 (물)"])
        XCTAssertEqual(notes(dump)["mountains"]?["Back"], "산", "the Front changed, the Back as it was")
        XCTAssertTrue(((dump?["notes"] as? [[String: Any]]) ?? []).contains { ($0["type"] as? String) == "Basic (and reversed card)" },
                      "the note keeps its type")

        // Deleted in Vocab: the note goes with both its cards.
        try vocab.ok(["word", "delete", "mountains", "--book", "Travel"])
        let after = try anki("phone", ["sync", "dump"]).last
        XCTAssertNil(notes(after)["mountains"])
        XCTAssertEqual(after?["orphans"] as? Int, 0, "no card is left without its note")
    }

    /// The same note changed on both sides: the later change wins, the whole note (Anki's rule;
    /// Anki stamps a note to the second, so the two changes are a second and more apart).
    func testTheLaterOfTwoConflictingEditsWins() throws {
        try anki("phone", ["login", "sync", "download"], code: try pairingCode())
        try vocab.ok(["word", "edit", "apple", "--book", "Travel", "--definition", "사과 (Vocab)"])
        Thread.sleep(forTimeInterval: 1.2)
        try anki("phone", ["edit:apple:Definition:사과 (Anki)", "sync"])
        XCTAssertEqual(try words()["apple"], "사과 (Anki)", "the app's later edit wins in Vocab")
        XCTAssertEqual(notes(try anki("phone", ["dump"]).first)["apple"]?["Definition"], "사과 (Anki)")

        try anki("phone", ["edit:borrow:Definition:빌리다 (Anki)"])
        Thread.sleep(forTimeInterval: 1.2)
        try vocab.ok(["word", "edit", "borrow", "--book", "Travel", "--definition", "빌리다 (Vocab)"])
        let synced = try anki("phone", ["sync", "status", "dump"])
        XCTAssertEqual(notes(synced[2])["borrow"]?["Definition"], "빌리다 (Vocab)", "Vocab's later edit wins in the app")
        XCTAssertEqual(try words()["borrow"], "빌리다 (Vocab)")
        XCTAssertEqual(synced[1]["required"] as? Int, 0)
    }

    /// A call outside its sync, and changes the server cannot read, are refused and change nothing.
    func testCallsOutsideTheirSyncAndUnreadableChangesAreRefused() throws {
        try anki("phone", ["login", "sync", "download"], code: try pairingCode())
        let key = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vocab.file("anki-phone/auth.json"))))
            as? [String: Any])?["key"] as? String)
        func post(_ method: String, _ json: String, session: String) throws -> String {
            let body = vocab.file("body.zst")
            let run = Process()
            run.executableURL = URL(fileURLWithPath: "/bin/sh")
            run.arguments = ["-c", "printf '%s' \"$0\" | zstd -q -c > '\(body)'", json]
            try run.run()
            run.waitUntilExit()
            XCTAssertEqual(run.terminationStatus, 0, "zstd: apt-get install zstd")
            return try curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "--data-binary", "@" + body,
                             "-H", #"anki-sync: {"v":11,"k":"\#(key)","c":"26.09,test,linux","s":"\#(session)"}"#,
                             address + "/anki/sync/" + method])
        }
        XCTAssertEqual(try post("chunk", "{}", session: "none"), "400", "no sync under way")
        XCTAssertEqual(try post("start", #"{"minUsn":0,"lnewer":false}"#, session: "s1"), "200")
        XCTAssertEqual(try post("chunk", "{}", session: "s2"), "400", "another sync's call")
        XCTAssertEqual(try post("applyChunk", #"{"chunk":{"notes":[["not a note"]]}}"#, session: "s1"), "400", "a note of another shape")
        XCTAssertEqual(try post("applyChunk", "[1,2", session: "s1"), "400", "not JSON")
        XCTAssertEqual(try post("abort", "{}", session: "s1"), "200")
        XCTAssertEqual(try words(), ["apple": "사과", "borrow": "빌리다", "cherry": "체리"], "nothing changed")
        let after = try anki("phone", ["answer:apple:3", "sync", "status"])
        XCTAssertEqual(after.last?["required"] as? Int, 0, "the app syncs on")
        XCTAssertEqual(try reviews(), 1)
    }
}
