import Foundation
import XCTest

/// Devices that speak HTTPS to the Vocab server (`vocab serve --cloud`), never SQL: signed in
/// with `vocab login https://USER@HOST`, syncing through one server or two in front of the
/// same cloud, signed out on one and refused by the other.
final class ServerDoorEndToEndTests: CloudEndToEndTestCase {
    private var servers: [Process] = []

    override func tearDown() {
        for server in servers where server.isRunning {
            server.interrupt()
            server.waitUntilExit()
        }
        super.tearDown()
    }

    /// A self-signed certificate for 127.0.0.1 made by openssl: (certificate, key).
    private func makeCertificate() throws -> (String, String) {
        let certificate = vocab.file("cert.pem"), key = vocab.file("key.pem")
        if FileManager.default.fileExists(atPath: certificate) { return (certificate, key) }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                             "-days", "1", "-keyout", key, "-out", certificate]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        XCTAssertEqual(openssl.terminationStatus, 0, "openssl made the certificate")
        chmod(key, 0o600)
        return (certificate, key)
    }

    /// Starts a Vocab server for the suite's cloud (over HTTPS with the test certificate, or
    /// plain HTTP on loopback); returns its address.
    private func startServer(_ name: String, tls: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: VocabRunner.binary)
        let cloud = adminURL.replacingOccurrences(of: "postgres@", with: "")
        var arguments = ["serve", "--cloud", cloud, "--listen", "127.0.0.1:0", "--cache", vocab.file(name + "/cache")]
        if tls {
            let (certificate, key) = try makeCertificate()
            arguments += ["--tls-cert", certificate, "--tls-key", key]
        }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["VOCAB_HOME": vocab.file(name + "/home"),
                                                                           "XDG_CONFIG_HOME": vocab.file(name + "/config"), "PGPASSWORD": ""]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        servers.append(process)
        var seen = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if let range = seen.range(of: #"https?://127\.0\.0\.1:\d+"#, options: .regularExpression) { return String(seen[range]) }
        }
        XCTFail("the server did not start: \(seen)")
        throw CocoaError(.fileReadUnknown)
    }

    /// Makes a user (password "pw") and signs `device` in to `server`.
    private func signIn(_ device: String, to server: String, as user: String) throws {
        let url = server.replacingOccurrences(of: "://", with: "://\(user)@")
        let login = try vocab.run(["login", url, "--device-name", device, "--ca-file", try makeCertificate().0],
                                  environment: self.device(device).merging(["VOCAB_PASSWORD": "pw"]) { $1 })
        XCTAssertEqual(login.status, 0, login.stderr)
    }

    private func newUser() throws -> String {
        XCTAssertEqual(try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin).status, 0)
        let name = "door_" + UUID().uuidString.prefix(8).lowercased()
        XCTAssertEqual(try vocab.run(["cloud", "add-user", name, "--admin", adminURL], input: "pw\n", environment: admin).status, 0)
        return name
    }

    private func words(_ device: String) throws -> [String] {
        let listed = try JSONSerialization.jsonObject(with: Data(try on(device, ["word", "list", "--json"]).stdout.utf8)) as? [[String: Any]]
        return (listed ?? []).compactMap { $0["word"] as? String }.sorted()
    }

    func testTwoDevicesConvergeOverHTTPSAndTheLoginHoldsNoPassword() throws {
        let user = try newUser()
        let server = try startServer("one")
        XCTAssertTrue(server.hasPrefix("https://"))
        try signIn("desk", to: server, as: user)
        try signIn("laptop", to: server, as: user)
        let saved = try String(contentsOfFile: vocab.file("desk/config/vocab/cloud.json"), encoding: .utf8)
        XCTAssertFalse(saved.contains("\"pw\""), "the learner's password is not kept")
        XCTAssertTrue(saved.contains(server), saved)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: vocab.file("desk/config/vocab/cloud.json"))[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertTrue(try on("desk", ["account"]).stdout.contains("available: \(server)/\(user)"))

        try on("desk", ["book", "add", "Fruit"]).expectSuccess()
        for word in ["apple", "pear", "plum"] { try on("desk", ["word", "add", word, "--book", "Fruit"]).expectSuccess() }
        try syncs("desk")
        try syncs("laptop")
        XCTAssertEqual(try words("laptop"), ["apple", "pear", "plum"])
        try on("laptop", ["word", "delete", "pear"]).expectSuccess()
        try on("laptop", ["word", "edit", "plum", "--definition", "자두"]).expectSuccess()
        try syncs("laptop")
        try syncs("desk")
        XCTAssertEqual(try words("desk"), ["apple", "plum"])
        XCTAssertTrue(try on("desk", ["word", "show", "plum"]).stdout.contains("자두"))
        // Syncing again moves nothing: the counts agree.
        let again = try on("desk", ["sync"])
        XCTAssertTrue(again.stdout.contains("pulled 0, pushed 0"), again.stdout)
    }

    func testThroughTwoServersDevicesConvergeAndASignOutOnOneIsRefusedByTheOther() throws {
        let user = try newUser()
        let first = try startServer("first"), second = try startServer("second")
        try signIn("desk", to: first, as: user)
        try signIn("phone", to: second, as: user)
        try on("desk", ["book", "add", "Trip"]).expectSuccess()
        try on("desk", ["word", "add", "ticket", "--book", "Trip"]).expectSuccess()
        try syncs("desk")
        try syncs("phone")
        XCTAssertEqual(try words("phone"), ["ticket"])
        try on("phone", ["word", "add", "passport", "--book", "Trip"]).expectSuccess()
        try syncs("phone")
        try syncs("desk")
        XCTAssertEqual(try words("desk"), ["passport", "ticket"])

        // Signed out through the first server: the second refuses the device at once.
        let listed = try JSONSerialization.jsonObject(with: Data(try on("desk", ["devices", "--json"]).stdout.utf8)) as? [[String: Any]]
        let phone = try XCTUnwrap(listed?.first { $0["label"] as? String == "phone" }?["id"] as? String)
        try on("desk", ["devices", "--sign-out", phone]).expectSuccess()
        let started = Date()
        let refused = try on("phone", ["sync"])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("signed out"), refused.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "refused at its next request, not after a time-out")
        XCTAssertEqual(try words("phone"), ["passport", "ticket"], "its words stay on the device")
    }

    func testRefusalsAreClearAndChangeNothing() throws {
        let user = try newUser()
        let server = try startServer("refusals")
        let url = server.replacingOccurrences(of: "://", with: "://\(user)@")
        let certificate = try makeCertificate().0
        func login(_ arguments: [String], password: String = "pw") throws -> RunResult {
            try vocab.run(["login"] + arguments, environment: device("x").merging(["VOCAB_PASSWORD": password]) { $1 })
        }
        let wrong = try login([url, "--ca-file", certificate], password: "nope")
        XCTAssertEqual(wrong.status, 3)
        XCTAssertTrue(wrong.stderr.contains("password is wrong"), wrong.stderr)
        let untrusted = try login([url])
        XCTAssertEqual(untrusted.status, 3, "a certificate nobody said to trust")
        XCTAssertTrue(untrusted.stderr.contains("Cannot reach"), untrusted.stderr)
        let plain = try login(["http://\(user)@192.0.2.1:8443"])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.contains("unencrypted"), plain.stderr)
        let noUser = try login([server, "--ca-file", certificate])
        XCTAssertEqual(noUser.status, 1, noUser.stderr)
        let nobody = try login(["https://\(user)@127.0.0.1:1", "--ca-file", certificate])
        XCTAssertEqual(nobody.status, 3)
        XCTAssertTrue(try on("x", ["account"]).stdout.contains("not logged in"), "nothing was saved")
    }
}
