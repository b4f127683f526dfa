import Foundation
import XCTest

/// `vocab sync` between two data folders of one user, through the real PostgreSQL.
final class SyncEndToEndTests: CloudEndToEndTestCase {
    /// Issue 17, failure 1: logging out of alice and in as bob must not push alice's words into
    /// bob's account, unless asked for by name.
    func testADataFolderNeverSyncsIntoAnotherAccountUnlessAskedByName() throws {
        let alice = try setUpUser(devices: ["a"])
        let bob = try setUpUser(devices: ["bob"])
        let bobName = userName(bob)
        XCTAssertEqual(try on("a", ["book", "add", "Private"]).status, 0)
        XCTAssertEqual(try on("a", ["word", "add", "secret", "--book", "Private"]).status, 0)
        XCTAssertEqual(try on("a", ["sync"]).status, 0)
        XCTAssertEqual(try on("a", ["logout"]).status, 0)
        XCTAssertEqual(try on("a", ["login", bob], input: "pw\n").status, 0)
        let refused = try on("a", ["sync"])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains(userName(alice) + "@") && refused.stderr.contains(bobName + "@"),
                      "names both accounts: \(refused.stderr)")
        XCTAssertTrue(refused.stderr.contains("VOCAB_HOME") && refused.stderr.contains("--copy-into-account \(bobName)"), refused.stderr)
        XCTAssertEqual(try on("a", ["word", "list", "--json"]).stdout.contains("secret"), true, "logging out keeps local words")
        // bob's own device sees nothing of alice's.
        XCTAssertEqual(try on("bob", ["sync"]).status, 0)
        XCTAssertFalse(try on("bob", ["word", "list", "--json"]).expectSuccess().contains("secret"))
        // A wrong name is refused; the right one copies.
        XCTAssertEqual(try on("a", ["sync", "--copy-into-account", "somebody_else"]).status, 1)
        let copied = try on("a", ["sync", "--copy-into-account", bobName])
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(try on("bob", ["sync"]).status, 0)
        XCTAssertTrue(try on("bob", ["word", "list", "--json"]).stdout.contains("secret"))
        XCTAssertEqual(try on("a", ["sync"]).status, 0, "the folder now syncs with bob's account")
    }

    func testTwoDevicesStayInSyncAndNotLoggedInIsRefused() throws {
        let refused = try on("x", ["sync"])
        XCTAssertEqual(refused.status, 3)
        XCTAssertTrue(refused.stderr.contains("Not logged in"), refused.stderr)
        try twoDevicesStayInSync(through: nil)
    }

    /// Through PgBouncer in transaction pooling mode: nothing may outlive a transaction.
    func testTwoDevicesStayInSyncThroughPgBouncer() throws {
        try twoDevicesStayInSync(through: try pgBouncer())
    }

    func testASyncKilledMidwayCompletesThroughPgBouncer() throws {
        try syncKilledMidwayCompletes(through: try pgBouncer())
    }

    func testAnAdministratorsCapIsRefusedClearlyAndNothingLocalIsLost() throws {
        let url = try setUpUser(devices: ["a"])
        let name = userName(url)
        let capped = try vocab.run(["cloud", "limit", name, "2", "--admin", adminURL], environment: admin)
        XCTAssertEqual(capped.status, 0, capped.stderr)
        XCTAssertEqual(try vocab.run(["cloud", "limit", name, "lots", "--admin", adminURL], environment: admin).status, 2)
        XCTAssertEqual(try on("a", ["book", "add", "Fruit"]).status, 0)
        for word in ["apple", "pear"] { XCTAssertEqual(try on("a", ["word", "add", word, "--book", "Fruit"]).status, 0) }
        let refused = try on("a", ["sync"])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("may hold 2 records") && refused.stderr.contains("Nothing local was lost"), refused.stderr)
        XCTAssertEqual(try vocab.run(["cloud", "limit", name, "none", "--admin", adminURL], environment: admin).status, 0)
        try syncs("a")
        XCTAssertTrue(try on("a", ["word", "list", "--json"]).stdout.contains("pear"))
    }

    /// A restored store rejoins as a device that pulls everything first: deletions made
    /// elsewhere since the backup stay deleted, newer edits win, nothing is resurrected.
    func testARestoredStoreNeitherResurrectsDeletionsNorLosesNewerEdits() throws {
        _ = try setUpUser()
        XCTAssertEqual(try on("a", ["book", "add", "Fruit"]).status, 0)
        for word in ["apple", "pear", "plum"] { XCTAssertEqual(try on("a", ["word", "add", word, "--book", "Fruit", "-d", "old"]).status, 0) }
        try syncs("a")
        XCTAssertEqual(try on("a", ["backup"]).status, 0)
        try syncs("b")
        XCTAssertEqual(try on("b", ["word", "delete", "pear"]).status, 0)
        XCTAssertEqual(try on("b", ["word", "edit", "apple", "--definition", "newer, from b"]).status, 0)
        XCTAssertEqual(try on("b", ["word", "add", "fig", "--book", "Fruit"]).status, 0)
        try syncs("b")
        try syncs("a")
        XCTAssertEqual(try on("a", ["word", "delete", "plum"]).status, 0)  // after the backup, on a itself
        try syncs("a")
        let restored = try on("a", ["backup", "restore", "latest", "--yes"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(try on("a", ["word", "list", "--json"]).stdout.contains("pear"), "the backup had pear")
        try syncs("a")
        try syncs("b")
        for device in ["a", "b"] {
            let words = try on(device, ["word", "list", "--json"]).stdout
            XCTAssertFalse(words.contains("\"pear\""), "\(device): a deletion made elsewhere stays deleted")
            XCTAssertFalse(words.contains("\"plum\""), "\(device): a deletion made here after the backup stays deleted")
            XCTAssertTrue(words.contains("newer, from b"), "\(device): the newer edit wins")
            XCTAssertTrue(words.contains("\"fig\""), "\(device): words added elsewhere since are there")
        }
    }

    private func twoDevicesStayInSync(through pooler: String?) throws {
        _ = try setUpUser(through: pooler)
        XCTAssertEqual(try on("a", ["book", "add", "Fruit"]).status, 0)
        XCTAssertEqual(try on("a", ["word", "add", "apple", "--book", "Fruit", "-d", "사과"]).status, 0)
        XCTAssertEqual(try on("a", ["word", "add", "pear", "--book", "Fruit"]).status, 0)
        let pushed = try on("a", ["sync"])
        XCTAssertEqual(pushed.status, 0, pushed.stderr)
        XCTAssertTrue(pushed.stdout.contains("Sync done"), pushed.stdout)
        try syncs("b")
        XCTAssertEqual(try on("b", ["word", "show", "apple"]).status, 0)
        XCTAssertEqual(try on("b", ["word", "delete", "pear"]).status, 0)
        try syncs("b")
        try syncs("a")
        let words = try on("a", ["word", "list", "--json"]).stdout
        XCTAssertTrue(words.contains("apple") && !words.contains("pear"), words)
    }

    func testASyncKilledMidwayCompletesOnTheNextRunWithNothingLostOrDuplicated() throws {
        try syncKilledMidwayCompletes(through: nil)
    }

    private func syncKilledMidwayCompletes(through pooler: String?) throws {
        let user = try setUpUser(through: pooler)
        var csv = "word,definition\n"
        for index in 0..<20_000 { csv += "word\(index),meaning \(index)\n" }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: vocab.file("big.csv")))
        XCTAssertEqual(try on("a", ["import", vocab.file("big.csv"), "--book", "Big"]).status, 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: VocabRunner.binary)
        process.arguments = ["sync"]
        var environment = ProcessInfo.processInfo.environment
        environment["VOCAB_HOME"] = vocab.file("a/data")
        environment["XDG_CONFIG_HOME"] = vocab.file("a/config")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once the cloud holds some of its records (a batch or more of its 20,001).
        let name = userName(user)
        XCTAssertTrue(try waitUntil(60) {
            (Int(try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(name)'")) ?? 0) > 1
        }, "the sync began to push")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let again = try on("a", ["sync"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try on("b", ["sync"]).status, 0)
        let count = try on("b", ["book", "show", "Big", "--json"])
        XCTAssertTrue(count.stdout.contains("\"wordCount\": 20000"), count.stdout)
    }
}
