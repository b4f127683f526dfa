import Foundation
import XCTest

/// A cloud made by the Vocab before the Vocab server was the door (schema 5: every learner and
/// every device a PostgreSQL role), upgraded in place by `vocab cloud init`: alice keeps her
/// data, her password and her signed-in device; no learner or device role is left, and her
/// password opens no PostgreSQL session. In a database of its own (roles are the cluster's).
final class CloudUpgradeEndToEndTests: CloudEndToEndTestCase {
    private var database = ""

    override func tearDown() {
        super.tearDown()  // the servers first: they hold connections to the database
        if !database.isEmpty {
            _ = try? PsqlSession.once(url: adminURL, password: adminPassword, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        }
    }

    /// `url` with the test's database instead of its own.
    private func inDatabase(_ url: String) -> String {
        url.replacingOccurrences(of: #"/[A-Za-z0-9_]+$"#, with: "/" + database, options: .regularExpression)
    }

    private func psql(_ sql: String, as user: String = "postgres", password: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let url = inDatabase(adminURL).replacingOccurrences(of: "postgres@", with: "\(user)@")
        return try PsqlSession.once(url: url, password: password ?? adminPassword, "\\set ON_ERROR_STOP 1\n" + sql)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testASchema5CloudKeepsEveryLearnersDataPasswordAndDeviceAndLosesItsRoles() throws {
        // Real records to carry over: a book and a word as this Vocab pushes them (through the
        // suite's own cloud), read back by the administrator.
        let source = try setUpUser(devices: ["src"])
        try on("src", ["book", "add", "Kept"]).expectSuccess()
        try on("src", ["word", "add", "survivor", "--book", "Kept", "--definition", "살아남은 것"]).expectSuccess()
        try syncs("src")
        let batch = try PsqlSession.once(url: adminURL, password: adminPassword, """
            SELECT json_agg(json_build_object('k', kind, 'i', id, 'd', deleted, 'b', body) ORDER BY seq) FROM vocab.records WHERE owner = '\(userName(source))'
            """).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(batch.contains("survivor"), batch)

        // The schema-5 cloud: its schema, alice as a role with her password, her data pushed by
        // her role, and a device of hers (a role whose password is the device's secret).
        database = "upgrade_" + UUID().uuidString.prefix(8).lowercased()
        _ = try PsqlSession.once(url: adminURL, password: adminPassword, "CREATE DATABASE \(database)")
        let schema5 = try String(contentsOfFile: VocabRunner.repository + "/Tests/VocabCLITests/Fixtures/cloud-schema-5.sql", encoding: .utf8)
        _ = try psql(schema5)
        let alice = "alice_" + UUID().uuidString.prefix(8).lowercased()
        let device = "vd_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let secret = (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
        XCTAssertEqual(secret.count, 64)
        _ = try psql("""
            CREATE ROLE \(alice) LOGIN PASSWORD 'old-password' IN ROLE vocab_user;
            SELECT vocab.open_account('\(alice)');
            CREATE ROLE \(device) LOGIN PASSWORD '\(secret)' CONNECTION LIMIT 2 IN ROLE vocab_user;
            INSERT INTO vocab.devices (role, owner, label) VALUES ('\(device)', '\(alice)', 'old phone');
            """)
        let pushed = try psql("SELECT vocab.push(0, $json$\(batch)$json$, true)", as: alice, password: "old-password")
        XCTAssertEqual(pushed, "2", "her role pushed a book and a word")
        XCTAssertEqual(try psql("SELECT value FROM vocab.meta WHERE key = 'schema_version'"), "5")

        // Sessions open across the upgrade: the administrator's and another application's are
        // innocent and stay; alice's (a role that goes) is ended.
        let other = "other_app_" + UUID().uuidString.prefix(8).lowercased()
        _ = try psql("CREATE ROLE \(other) LOGIN PASSWORD 'other-pw'")
        defer { _ = try? PsqlSession.once(url: adminURL, password: adminPassword, "DROP ROLE IF EXISTS \(other)") }
        let sessions = [try PsqlSession(url: inDatabase(adminURL), password: adminPassword),
                        try PsqlSession(url: inDatabase(adminURL).replacingOccurrences(of: "postgres@", with: "\(other)@"), password: "other-pw"),
                        try PsqlSession(url: inDatabase(adminURL).replacingOccurrences(of: "postgres@", with: "\(alice)@"), password: "old-password")]
        defer { sessions.forEach { $0.end() } }
        XCTAssertTrue(waitUntil(10) { sessions.allSatisfy { $0.backendPid != nil } }, sessions.map(\.output).joined(separator: " | "))

        // The upgrade.
        let upgraded = try vocab.run(["cloud", "init", "--admin", inDatabase(adminURL)], environment: admin)
        XCTAssertEqual(upgraded.status, 0, upgraded.stderr)
        for (index, session) in sessions.enumerated() { session.send("SELECT 'session-' || \(index) || '-answers';") }
        XCTAssertTrue(waitUntil(10) { sessions[0].output.contains("session-0-answers") && sessions[1].output.contains("session-1-answers") },
                      "the administrator's and the other application's sessions go on: \(sessions[0].output) | \(sessions[1].output)")
        XCTAssertTrue(waitUntil(10) { sessions[2].ended }, "alice's role session was ended: \(sessions[2].output)")
        XCTAssertFalse(sessions[2].output.contains("session-2-answers"))
        XCTAssertEqual(try psql("SELECT value FROM vocab.meta WHERE key = 'schema_version'"), "12")
        XCTAssertEqual(try psql("SELECT count(*) FROM pg_roles WHERE rolname IN ('\(alice)', '\(device)', 'vocab_user') OR rolname LIKE 'vd\\_%'"), "0",
                       "no learner or device role is left")
        XCTAssertTrue(try psql("SELECT verifier FROM vocab.accounts WHERE owner = '\(alice)'").hasPrefix("SCRAM-SHA-256$"), "her password's verifier was kept")
        for (user, password) in [(alice, "old-password"), (device, secret)] {
            let refused = try psql("SELECT 1", as: user, password: password)
            XCTAssertTrue(refused.contains("authentication failed"), "\(user) opens no PostgreSQL session: \(refused)")
        }
        XCTAssertEqual(try vocab.run(["cloud", "init", "--admin", inDatabase(adminURL)], environment: admin).status, 0, "again: nothing to do")

        // Through a Vocab server of the upgraded cloud: her old password signs a new device in
        // and her words come; the password is then kept as Argon2id.
        let upgradedServer = try startServer("upgraded", tls: false, cloud: inDatabase(cloudURL()))
        let wrong = try vocab.run(["login", upgradedServer.replacingOccurrences(of: "://", with: "://\(alice)@")],
                                  environment: self.device("new").merging(["VOCAB_PASSWORD": "not-it"]) { $1 })
        XCTAssertEqual(wrong.status, 3, wrong.stderr)
        let login = try vocab.run(["login", upgradedServer.replacingOccurrences(of: "://", with: "://\(alice)@")],
                                  environment: self.device("new").merging(["VOCAB_PASSWORD": "old-password"]) { $1 })
        XCTAssertEqual(login.status, 0, login.stderr)
        try syncs("new")
        XCTAssertEqual(try words("new"), ["survivor"])
        XCTAssertTrue(try psql("SELECT verifier FROM vocab.accounts WHERE owner = '\(alice)'").hasPrefix("$argon2id$"), "re-hashed at her sign-in")

        // Her old device's secret still proves it (checked once against its old role's verifier).
        for _ in 0..<2 {
            let answer = try curl(["-H", "Authorization: Bearer \(device).\(secret)", upgradedServer + "/api/v1/account"])
            XCTAssertTrue(answer.contains("\"account\":\"\(alice)\""), answer)
        }
        XCTAssertTrue(try psql("SELECT legacy_verifier IS NULL AND secret_sha256 IS NOT NULL FROM vocab.devices WHERE id = '\(device)'") == "t")
        let guessed = try curl(["-H", "Authorization: Bearer \(device).\(String(repeating: "0", count: 64))", "-o", "/dev/null", "-w", "%{http_code}",
                                upgradedServer + "/api/v1/account"])
        XCTAssertEqual(guessed, "401")
    }
}
