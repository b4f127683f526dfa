import Foundation
import TestServices
import XCTest

/// Anki's media sync with a server of one learner (`vocab serve`), driven by Anki's own client:
/// the pictures and recordings one app adds reach his other apps byte for byte, deletions too,
/// and a file past the server's bound is refused whole, in words the app shows.
final class AnkiMediaSyncServeTests: ServeTestCase {
    private var python = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
        try vocab.ok(["book", "add", "Travel"])
        try vocab.ok(["word", "add", "apple", "--book", "Travel", "--definition", "사과"])
        try startServer()
    }

    /// Runs Anki's client `app` through `steps`; returns each step's line.
    private func anki(_ app: String, _ steps: [String], refusals: Bool = true) throws -> [[String: Any]] {
        try ankiApp(app, steps, python: python, refusals: refusals)
    }

    /// Runs `steps` and fails on a refusal.
    @discardableResult
    private func ankiOK(_ app: String, _ steps: [String]) throws -> [[String: Any]] {
        try anki(app, steps, refusals: false)
    }

    /// The media folder of `app`: each file's name and SHA-1.
    private func files(_ app: String) throws -> [String: String] {
        try XCTUnwrap(try ankiOK(app, ["files"]).first?["files"] as? [String: String])
    }

    func testMediaFilesReachTheOtherAppsByteForByteAndDeletionsToo() throws {
        try ankiOK("phone", ["login", "sync", "download"])
        try ankiOK("tablet", ["login", "sync", "download", "media"])
        XCTAssertEqual(try files("tablet"), [:], "nothing is kept before an app sends it")

        try ankiOK("phone", ["file:사과.txt:사과 apple", "blob:apple.jpg:300000", "blob:apple.mp3:60000", "media"])
        let sent = try files("phone")
        XCTAssertEqual(sent.count, 3)
        try ankiOK("tablet", ["media"])
        XCTAssertEqual(try files("tablet"), sent, "the other app has every file, byte for byte")

        // A deletion and a new file in the tablet reach the phone; a sync with nothing new changes nothing.
        try ankiOK("tablet", ["unfile:apple.mp3", "blob:dog.png:1000", "media", "media"])
        try ankiOK("phone", ["media"])
        let after = try files("phone")
        XCTAssertEqual(Set(after.keys), ["사과.txt", "apple.jpg", "dog.png"], "the deleted file went, the new one came")
        XCTAssertEqual(after, try files("tablet"))

        // A third app, new to the account, gets all of it in its first media sync.
        try ankiOK("laptop", ["login", "sync", "download", "media"])
        XCTAssertEqual(try files("laptop"), after)
    }

    func testAFilePastTheBoundIsRefusedWholeAndTheRestStaysAsItWas() throws {
        try ankiOK("phone", ["login", "sync", "download", "blob:small.jpg:2000", "media"])
        try ankiOK("tablet", ["login", "sync", "download", "media"])

        let refused = try anki("phone", ["blob:huge.mp4:\((20 << 20) + 1)", "file:note.txt:with it", "media"])
        let error = try XCTUnwrap(refused.last?["error"] as? String, "\(refused)")
        XCTAssertTrue(error.contains("larger than this server takes (20 MiB)"), error)
        try ankiOK("tablet", ["media"])
        XCTAssertEqual(Set(try files("tablet").keys), ["small.jpg"], "nothing of the refused upload was kept")

        // Once the learner removes it, the rest goes through.
        try ankiOK("phone", ["unfile:huge.mp4", "media"])
        try ankiOK("tablet", ["media"])
        XCTAssertEqual(Set(try files("tablet").keys), ["small.jpg", "note.txt"])
    }
}
