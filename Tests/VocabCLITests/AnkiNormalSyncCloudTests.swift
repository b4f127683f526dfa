import Foundation
import TestServices
import XCTest

/// Anki's normal sync with a Vocab account on a cloud: the collection the apps sync with is
/// kept in the cloud, so two apps syncing through two servers, and the learner's Vocab devices,
/// all meet; driven by Anki's own client against real `vocab serve --cloud` processes.
final class AnkiNormalSyncCloudTests: CloudEndToEndTestCase {
    private var python = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
    }

    /// Runs Anki's client `app` through `steps` against `server`; fails on a refusal unless
    /// `refusals` are expected.
    @discardableResult
    private func anki(_ app: String, _ steps: [String], server: String, user: String = "", refusals: Bool = false) throws -> [[String: Any]] {
        try ankiApp(python: python, folder: vocab.file("anki-" + app), server: server, user: user, steps: steps, refusals: refusals)
    }

    private func notes(_ dump: [String: Any]?) -> [String: [String: String]] {
        Dictionary(((dump?["notes"] as? [[String: Any]]) ?? []).compactMap { note in
            guard let fields = note["fields"] as? [String: String], let first = fields["Word"] ?? fields["Front"] else { return nil }
            return (first, fields)
        }, uniquingKeysWith: { first, _ in first })
    }

    private func definitions(_ device: String) throws -> [String: String] {
        let list = try JSONSerialization.jsonObject(with: Data(try on(device, ["word", "list", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.compactMap { word in
            (word["word"] as? String).map { ($0, word["definition"] as? String ?? "") }
        })
    }

    func testTwoAppsThroughTwoServersAndAVocabDeviceMeet() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), one = try sharedServer(), two = try startServer("second", tls: false)
        try on("a", ["book", "add", "Travel"]).expectSuccess()
        for (word, definition) in [("apple", "사과"), ("borrow", "빌리다"), ("cherry", "체리")] {
            try on("a", ["word", "add", word, "--book", "Travel", "--definition", definition]).expectSuccess()
        }
        try syncs("a")
        try anki("phone", ["login", "sync", "download"], server: one, user: user)
        try anki("desktop", ["login", "sync", "download"], server: two, user: user)

        try on("a", ["word", "add", "dog", "--book", "Travel", "--definition", "개"]).expectSuccess()
        try on("a", ["word", "edit", "borrow", "--book", "Travel", "--definition", "빌리다 (돈)"]).expectSuccess()
        try on("a", ["word", "delete", "cherry", "--book", "Travel"]).expectSuccess()
        try syncs("a")
        try anki("phone", ["add:Travel:eagle:독수리", "answer:apple:3", "basic:Travel:front:back", "sync"], server: one)

        let desktop = try anki("desktop", ["sync", "status", "check", "dump"], server: two)
        XCTAssertEqual(desktop[1]["required"] as? Int, 0, "nothing left to sync, nothing echoed")
        XCTAssertEqual(desktop[2]["ok"] as? Bool, true, "\(desktop[2])")
        let seen = notes(desktop[3])
        XCTAssertEqual(Set(seen.keys), ["apple", "borrow", "dog", "eagle", "front"], "the other server's app and Vocab's device both reached it")
        XCTAssertEqual(seen["borrow"]?["Definition"], "빌리다 (돈)")
        XCTAssertEqual(seen["front"], ["Front": "front", "Back": "back"], "the Basic note, exactly")
        XCTAssertEqual((desktop[3]["revlog"] as? [[String: Any]])?.count, 1, "the phone's review")

        try syncs("a")
        XCTAssertEqual(try definitions("a"), ["apple": "사과", "borrow": "빌리다 (돈)", "dog": "개", "eagle": "독수리", "front": "back"],
                       "the phone's notes reached the Vocab device, the Basic one by its fields' names")
        let stats = try JSONSerialization.jsonObject(with: Data(try on("a", ["stats", "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(stats?["reviews"] as? Int, 1, "the review made in Anki counts in Vocab's progress")

        let phone = try anki("phone", ["sync", "dump"], server: one)
        for part in ["decks", "notes", "cards", "revlog"] {
            XCTAssertEqual(phone[1][part] as? NSArray, desktop[3][part] as? NSArray, "both apps hold the same: \(part)")
        }

        // Another learner's app sees none of it.
        let stranger = try newUser("other")
        let theirs = try anki("stranger", ["login", "sync", "download", "dump"], server: two, user: stranger, refusals: true)
        XCTAssertEqual((theirs.last?["notes"] as? [Any])?.count ?? 0, 0, "\(theirs)")
    }

    /// A server new to the collection takes its copy from the cloud page by page (each bounded
    /// by the cloud): an app on it gets every note the other server's app got.
    func testAServersFirstCopyOfALargeCollectionComesInPages() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), one = try sharedServer(), two = try startServer("second", tls: false)
        let file = vocab.file("words.csv")
        try ("word,definition\n" + (0..<5_000).map { "word\($0),뜻 \($0) and a longer definition to fill the page" }.joined(separator: "\n"))
            .write(toFile: file, atomically: true, encoding: .utf8)
        try on("a", ["book", "add", "Big"]).expectSuccess()
        try on("a", ["import", file, "--book", "Big"]).expectSuccess()
        try syncs("a")
        let phone = try anki("phone", ["login", "sync", "download", "dump"], server: one, user: user)
        let bytes = Int(try adminSQL("SELECT sum(octet_length(content)) FROM vocab.anki_objects WHERE owner = '\(user)'")) ?? 0
        XCTAssertGreaterThan(bytes, 2 << 20, "the collection is larger than two pages of 1 MiB (PullBounds.pageBytes)")
        let desktop = try anki("desktop", ["login", "sync", "download", "dump"], server: two, user: user)
        XCTAssertEqual((desktop.last?["notes"] as? [Any])?.count, 5_000)
        for part in ["notes", "cards"] {
            XCTAssertEqual(phone.last?[part] as? NSArray, desktop.last?[part] as? NSArray, "both servers sent the same \(part)")
        }
    }

    /// A book the learner follows reaches his Anki app as a deck; his reviews there are his own,
    /// while his edits and deletions of its words are undone at the next sync (as on Vocab's
    /// pages) and never reach the book's owner.
    func testAFollowedBooksWordsAreStudiedInAnkiButNotChangedThere() throws {
        let teacher = try newUser("teacher"), student = try newUser("student")
        let server = try sharedServer()
        try signIn("teacher", to: server, as: teacher)
        try signIn("student", to: server, as: student)
        try on("teacher", ["book", "add", "TOEIC"]).expectSuccess()
        for (word, definition) in [("abandon", "to leave"), ("benefit", "an advantage"), ("comply", "to obey")] {
            try on("teacher", ["word", "add", word, "--book", "TOEIC", "--definition", definition]).expectSuccess()
        }
        let shared = try on("teacher", ["share", "TOEIC", "--json"])
        let link = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(shared.stdout.utf8)) as? [String: Any])?["link"] as? String)
        try on("student", ["follow", link]).expectSuccess()
        try syncs("student")

        let first = try anki("phone", ["login", "sync", "download", "dump"], server: server, user: student)
        XCTAssertEqual(Set(notes(first.last).keys), ["abandon", "benefit", "comply"], "the followed book's words, as notes")
        try anki("phone", ["edit:abandon:Definition:hacked", "remove:comply", "answer:benefit:3", "sync"], server: server)
        let restored = try anki("phone", ["status", "sync", "status", "dump"], server: server)
        XCTAssertEqual(restored[0]["required"] as? Int, 1, "the words as the owner has them are news to the app")
        XCTAssertEqual(restored[2]["required"] as? Int, 0)
        XCTAssertEqual(notes(restored[3])["abandon"]?["Definition"], "to leave", "the edit was undone")
        XCTAssertNotNil(notes(restored[3])["comply"], "the deleted word came back")

        try syncs("student")
        XCTAssertEqual(try definitions("student"), ["abandon": "to leave", "benefit": "an advantage", "comply": "to obey"])
        let stats = try JSONSerialization.jsonObject(with: Data(try on("student", ["stats", "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(stats?["reviews"] as? Int, 1, "his review in Anki is his own")
        try syncs("teacher")
        XCTAssertEqual(try definitions("teacher"), ["abandon": "to leave", "benefit": "an advantage", "comply": "to obey"],
                       "nothing reached the owner")

        // A collection of his own uploaded whole, without the followed words: they are not his to
        // delete, so nothing of his is lost, the upload is taken, and the words come back to it.
        try anki("tablet", ["basic:Korean:river:강", "login", "sync"], server: server, user: student, refusals: true)
        try anki("tablet", ["upload"], server: server)
        let tablet = try anki("tablet", ["status", "sync", "dump"], server: server)
        XCTAssertEqual(tablet[0]["required"] as? Int, 1, "the followed words are news to the app after its upload")
        XCTAssertEqual(Set(notes(tablet[2]).keys), ["river", "abandon", "benefit", "comply"])
        try syncs("teacher")
        XCTAssertEqual(try definitions("teacher").count, 3, "nothing reached the owner")
    }

    /// A learner's own Anki collection, uploaded whole into a new account through one server,
    /// reaches an app on another server as the first holds it (note types and deck options
    /// too), and its notes are the account's words on his Vocab device.
    func testAWholeCollectionUploadedIntoANewAccountReachesEveryone() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), one = try sharedServer(), two = try startServer("second", tls: false)
        try anki("phone", ["basic:Korean:river:강", "reversed:Korean:mountain:산", "answer:river:3", "file:river.txt:강"], server: one)
        let first = try anki("phone", ["login", "sync"], server: one, user: user)
        XCTAssertEqual(first[1]["required"] as? Int, 4, "an account with no card: the app uploads")
        let phone = try anki("phone", ["upload", "media", "sync", "dump"], server: one)
        XCTAssertEqual(phone[2]["required"] as? Int, 0)
        let desktop = try anki("desktop", ["login", "sync", "download", "media", "dump", "files"], server: two, user: user)
        for part in ["decks", "notes", "cards", "revlog", "models", "options"] {
            XCTAssertEqual(phone[3][part] as? NSArray, desktop[4][part] as? NSArray, "the other server's app holds the same \(part)")
        }
        XCTAssertEqual((desktop[5]["files"] as? [String: String])?.keys.sorted(), ["river.txt"])
        try syncs("a")
        XCTAssertEqual(try definitions("a"), ["river": "강", "mountain": "산"], "the notes are the account's words")
    }

    /// A server keeps the file it sent in a download beside the learner's store: a later
    /// download through it, after another server's app changed the collection, holds the
    /// change (the rows its copy pulls unname the file), and one with nothing changed since
    /// holds the same as the first.
    func testADownloadThroughAServerThatKeptAFileHoldsWhatAnotherServerChanged() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), one = try sharedServer(), two = try startServer("second", tls: false)
        try on("a", ["book", "add", "Travel"]).expectSuccess()
        try on("a", ["word", "add", "apple", "--book", "Travel", "--definition", "사과"]).expectSuccess()
        try syncs("a")
        let phone = try anki("phone", ["login", "sync", "download", "dump"], server: one, user: user)
        XCTAssertEqual(Set(notes(phone[3]).keys), ["apple"])
        let again = try anki("tablet", ["login", "sync", "download", "dump"], server: one, user: user)
        XCTAssertEqual(again[3]["notes"] as? NSArray, phone[3]["notes"] as? NSArray, "nothing changed: the same notes")

        try anki("desktop", ["login", "sync", "download", "add:Travel:eagle:독수리", "answer:apple:3", "sync"], server: two, user: user)
        let later = try anki("watch", ["login", "sync", "download", "dump"], server: one, user: user)
        XCTAssertEqual(Set(notes(later[3]).keys), ["apple", "eagle"], "the other server's change, not the file kept before it")
        XCTAssertEqual((later[3]["revlog"] as? [Any])?.count, 1, "the other server's app's review")
    }

    /// Changes past the account's byte cap are refused, and nothing of them is kept on either
    /// side; within the cap again, the app syncs on.
    func testChangesPastTheAccountsCapAreRefusedAndNothingIsKept() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), server = try sharedServer()
        try on("a", ["book", "add", "Travel"]).expectSuccess()
        try on("a", ["word", "add", "apple", "--book", "Travel", "--definition", "사과"]).expectSuccess()
        try syncs("a")
        try anki("phone", ["login", "sync", "download"], server: server, user: user)
        let used = try adminSQL("""
            SELECT a.total_bytes + coalesce(c.bytes, 0) FROM vocab.accounts a LEFT JOIN vocab.anki_collections c ON c.owner = a.owner
            WHERE a.owner = '\(user)'
            """)
        try adminSQL("UPDATE vocab.accounts SET max_bytes = \(Int(used) ?? 0) + 20000 WHERE owner = '\(user)'")
        // Thirty notes of a kilobyte each: more than the 20 KB left.
        let words = (1...30).map { "word\($0)" }
        let long = String(repeating: "긴 뜻 ", count: 120)
        let refused = try anki("phone", words.map { "add:Travel:\($0):\(long)" } + ["sync"], server: server, refusals: true)
        XCTAssertNotNil(refused.last?["error"], "\(refused.map { $0["step"] })")
        try syncs("a")
        XCTAssertEqual(Set(try definitions("a").keys), ["apple"], "nothing of the refused sync reached Vocab")
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.anki_objects WHERE owner = '\(user)' AND kind = 'note'"), "1",
                       "nor the cloud's collection")

        try adminSQL("UPDATE vocab.accounts SET max_bytes = NULL WHERE owner = '\(user)'")
        let again = try anki("phone", ["sync", "status"], server: server)
        XCTAssertEqual(again[1]["required"] as? Int, 0, "\(again)")
        try syncs("a")
        XCTAssertEqual(Set(try definitions("a").keys), Set(["apple"] + words), "within the cap the notes arrive")
    }
}
