import Foundation
import TestServices
import XCTest

/// Anki's media sync with a Vocab account on a cloud: the files are kept in the cloud, so apps
/// syncing through two servers meet, under the account's byte cap, and no learner sees
/// another's; driven by Anki's own client against real `vocab serve --cloud` processes.
final class AnkiMediaSyncCloudTests: CloudEndToEndTestCase {
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

    private func files(_ app: String, server: String) throws -> [String: String] {
        try XCTUnwrap(try anki(app, ["files"], server: server).first?["files"] as? [String: String])
    }

    func testFilesReachAnAppOnAnotherServerAndStayTheirOwners() throws {
        let alice = userName(try setUpUser(devices: ["a"])), bob = userName(try setUpUser(devices: ["b"]))
        let one = try sharedServer(), two = try startServer("second", tls: false)
        try anki("phone", ["login", "sync", "download", "file:발음.txt:[sound apple.mp3]", "blob:apple.mp3:200000",
                           "blob:apple.jpg:12000000", "media"], server: one, user: alice)
        try anki("desktop", ["login", "sync", "download", "media"], server: two, user: alice)
        let sent = try files("phone", server: one)
        XCTAssertEqual(sent.count, 3)
        XCTAssertEqual(try files("desktop", server: two), sent, "byte for byte through another server")

        try anki("desktop", ["unfile:apple.jpg", "media"], server: two)
        try anki("phone", ["media"], server: one)
        XCTAssertEqual(Set(try files("phone", server: one).keys), ["발음.txt", "apple.mp3"])
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.anki_media_files WHERE owner = '\(alice)'"), "2",
                       "a content no name holds is dropped")

        // Bob's app, of the same server, sees none of them.
        try anki("bobs-phone", ["login", "sync", "download", "media"], server: one, user: bob)
        XCTAssertEqual(try files("bobs-phone", server: one), [:])
    }

    /// Files past the account's byte cap are refused in words the app shows, and nothing of them
    /// is kept; within the cap again, they go through.
    func testFilesPastTheAccountsCapAreRefusedAndNothingIsKept() throws {
        let url = try setUpUser(devices: ["a"])
        let user = userName(url), server = try sharedServer()
        try anki("phone", ["login", "sync", "download", "blob:first.jpg:1000", "media"], server: server, user: user)
        try anki("tablet", ["login", "sync", "download", "media"], server: server, user: user)
        let used = try adminSQL("""
            SELECT a.total_bytes + c.bytes + c.media_bytes FROM vocab.accounts a JOIN vocab.anki_collections c ON c.owner = a.owner
            WHERE a.owner = '\(user)'
            """)
        try adminSQL("UPDATE vocab.accounts SET max_bytes = \(Int(used) ?? 0) + 100000 WHERE owner = '\(user)'")

        let refused = try anki("phone", ["blob:big.jpg:150000", "media"], server: server, refusals: true)
        let error = try XCTUnwrap(refused.last?["error"] as? String, "\(refused)")
        XCTAssertTrue(error.contains("the account may hold"), "the app shows why: \(error)")
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.anki_media WHERE owner = '\(user)'"), "1", "nothing of it was kept")
        try anki("tablet", ["media"], server: server)
        XCTAssertEqual(Set(try files("tablet", server: server).keys), ["first.jpg"])

        try adminSQL("UPDATE vocab.accounts SET max_bytes = NULL WHERE owner = '\(user)'")
        try anki("phone", ["media"], server: server)
        try anki("tablet", ["media"], server: server)
        XCTAssertEqual(Set(try files("tablet", server: server).keys), ["first.jpg", "big.jpg"], "within the cap it goes through")
    }
}
