import Foundation
import XCTest

/// `vocab cloud server-password`: the Vocab servers' role gets a new password (read from
/// standard input, never printed); a server given the old one is refused at its start with
/// what the operator must do, a server given the new one serves. The suite's verifier is put
/// back at the end (the suite's PgBouncer holds it in its auth_file).
final class ServerPasswordEndToEndTests: CloudEndToEndTestCase {
    private func setServerPassword(_ password: String) throws -> RunResult {
        try vocab.run(["cloud", "server-password", "--admin", adminURL], input: password + "\n", environment: admin)
    }

    private func logsIn(_ password: String) throws -> Bool {
        try PsqlSession.once(url: cloudURL(), password: password, "SELECT 'in'").contains("in\n")
    }

    func testANewServerPasswordLetsServersInAndTheOldOneNoLonger() throws {
        let user = try newUser()  // the cloud's schema installed first
        let suitePassword = serverPassword
        let newPassword = "new-" + UUID().uuidString
        // The suite's verifier itself is put back (the same salt): PgBouncer's auth_file holds
        // it, and a verifier made again from the same password would not match it.
        let verifier = try PsqlSession.once(url: adminURL, password: adminPassword,
                                            "SELECT rolpassword FROM pg_authid WHERE rolname = 'vocab_server'").trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(verifier.hasPrefix("SCRAM-SHA-256$"), verifier)
        defer {
            _ = try? PsqlSession.once(url: adminURL, password: adminPassword, "ALTER ROLE vocab_server PASSWORD '\(verifier)'")
            XCTAssertEqual(try? logsIn(suitePassword), true, "the suite's password is back")
            serverPassword = suitePassword
        }
        let set = try setServerPassword(newPassword)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertFalse((set.stdout + set.stderr).contains(newPassword), "the password is not printed")
        XCTAssertTrue(try logsIn(newPassword))
        XCTAssertFalse(try logsIn(suitePassword), "the old password no longer logs in")
        XCTAssertEqual(try setServerPassword("").status, 1, "an empty password is refused")
        XCTAssertTrue(try logsIn(newPassword), "and changed nothing")

        // A server given the old password stops at its start and says what to do (bounded by
        // timeout(1): one that started would run until stopped).
        let old = try vocab.run(["30", VocabRunner.binary, "serve", "--cloud", cloudURL(), "--listen", "127.0.0.1:0", "--cache", vocab.file("old/cache")],
                                environment: ["PGPASSWORD": suitePassword, "VOCAB_HOME": vocab.file("old/home")], binary: "/usr/bin/timeout")
        XCTAssertNotEqual(old.status, 0)
        XCTAssertNotEqual(old.status, 124, "refused at its start, not stopped by the time-out")
        XCTAssertTrue(old.stderr.contains("server-password"), old.stderr)
        XCTAssertFalse(old.stderr.contains(suitePassword))

        // A server given the new one serves: a learner signs in through it and syncs.
        serverPassword = newPassword
        let server = try startServer("new", tls: false)
        try signIn("d", to: server, as: user)
        try on("d", ["book", "add", "Kept"]).expectSuccess()
        try syncs("d")
    }
}
