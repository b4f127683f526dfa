import Foundation
import XCTest

/// Devices of a cloud account through real `vocab` processes, a real Vocab server and the real
/// PostgreSQL: the password is checked once and never kept; each device has a secret of its
/// own; any device, the learner everywhere, or the administrator signs devices out.
final class DevicesEndToEndTests: CloudEndToEndTestCase {
    private func loginFile(_ device: String) -> String { vocab.file(device + "/config") + "/vocab/cloud.json" }

    func testTheTerminalsLoginKeepsNoPasswordOnDisk() throws {
        let url = try setUpUser(devices: ["a"])
        let saved = try String(contentsOfFile: loginFile("a"), encoding: .utf8)
        XCTAssertFalse(saved.contains("\"pw\""), "the learner's password is not kept: \(saved.count) bytes")
        XCTAssertTrue(saved.contains("\"account\":\"\(userName(url))\""), "the device knows its learner")
        XCTAssertTrue(saved.contains("\"user\":\"vd_"), "and proves itself with an id of its own")
        let mode = (try FileManager.default.attributesOfItem(atPath: loginFile("a"))[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(try on("a", ["book", "add", "TOEIC"]).status, 0)
        try syncs("a")
        let status = try on("a", ["account"])
        XCTAssertTrue(status.stdout.contains("available: http://127.0.0.1:") && status.stdout.contains("/\(userName(url))\n"),
                      "the learner's account, not the device: \(status.stdout)")
    }

    func testADeviceSignedOutFromAnotherIsRefusedAndLosesNothing() throws {
        let url = try setUpUser(devices: ["a", "b"])
        XCTAssertEqual(try on("b", ["book", "add", "Travel"]).status, 0)
        try syncs("b")
        let list = try on("a", ["devices", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let devices = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(devices.count, 2)
        XCTAssertEqual(devices.filter { $0["this"] as? Bool == true }.count, 1)
        let other = try XCTUnwrap(devices.first { $0["this"] as? Bool == false }?["id"] as? String)

        let signOut = try on("a", ["devices", "--sign-out", other])
        XCTAssertEqual(signOut.status, 0, signOut.stderr)
        let refused = try on("b", ["sync"])
        XCTAssertEqual(refused.status, 3)
        XCTAssertTrue(refused.stderr.contains("signed out"), refused.stderr)
        XCTAssertTrue(try on("b", ["book", "list"]).stdout.contains("Travel"), "its words stay on the device")
        XCTAssertEqual(try on("a", ["devices", "--sign-out", other]).status, 1, "an id no longer signed in is refused")
        try syncs("a")
        XCTAssertTrue(try on("a", ["book", "list"]).stdout.contains("Travel"))

        // Signed in again with the password, the same folder syncs on (bound to the learner, not the device).
        XCTAssertEqual(try on("b", ["login", url], input: "pw\n").status, 0)
        try syncs("b")
    }

    func testLogoutEverywhereAndTheAdministratorSignEveryDeviceOut() throws {
        let url = try setUpUser(devices: ["a", "b"])
        let everywhere = try on("a", ["logout", "--everywhere"])
        XCTAssertEqual(everywhere.status, 0, everywhere.stderr)
        XCTAssertTrue(everywhere.stdout.contains("2 devices"), everywhere.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: loginFile("a")))
        XCTAssertEqual(try on("b", ["sync"]).status, 3, "b needs the password again")

        for device in ["a", "b"] { XCTAssertEqual(try on(device, ["login", url], input: "pw\n").status, 0) }
        let revoked = try vocab.run(["cloud", "revoke", userName(url), "--admin", adminURL], environment: admin)
        XCTAssertEqual(revoked.status, 0, revoked.stderr)
        XCTAssertTrue(revoked.stdout.contains("2 devices"), revoked.stdout)
        for device in ["a", "b"] {
            let refused = try on(device, ["sync"])
            XCTAssertEqual(refused.status, 3)
            XCTAssertTrue(refused.stderr.contains("signed out"), refused.stderr)
        }
        let unknown = try vocab.run(["cloud", "revoke", "nobody_here", "--admin", adminURL], environment: admin)
        XCTAssertNotEqual(unknown.status, 0)
    }

    /// A device of an older Vocab logged in to PostgreSQL itself: told what to run, and once
    /// it signs in through a Vocab server its store (bound to the old address) syncs on.
    func testADeviceThatSyncedThroughSQLIsToldToSignInThroughTheServerAndKeepsItsStore() throws {
        let url = try setUpUser(devices: ["b"])
        let name = userName(url)
        let database = try XCTUnwrap(URLComponents(string: adminURL))
        let old = """
            {"database":"\(database.path.dropFirst())","host":"\(database.host ?? "")","password":"pw","port":\(database.port ?? 5432),"user":"\(name)"}
            """
        try FileManager.default.createDirectory(atPath: vocab.file("a/config/vocab"), withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: loginFile("a"), contents: Data(old.utf8), attributes: [.posixPermissions: 0o600]))
        try on("a", ["book", "add", "Offline"]).expectSuccess()
        try on("a", ["word", "add", "kept", "--book", "Offline"]).expectSuccess()
        // Its store was bound to the account's PostgreSQL address by its last sync.
        let oldAccount = "postgresql://\(name)@\(database.host ?? ""):\(database.port ?? 5432)/\(database.path.dropFirst())"
        let bound = Process()
        bound.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        bound.arguments = [vocab.file("a/data/vocab.sqlite"),
                           "INSERT OR REPLACE INTO sync_meta (key, value) VALUES ('server', '\(oldAccount)'), ('token', '0')"]
        try bound.run()
        bound.waitUntilExit()
        XCTAssertEqual(bound.terminationStatus, 0)

        let refused = try on("a", ["sync"])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("vocab login https://\(name)@"), "names what to run: \(refused.stderr)")
        let account = try on("a", ["account"])
        XCTAssertEqual(account.status, 3)
        XCTAssertTrue(account.stdout.contains("no longer allows"), account.stdout)
        let sqlLogin = try vocab.run(["login", oldAccount], environment: device("a").merging(["VOCAB_PASSWORD": "pw", "PGPASSWORD": "pw"]) { $1 })
        XCTAssertEqual(sqlLogin.status, 3, "a PostgreSQL address is no login any more")
        XCTAssertTrue(sqlLogin.stderr.contains("vocab login https://"), sqlLogin.stderr)

        XCTAssertEqual(try on("a", ["login", url], input: "pw\n").status, 0)
        let saved = try String(contentsOfFile: loginFile("a"), encoding: .utf8)
        XCTAssertFalse(saved.contains("\"pw\""), "the password left the disk")
        let synced = try on("a", ["sync"])
        XCTAssertEqual(synced.status, 0, "the same account, reached another way: \(synced.stderr)")
        try syncs("b")
        XCTAssertEqual(try words("b"), ["kept"])
    }
}
