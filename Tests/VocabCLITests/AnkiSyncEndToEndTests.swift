import Foundation
import TestServices
import XCTest

/// Anki's own apps sync with a Vocab account: the real client (PyPI `anki`, the Rust core
/// AnkiDroid and Anki desktop run, driven by Tests/Anki/sync_client.py) against real
/// `vocab serve --cloud` processes and the suite's PostgreSQL.
final class AnkiSyncEndToEndTests: CloudEndToEndTestCase {
    private var python = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
    }

    private func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    /// Runs Anki's client through `steps` on the collection `app` (a folder of its own), signed
    /// in as `user` (or with the key it kept); returns each step's JSON line.
    @discardableResult
    private func anki(_ app: String, _ steps: [String], server: String, user: String = "", password: String = "pw") throws -> [[String: Any]] {
        try ankiClient(python: python, folder: vocab.file("anki-" + app), server: server, user: user, password: password, steps: steps)
    }

    /// A field as Vocab wrote it for Anki, read back as text.
    private func text(_ html: Any?) -> String {
        ((html as? String) ?? "").replacingOccurrences(of: "<br>", with: "\n").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    private func json(_ device: String, _ arguments: [String]) throws -> Any {
        let result = try on(device, arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// An empty Anki collection signs in with the learner's Vocab password, is told to
    /// download, and gets every book as a deck and every word as a note whose card carries the
    /// word's schedule and whose log is the word's reviews; the next sync finds nothing new. The
    /// app is a device of the account: listed with Anki's name, and once signed out, refused.
    func testAnAnkiAppDownloadsTheAccountAndIsOneOfItsDevices() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), server = try sharedServer()
        try on("a", ["book", "add", "Travel"]).expectSuccess()
        try on("a", ["word", "add", "apple", "--book", "Travel", "--definition", "사과 & 능금"]).expectSuccess()
        try on("a", ["import", fixture("anki-modern.apkg")]).expectSuccess()
        try syncs("a")

        let first = try anki("phone", ["login", "sync", "download", "dump"], server: server, user: user)
        XCTAssertEqual(first.count, 4, "\(first)")
        XCTAssertEqual(first.first?["signed_in"] as? Bool, true, "\(first)")
        XCTAssertEqual(first.dropFirst().first?["required"] as? Int, 3, "an empty collection downloads: \(first)")
        let dump = try XCTUnwrap(first.last)
        XCTAssertEqual(dump["check"] as? String, "ok", "the collection Anki opened passes its integrity check")

        let words = try XCTUnwrap(try json("a", ["word", "list", "--json"]) as? [[String: Any]])
        let books = try XCTUnwrap(try json("a", ["book", "list", "--json"]) as? [[String: Any]])
        XCTAssertEqual(Set((dump["decks"] as? [String]) ?? []), Set(books.compactMap { $0["name"] as? String }))
        let notes = try XCTUnwrap(dump["notes"] as? [[String: Any]])
        XCTAssertEqual(notes.count, words.count)
        let notesByGUID = Dictionary(uniqueKeysWithValues: notes.compactMap { note in (note["guid"] as? String).map { ($0, note) } })
        let cards = try XCTUnwrap(dump["cards"] as? [[String: Any]])
        let cardsByGUID = Dictionary(uniqueKeysWithValues: cards.compactMap { card in (card["guid"] as? String).map { ($0, card) } })
        let revlog = try XCTUnwrap(dump["revlog"] as? [[String: Any]])
        var reviews = 0
        for word in words {
            let id = try XCTUnwrap(word["id"] as? String)
            let note = try XCTUnwrap(notesByGUID[id], "the note of \(word["word"] ?? "")")
            let fields = try XCTUnwrap(note["fields"] as? [String: Any])
            XCTAssertEqual(text(fields["Word"]), word["word"] as? String)
            XCTAssertEqual(text(fields["Definition"]), word["definition"] as? String)
            XCTAssertEqual(note["type"] as? String, "Vocab word")
            let card = try XCTUnwrap(cardsByGUID[id])
            XCTAssertEqual(card["deck"] as? String, word["book"] as? String)
            let shown = try XCTUnwrap(try json("a", ["word", "show", id, "--json"]) as? [String: Any])
            let schedule = shown["schedule"] as? [String: Any]
            XCTAssertEqual(card["reps"] as? Int, (schedule?["reviews"] as? Int) ?? 0, "reviews of \(word["word"] ?? "")")
            XCTAssertEqual(card["type"] as? Int, schedule == nil ? 0 : (schedule?["state"] as? String == "review" ? 2 : card["type"] as? Int))
            reviews += (schedule?["reviews"] as? Int) ?? 0
        }
        let stats = try XCTUnwrap(try json("a", ["stats", "--json"]) as? [String: Any])
        XCTAssertEqual(revlog.count, stats["reviews"] as? Int, "every review is in the log")
        XCTAssertEqual(revlog.count, reviews)

        let again = try anki("phone", ["sync"], server: server)
        XCTAssertEqual(again.first?["required"] as? Int, 0, "nothing changed since the download: \(again)")

        let devices = try XCTUnwrap(try json("a", ["devices", "--json"]) as? [[String: Any]])
        let app = try XCTUnwrap(devices.first { ($0["label"] as? String)?.hasPrefix("Anki ") == true }, "\(devices)")
        try on("a", ["devices", "--sign-out", try XCTUnwrap(app["id"] as? String)]).expectSuccess()
        let refused = try anki("phone", ["sync"], server: server)
        XCTAssertNotNil(refused.first?["error"], "a signed-out app is refused: \(refused)")
        XCTAssertEqual(refused.first?["kind"] as? String, "SyncError", "\(refused)")
        try syncs("a")  // the learner's own device goes on
    }

    /// A wrong password is refused as Anki's apps understand it (sign in again); past the
    /// sign-in limits the stranger waits, even with the right password, while another learner
    /// signs in from the same address and downloads.
    func testAWrongPasswordIsRefusedAndTheLimitHoldsOnlyTheStranger() throws {
        let target = try newUser("target")
        let other = try newUser("other")
        let server = try sharedServer()
        for _ in 0..<5 {
            let wrong = try anki("stranger", ["login"], server: server, user: target, password: "guess")
            XCTAssertEqual(wrong.first?["kind"] as? String, "SyncError", "\(wrong)")
            XCTAssertTrue(((wrong.first?["error"] as? String) ?? "").contains("password"), "Anki says the password is wrong: \(wrong)")
        }
        let held = try anki("stranger", ["login"], server: server, user: target, password: "pw")
        XCTAssertNotNil(held.first?["error"], "past the limit even the right password waits: \(held)")
        XCTAssertTrue(((held.first?["error"] as? String) ?? "").contains("429"), "\(held)")

        let innocent = try anki("other", ["login", "sync"], server: server, user: other)
        XCTAssertEqual(innocent.first?["signed_in"] as? Bool, true, "another learner at the same address signs in: \(innocent)")
        XCTAssertNil(innocent.last?["error"], "\(innocent)")
    }

    /// A zstd bomb, a truncated body, another protocol version and an upload past its bound are
    /// refused and change nothing (no device is added, no word is replaced), while a signed-in
    /// app syncs.
    func testBombsTruncatedBodiesOtherVersionsAndUploadsChangeNothing() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), server = try sharedServer()
        try on("a", ["book", "add", "Travel"]).expectSuccess()
        try on("a", ["word", "add", "apple", "--book", "Travel", "--definition", "사과"]).expectSuccess()
        try syncs("a")
        XCTAssertNil(try anki("phone", ["login", "sync", "download"], server: server, user: user).last?["error"])
        let devicesBefore = try XCTUnwrap(try json("a", ["devices", "--json"]) as? [[String: Any]]).count

        func zstd(_ input: String, _ output: String) throws {
            let run = Process()
            run.executableURL = URL(fileURLWithPath: "/bin/sh")
            run.arguments = ["-c", "\(input) | zstd -q -c > '\(output)'"]
            try run.run()
            run.waitUntilExit()
            XCTAssertEqual(run.terminationStatus, 0, "zstd: apt-get install zstd")
        }
        let bomb = vocab.file("bomb.zst"), signIn = vocab.file("signin.zst"), cut = vocab.file("cut.zst")
        try zstd("head -c 67108864 /dev/zero", bomb)
        try zstd("printf '{\"u\":\"\(user)\",\"p\":\"pw\"}'", signIn)
        let whole = try Data(contentsOf: URL(fileURLWithPath: signIn))
        try whole.prefix(whole.count - 4).write(to: URL(fileURLWithPath: cut))
        XCTAssertLessThan(try Data(contentsOf: URL(fileURLWithPath: bomb)).count, 1 << 20, "the bomb is small on the wire")

        func post(_ body: String, header: String?, to call: String = "hostKey") throws -> String {
            var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "--data-binary", "@" + body]
            if let header { arguments += ["-H", "anki-sync: " + header] }
            return try curl(arguments + [server + "/anki/sync/" + call])
        }
        let v11 = #"{"v":11,"k":"","c":"26.09,test,linux","s":"abc"}"#
        XCTAssertEqual(try post(bomb, header: v11), "413", "a body that unpacks past the bound")
        XCTAssertEqual(try post(cut, header: v11), "400", "a body cut short")
        XCTAssertEqual(try post(signIn, header: #"{"v":10,"k":"","c":"2.1.50","s":"abc"}"#), "501", "another version")
        XCTAssertEqual(try post(signIn, header: nil), "501", "no protocol header")
        // A whole collection may unpack to 128 MiB: only for a signed-in app, and no further.
        let big = vocab.file("big.zst")
        try zstd("head -c 209715200 /dev/zero", big)
        XCTAssertEqual(try post(big, header: v11, to: "upload"), "403", "a stranger's upload is not unpacked")
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vocab.file("anki-phone") + "/auth.json")))
        let key = try XCTUnwrap((kept as? [String: Any])?["key"] as? String)
        XCTAssertEqual(try post(big, header: #"{"v":11,"k":"\#(key)","c":"26.09,test,linux","s":"abc"}"#, to: "upload"), "413",
                       "a signed-in app's upload that unpacks past the bound")

        XCTAssertEqual(try XCTUnwrap(try json("a", ["devices", "--json"]) as? [[String: Any]]).count, devicesBefore, "no device was added")
        let words = try XCTUnwrap(try json("a", ["word", "list", "--json"]) as? [[String: Any]])
        XCTAssertEqual(words.map { $0["word"] as? String }, ["apple"], "nothing was replaced")
        let still = try anki("phone", ["sync", "dump"], server: server)
        XCTAssertEqual(still.first?["required"] as? Int, 0, "the app signed in before syncs on: \(still)")
        XCTAssertEqual(((still.last?["notes"] as? [[String: Any]]) ?? []).count, 1, "\(still)")
    }

    /// A whole collection uploaded by an app that lacks words of the account deletes them, and
    /// keeps them first in a backup of the account in the cloud, with their reviews: the app's
    /// next sync (through another server) says so, the learner lists the backup and brings the
    /// words back with their reviews (once, however often he asks), and his apps get them again.
    /// Another learner sees no backup of his and cannot bring this one back.
    func testAnUploadThatDeletesWordsKeepsThemInACloudBackupToBringBack() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), server = try sharedServer()
        try on("a", ["book", "add", "Travel"]).expectSuccess()
        try on("a", ["word", "add", "apple", "--book", "Travel", "--definition", "사과"]).expectSuccess()
        try on("a", ["word", "add", "pear", "--book", "Travel", "--definition", "배"]).expectSuccess()
        try syncs("a")
        XCTAssertNil(try anki("phone", ["login", "sync", "download", "answer:apple:3", "sync"], server: server, user: user).last?["error"])
        try syncs("a")
        XCTAssertEqual(try XCTUnwrap(try json("a", ["stats", "--json"]) as? [String: Any])["reviews"] as? Int, 1, "the app's review")

        let upload = try anki("phone", ["remove:apple", "upload"], server: server)
        XCTAssertNil(upload.last?["error"], "the upload is taken: \(upload)")
        // Before anything is brought back: the word is gone, and the backup holds it.
        try syncs("a")
        XCTAssertEqual(try words("a"), ["pear"], "the word the upload lacked is deleted")
        let backups = try XCTUnwrap(try json("a", ["backup", "cloud", "--json"]) as? [[String: Any]])
        XCTAssertEqual(backups.count, 1, "\(backups)")
        XCTAssertEqual(backups.first?["words"] as? Int, 1)
        XCTAssertEqual(backups.first?["reason"] as? String, "before-anki-upload")
        let id = try XCTUnwrap(backups.first?["id"] as? String)
        let told = try anki("phone", ["sync"], server: try startServer("second", tls: false))
        XCTAssertTrue(((told.first?["message"] as? String) ?? "").contains("1 word it did not hold was deleted"), "\(told)")

        let other = try newUser("other")
        try signIn("o", to: server, as: other)
        XCTAssertEqual(try XCTUnwrap(try json("o", ["backup", "cloud", "--json"]) as? [[String: Any]]).count, 0, "none of his")
        let stranger = try on("o", ["backup", "cloud-restore", id])
        XCTAssertNotEqual(stranger.status, 0, "another learner cannot bring it back")
        XCTAssertTrue(stranger.stderr.contains("no backup of that id"), stranger.stderr)

        let restored = try on("a", ["backup", "cloud-restore", id])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.contains("Brought back 1 word and 1 review"), restored.stdout)
        try on("a", ["backup", "cloud-restore", id]).expectSuccess()
        try syncs("a")
        XCTAssertEqual(try words("a"), ["apple", "pear"], "the word is back, once")
        XCTAssertEqual(try XCTUnwrap(try json("a", ["stats", "--json"]) as? [String: Any])["reviews"] as? Int, 1, "with its review, once")
        let back = try anki("phone", ["sync", "dump"], server: server)
        let notes = ((back.last?["notes"] as? [[String: Any]]) ?? []).compactMap { ($0["fields"] as? [String: Any])?["Word"] as? String }
        XCTAssertEqual(notes.sorted(), ["apple", "pear"], "the app gets it again: \(back)")
        XCTAssertEqual(try words("o"), [], "the other learner's account is untouched")
    }
}
