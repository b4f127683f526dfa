import Foundation
import TestServices
import XCTest

/// Anki's apps and a server of one learner (`vocab serve`): the app pairs with the code the
/// server shows, typed as the password, and downloads the learner's store.
final class AnkiSyncServeTests: ServeTestCase {
    func testAnAnkiAppPairsWithTheCodeAndDownloadsTheStore() throws {
        let python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
        try vocab.ok(["book", "add", "Travel"])
        try vocab.ok(["word", "add", "apple", "--book", "Travel", "--definition", "사과"])
        try vocab.ok(["word", "add", "borrow", "--book", "Travel", "--definition", "빌리다"])
        try startServer()
        let server = "http://127.0.0.1:\(port)", folder = vocab.file("anki")
        let wrong = try ankiClient(python: python, folder: folder, server: server, user: "me", password: "00000000", steps: ["login"])
        XCTAssertTrue(((wrong.first?["error"] as? String) ?? "").contains("password"), "a wrong code is a wrong password to Anki: \(wrong)")

        let steps = try ankiClient(python: python, folder: folder, server: server, user: "me", password: try pairingCode(),
                                   steps: ["login", "sync", "download", "sync", "dump"])
        XCTAssertEqual(steps.map { $0["step"] as? String }, ["login", "sync", "download", "sync", "dump"], "\(steps)")
        guard steps.count == 5 else { return }
        XCTAssertEqual(steps[1]["required"] as? Int, 3, "an empty collection downloads")
        XCTAssertEqual(steps[3]["required"] as? Int, 0, "then nothing is new")
        let notes = try XCTUnwrap(steps[4]["notes"] as? [[String: Any]])
        XCTAssertEqual(Set(notes.compactMap { ($0["fields"] as? [String: Any])?["Word"] as? String }), ["apple", "borrow"])
        XCTAssertEqual(steps[4]["decks"] as? [String], ["Travel"])
    }
}
