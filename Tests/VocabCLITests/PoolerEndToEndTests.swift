import Foundation
import TestServices
import XCTest

/// Signing in through a PgBouncer: the one the README configures (roles looked up with
/// auth_query by a lookup user) lets a new device in; one with only an auth_file cannot know a
/// new device's role, and the login says exactly that instead of "signed out".
final class PoolerEndToEndTests: CloudEndToEndTestCase {
    func testAPoolerThatCannotKnowTheNewDeviceIsNamedAndAConfiguredOneLetsItIn() throws {
        let user = try setUpUser(devices: [])
        let name = userName(user)
        // Through the README's PgBouncer: login and sync.
        let configured = user.replacingOccurrences(of: #"@[^/]+"#, with: "@" + (try pgBouncer()), options: .regularExpression)
        XCTAssertEqual(try on("good", ["login", configured], input: "pw\n").status, 0)
        try on("good", ["book", "add", "Pooled"]).expectSuccess()
        try syncs("good")

        // Through a PgBouncer that knows the learner (its auth_file) but looks nothing up.
        let plain = try requiredService("VOCAB_TEST_PGBOUNCER_PLAIN", "a PgBouncer with only an auth_file")
        let users = try requiredService("VOCAB_TEST_PGBOUNCER_PLAIN_USERS", "its users file")
        let pidFile = try requiredService("VOCAB_TEST_PGBOUNCER_PLAIN_PID", "its pid file")
        let verifier = try PsqlSession.once(url: adminURL, password: adminPassword,
                                            "SELECT rolpassword FROM pg_authid WHERE rolname = '\(name)'")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(verifier.hasPrefix("SCRAM-SHA-256$"), verifier)
        try Data("\"\(name)\" \"\(verifier)\"\n".utf8).write(to: URL(fileURLWithPath: users))
        let pid = try XCTUnwrap(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(kill(pid, SIGHUP), 0, "PgBouncer reloads its users file")
        usleep(500_000)
        func deviceIds() throws -> [String] {
            let listed = try JSONSerialization.jsonObject(with: Data(try on("good", ["devices", "--json"]).stdout.utf8)) as? [[String: Any]]
            return (listed ?? []).compactMap { $0["id"] as? String }.sorted()
        }
        let devicesBefore = try deviceIds()
        XCTAssertEqual(devicesBefore.count, 1)
        let url = user.replacingOccurrences(of: #"@[^/]+"#, with: "@" + plain, options: .regularExpression)
        let login = try on("plain", ["login", url], input: "pw\n")
        XCTAssertEqual(login.status, 3, login.stderr)
        XCTAssertTrue(login.stderr.contains("connection pooler") && login.stderr.contains("auth_query"), login.stderr)
        XCTAssertFalse(login.stderr.contains("signed out"), login.stderr)
        XCTAssertEqual(try on("plain", ["account"]).stdout.contains("not logged in"), true, "nothing was saved")
        // The device made for the refused login was taken back: the account lists what it did.
        XCTAssertEqual(try deviceIds(), devicesBefore)
    }
}
