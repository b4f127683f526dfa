import Foundation
import TestServices
import XCTest

/// The base of the end-to-end tests that sync: the suite's real PostgreSQL (required: under
/// CI=true a missing one fails the test), users made by `vocab cloud add-user`, and devices that
/// are data folders of their own with their own login.
class CloudEndToEndTestCase: EndToEndTestCase {
    var adminURL = "", adminPassword = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        adminURL = try requiredService("VOCAB_TEST_PG_ADMIN", "PostgreSQL")
        adminPassword = try requiredService("VOCAB_TEST_PG_PASSWORD", "PostgreSQL administrator's password")
    }

    /// The environment of one device (its own VOCAB_HOME and config) of a user.
    func device(_ name: String) -> [String: String] {
        ["VOCAB_HOME": vocab.file(name + "/data"), "XDG_CONFIG_HOME": vocab.file(name + "/config"), "PGPASSWORD": ""]
    }

    /// Runs vocab as one device of the user.
    func on(_ device: String, _ arguments: [String], input: String = "") throws -> RunResult {
        try vocab.run(arguments, input: input, environment: self.device(device))
    }

    /// The administrator's environment for `vocab cloud …`.
    var admin: [String: String] { ["PGPASSWORD": adminPassword, "XDG_CONFIG_HOME": vocab.file("admin")] }

    /// Makes a user (password "pw") and logs `devices` in; returns the user's URL. Where devices
    /// connect: PostgreSQL itself, or (`through` a pooler) the suite's PgBouncer in transaction
    /// pooling mode in front of it.
    func setUpUser(devices: [String] = ["a", "b"], through pooler: String? = nil) throws -> String {
        XCTAssertEqual(try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin).status, 0)
        let name = "dev_" + UUID().uuidString.prefix(8).lowercased()
        XCTAssertEqual(try vocab.run(["cloud", "add-user", name, "--admin", adminURL], input: "pw\n", environment: admin).status, 0)
        var url = adminURL.replacingOccurrences(of: "postgres@", with: "\(name)@")
        if let pooler, let hostAndPort = url.range(of: "@[^/]+", options: .regularExpression) {
            url.replaceSubrange(hostAndPort, with: "@" + pooler)
        }
        for device in devices {
            let login = try on(device, ["login", url], input: "pw\n")
            XCTAssertEqual(login.status, 0, login.stderr)
        }
        return url
    }

    /// The user name in a user's URL.
    func userName(_ url: String) -> String {
        String(url.split(separator: "@")[0].split(separator: "/").last ?? "")
    }

    func syncs(_ device: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try on(device, ["sync"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    }

    /// The suite's PgBouncer (required like PostgreSQL).
    func pgBouncer() throws -> String {
        try requiredService("VOCAB_TEST_PGBOUNCER", "PgBouncer")
    }
}
