import Foundation
import XCTest

/// `vocab cloud init|add-user`, `login`, `account`, `logout` against a real Vocab server and
/// the real PostgreSQL.
final class CloudAccountEndToEndTests: CloudEndToEndTestCase {
    func testAUserIsCreatedLogsInAndSeesTheAccountStatus() throws {
        let environment = ProcessInfo.processInfo.environment
        let adminURL = try XCTUnwrap(environment["VOCAB_TEST_PG_ADMIN"])
        let adminPassword = try XCTUnwrap(environment["VOCAB_TEST_PG_PASSWORD"])
        let config = vocab.file("config")
        let asAdmin = ["PGPASSWORD": adminPassword, "XDG_CONFIG_HOME": config]
        let plain = ["PGPASSWORD": "", "XDG_CONFIG_HOME": config]

        for _ in 0..<2 {
            let installed = try vocab.run(["cloud", "init", "--admin", adminURL], environment: asAdmin)
            XCTAssertEqual(installed.status, 0, installed.stderr)
        }
        let name = "carol_" + UUID().uuidString.prefix(8).lowercased()
        let secret = "s3cret-\(UUID().uuidString)"
        let added = try vocab.run(["cloud", "add-user", name, "--admin", adminURL], input: secret + "\n", environment: asAdmin)
        XCTAssertEqual(added.status, 0, added.stderr)

        let url = try sharedServer().replacingOccurrences(of: "://", with: "://\(name)@")
        let notYet = try vocab.run(["account"], environment: plain)
        XCTAssertEqual(notYet.status, 3)
        XCTAssertTrue(notYet.stdout.contains("not logged in"), notYet.stdout)

        let refused = try vocab.run(["login", url], input: "wrong\n", environment: plain)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("password is wrong"), refused.stderr)

        let login = try vocab.run(["login", url], input: secret + "\n", environment: plain)
        XCTAssertEqual(login.status, 0, login.stderr)
        let saved = config + "/vocab/cloud.json"
        let mode = (try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600, "the password file is private")
        let status = try vocab.run(["account"], environment: plain)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.hasPrefix("available"), status.stdout)
        for output in [added.stdout, added.stderr, login.stdout, login.stderr, status.stdout, status.stderr] {
            XCTAssertFalse(output.contains(secret), "the password never appears in output")
        }

        let logout = try vocab.run(["logout"], environment: plain)
        XCTAssertEqual(logout.status, 0, logout.stderr)
        let after = try vocab.run(["account", "--json"], environment: plain)
        XCTAssertEqual(after.status, 3)
        XCTAssertTrue(after.stdout.contains("not logged in"), after.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: saved))
    }
}
