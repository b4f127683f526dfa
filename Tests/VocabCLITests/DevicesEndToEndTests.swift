import Foundation
import XCTest

/// Devices of a cloud account (cloud schema 5) through real `vocab` processes and the real
/// PostgreSQL: the password is checked once and never kept; each device has a secret of its
/// own; any device, the learner everywhere, or the administrator signs devices out.
final class DevicesEndToEndTests: CloudEndToEndTestCase {
    private func loginFile(_ device: String) -> String { vocab.file(device + "/config") + "/vocab/cloud.json" }

    func testTheTerminalsLoginKeepsNoPasswordOnDisk() throws {
        let url = try setUpUser(devices: ["a"])
        let saved = try String(contentsOfFile: loginFile("a"), encoding: .utf8)
        XCTAssertFalse(saved.contains("\"pw\""), "the learner's password is not kept: \(saved.count) bytes")
        XCTAssertTrue(saved.contains("\"account\":\"\(userName(url))\""), "the device knows its learner")
        XCTAssertTrue(saved.contains("\"user\":\"vd_"), "and connects as a role of its own")
        let mode = (try FileManager.default.attributesOfItem(atPath: loginFile("a"))[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(try on("a", ["book", "add", "TOEIC"]).status, 0)
        try syncs("a")
        let status = try on("a", ["account"])
        XCTAssertTrue(status.stdout.contains("available: postgresql://\(userName(url))@"), "the learner's account, not the device's role: \(status.stdout)")
    }

    func testADeviceSignedOutFromAnotherIsRefusedAndLosesNothing() throws {
        _ = try setUpUser(devices: ["a", "b"])
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
        XCTAssertEqual(try on("b", ["login", try setUpURL(from: "a")], input: "pw\n").status, 0)
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

    func testALoginOfAnOlderVocabLosesItsPasswordAtTheNextSync() throws {
        let url = try setUpUser(devices: [])
        let parts = try XCTUnwrap(URLComponents(string: url))
        let old = """
            {"database":"\(parts.path.dropFirst())","host":"\(parts.host ?? "")","password":"pw","port":\(parts.port ?? 5432),"user":"\(userName(url))"}
            """
        try FileManager.default.createDirectory(atPath: vocab.file("a/config/vocab"), withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: loginFile("a"), contents: Data(old.utf8), attributes: [.posixPermissions: 0o600]))
        try syncs("a")
        let saved = try String(contentsOfFile: loginFile("a"), encoding: .utf8)
        XCTAssertFalse(saved.contains("\"pw\""), "the password left the disk")
        XCTAssertTrue(saved.contains("\"user\":\"vd_"))
        try syncs("a")
    }

    /// The URL the device `name` logged in with (its learner's).
    private func setUpURL(from name: String) throws -> String {
        let saved = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: loginFile(name)))) as? [String: Any])
        return "postgresql://\(saved["account"] ?? "")@\(saved["host"] ?? ""):\(saved["port"] ?? "")/\(saved["database"] ?? "")"
    }
}
