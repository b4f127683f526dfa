import Foundation
import TestServices
import XCTest

/// The cloud on two PostgreSQL nodes under pg_auto_failover (scripts/services.sh starts a
/// monitor, a primary and a synchronous standby): Vocab servers reach them with libpq's
/// multi-host address, and when the primary's host is lost (its keeper and PostgreSQL killed
/// with SIGKILL) devices keep syncing through the standby once it is promoted, losing nothing
/// they were told was stored.
final class FailoverEndToEndTests: CloudEndToEndTestCase {
    private var control = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        adminURL = try requiredService("VOCAB_TEST_FAILOVER_ADMIN", "cloud of two nodes under pg_auto_failover")
        control = try requiredService("VOCAB_TEST_FAILOVER_CTL", "pg_auto_failover's control script")
        XCTAssertTrue(adminURL.contains(",") && adminURL.contains("target_session_attrs=read-write"), adminURL)
        XCTAssertTrue(waitUntilHealthy(), "the two nodes are a primary and its standby")
    }

    /// The node a test killed, started again after it (it rejoins as the standby).
    private var lostNode: String?

    override func tearDown() {
        if let lostNode {
            _ = try? runScript(control, ["revive", lostNode])
            _ = waitUntilHealthy()
        }
        super.tearDown()
    }

    /// Waits (a minute at most) until pg_autoctl's state shows a primary and its standby, each
    /// as the monitor assigned; returns whether it did.
    private func waitUntilHealthy() -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let state = (try? runScript(control, ["state"])) ?? ""
            if [#"\| +primary +\| +primary"#, #"\| +secondary +\| +secondary"#].allSatisfy({ state.range(of: $0, options: .regularExpression) != nil }) {
                return true
            }
            usleep(250_000)
        }
        return false
    }

    /// Starts `program` without waiting for it (its standard error into the file `errors`).
    private func start(_ program: String, _ arguments: [String], environment: [String: String] = [:], errors: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["NO_COLOR": "1"]) { $1 }) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let errors {
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        }
        try process.run()
        return process
    }

    /// Syncs `device` until a sync succeeds (a sync caught in the failover may fail: the next
    /// one must not), at most `seconds`; returns how many syncs failed first.
    private func syncsAgain(_ device: String, within seconds: Double = 90) throws -> Int {
        var failed = 0
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let result = try on(device, ["sync"])
            // A sync's own repair (a full pull, pushing back what the cloud lacks) would put a
            // lost word back: one that needed it counts as a loss.
            XCTAssertFalse(result.stdout.contains("everything was pulled again"), "a sync repaired a loss: \(result.stdout)")
            if result.status == 0 { return failed }
            failed += 1
            XCTAssertTrue(result.stderr.contains("try again") || result.stderr.contains("Cannot reach") || result.stderr.contains("busy"),
                          "a failed sync says to try again: \(result.stderr)")
            usleep(500_000)
        }
        XCTFail("\(device) did not sync within \(seconds) s of the failover")
        return failed
    }

    func testTwoDevicesSyncThroughAFailoverAndNothingAcknowledgedIsLost() throws {
        let user = try newUser("fo")  // the cloud's schema and its server role first
        let password = try vocab.run(["cloud", "server-password", "--admin", adminURL], input: serverPassword + "\n", environment: admin)
        XCTAssertEqual(password.status, 0, password.stderr)
        let before = try startServer("before", tls: false)
        try signIn("a", to: before, as: user)
        try signIn("b", to: before, as: user)
        XCTAssertEqual(try on("a", ["book", "add", "Failover"]).status, 0)
        for index in 0..<10 { XCTAssertEqual(try on("a", ["word", "add", "before\(index)", "--book", "Failover"]).status, 0) }
        try syncs("a")  // acknowledged: these ten were stored
        let oldPrimary = try runScript(control, ["primary"])

        // The primary's host is lost; meanwhile both devices go on.
        let lost = try runScript(control, ["kill-primary"])
        XCTAssertTrue(["node1", "node2"].contains(lost), lost)
        lostNode = lost
        // Before any device syncs again (a sync could put a lost word back): every word the
        // device was told was stored is on the promoted standby.
        XCTAssertTrue(waitUntil(90) { ((try? runScript(control, ["primary"])) ?? oldPrimary) != oldPrimary }, "the standby was promoted")
        var acknowledged = ""
        XCTAssertTrue(waitUntil(30) {
            acknowledged = (try? adminSQL("""
                SELECT string_agg(body->>'word', ',' ORDER BY body->>'word') FROM vocab.records
                WHERE owner = '\(user)' AND kind = 'word' AND NOT deleted
                """)) ?? ""
            return !acknowledged.isEmpty
        }, "the new primary answers")
        XCTAssertEqual(acknowledged, (0..<10).map { "before\($0)" }.sorted().joined(separator: ","), "nothing acknowledged was lost")
        for index in 0..<10 { XCTAssertEqual(try on("a", ["word", "add", "during\(index)", "--book", "Failover"]).status, 0) }
        XCTAssertEqual(try on("b", ["book", "add", "Standby"]).status, 0)
        XCTAssertEqual(try on("b", ["word", "add", "fromb", "--book", "Standby"]).status, 0)
        _ = try syncsAgain("a")
        _ = try syncsAgain("b")
        _ = try syncsAgain("a")
        let newPrimary = try runScript(control, ["primary"])
        XCTAssertNotEqual(newPrimary, oldPrimary, "the standby was promoted")

        // Both devices converge on every word; a server started after the failover with the
        // same address finds the new primary, and a new device there sees everything.
        let expected = ((0..<10).map { "before\($0)" } + (0..<10).map { "during\($0)" } + ["fromb"]).sorted()
        XCTAssertEqual(try words("a"), expected)
        XCTAssertEqual(try words("b"), expected)
        let after = try startServer("after", tls: false)
        try signIn("c", to: after, as: user)
        XCTAssertEqual(try syncsAgain("c"), 0)
        XCTAssertEqual(try words("c"), expected, "nothing a device was told was stored is lost")
        // The word count the cloud keeps agrees, read on the node that is primary now.
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(user)' AND kind = 'word' AND NOT deleted"), "21")
    }

    /// A push waiting in the primary (for the learner's account row, held by another
    /// transaction) when the primary's host is lost is never answered as stored: the device is
    /// told to try again, or its retry lands on the promoted standby; either way what it was
    /// told was stored is in the cloud, once.
    func testAPushCaughtByTheKillIsNeverAnsweredAsStored() throws {
        let user = try newUser("caught")
        let password = try vocab.run(["cloud", "server-password", "--admin", adminURL], input: serverPassword + "\n", environment: admin)
        XCTAssertEqual(password.status, 0, password.stderr)
        let server = try startServer("caught", tls: false)
        try signIn("a", to: server, as: user)
        XCTAssertEqual(try on("a", ["book", "add", "Caught"]).status, 0)
        try syncs("a")
        XCTAssertEqual(try on("a", ["word", "add", "caught", "--book", "Caught"]).status, 0)

        // Another transaction holds the learner's account row (for a minute), so the push waits in the primary.
        let holder = try start("/usr/bin/psql", ["-X", "-q", "-d", adminURL, "-c",
                                                 "BEGIN; SELECT 1 FROM vocab.accounts WHERE owner = '\(user)' FOR UPDATE; SELECT pg_sleep(60); COMMIT"])
        defer { if holder.isRunning { holder.terminate() } }
        XCTAssertTrue(waitUntil { ((try? self.adminSQL("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()")) ?? "") == "1" })
        let errors = vocab.file("caught-sync.err")
        let syncing = try start(VocabRunner.binary, ["sync"], environment: device("a"), errors: errors)
        XCTAssertTrue(waitUntil {
            ((try? self.adminSQL("SELECT count(*) FROM pg_stat_activity WHERE usename = 'vocab_server' AND wait_event_type = 'Lock'")) ?? "") == "1"
        }, "the push waits for the account in the primary")
        lostNode = try runScript(control, ["kill-primary"])

        syncing.waitUntilExit()  // its retries are bounded (about half a minute)
        if syncing.terminationStatus != 0 {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            XCTAssertTrue(said.contains("try again") || said.contains("Cannot reach"), said)
            _ = try syncsAgain("a")
        }
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(user)' AND kind = 'word' AND body->>'word' = 'caught' AND NOT deleted"), "1",
                       "the word the device was told was stored is on the new primary")
        XCTAssertEqual(try words("a"), ["caught"])
    }
}
