import Foundation
import Synchronization
import TestServices
import XCTest

/// The base of the end-to-end tests that sync: the suite's real PostgreSQL (required: under
/// CI=true a missing one fails the test), learners made by `vocab cloud add-user`, real
/// `vocab serve --cloud` processes as the cloud's door (the server role's password from
/// VOCAB_TEST_SERVER_PASSWORD), and devices that are data folders of their own with their own
/// login to a server.
class CloudEndToEndTestCase: EndToEndTestCase {
    var adminURL = "", adminPassword = "", serverPassword = ""
    /// The Vocab servers (and proxies) a test started, stopped after it.
    var servers: [Process] = []
    /// The server `setUpUser` signs devices in to, by the cloud address it serves.
    private var sharedServers: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        adminURL = try requiredService("VOCAB_TEST_PG_ADMIN", "PostgreSQL")
        adminPassword = try requiredService("VOCAB_TEST_PG_PASSWORD", "PostgreSQL administrator's password")
        serverPassword = try requiredService("VOCAB_TEST_SERVER_PASSWORD", "the Vocab server role's password")
    }

    override func tearDown() {
        for server in servers where server.isRunning {
            server.interrupt()
            server.waitUntilExit()
        }
        servers = []
        sharedServers = [:]
        super.tearDown()
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

    /// The suite's cloud as a Vocab server reaches it: `postgresql://vocab_server@HOST:PORT/DB`,
    /// straight to PostgreSQL or (`through` a pooler's host:port) through it.
    func cloudURL(through pooler: String? = nil) -> String {
        var url = adminURL.replacingOccurrences(of: "postgres@", with: "vocab_server@")
        if let pooler, let hostAndPort = url.range(of: "@[^/]+", options: .regularExpression) {
            url.replaceSubrange(hostAndPort, with: "@" + pooler)
        }
        return url
    }

    func makeCertificate() throws -> (String, String) { try makeTestCertificate(in: vocab) }

    /// Starts a Vocab server for the suite's cloud (over HTTPS with the test certificate, or
    /// plain HTTP on loopback; `through` a pooler, or to another `cloud`); returns its address.
    func startServer(_ name: String, tls: Bool = true, through pooler: String? = nil, cloud: String? = nil, options: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: VocabRunner.binary)
        var arguments = ["serve", "--cloud", cloud ?? cloudURL(through: pooler), "--listen", "127.0.0.1:0", "--cache", vocab.file(name + "/cache")]
        if tls {
            let (certificate, key) = try makeCertificate()
            arguments += ["--tls-cert", certificate, "--tls-key", key]
        }
        process.arguments = arguments + options
        process.environment = ProcessInfo.processInfo.environment.merging(["VOCAB_HOME": vocab.file(name + "/home"),
                                                                           "XDG_CONFIG_HOME": vocab.file(name + "/config"),
                                                                           "PGPASSWORD": serverPassword]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        servers.append(process)
        // Its first line says where it listens (read on a thread: a read that never ends must not hang the test).
        let seen = Mutex("")
        let reader = Thread {
            while case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                seen.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        reader.start()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = seen.withLock { $0 }
            if let range = text.range(of: #"https?://127\.0\.0\.1:\d+"#, options: .regularExpression) { return String(text[range]) }
            if !process.isRunning { break }
            usleep(50_000)
        }
        let seenText = seen.withLock { $0 }
        XCTFail("the server did not start: \(seenText)")
        throw CocoaError(.fileReadUnknown)
    }

    /// Makes a learner (password "pw"); returns the name.
    func newUser(_ prefix: String = "dev") throws -> String {
        let initialized = try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin)
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        let name = prefix + "_" + UUID().uuidString.prefix(8).lowercased()
        XCTAssertEqual(try vocab.run(["cloud", "add-user", name, "--admin", adminURL], input: "pw\n", environment: admin).status, 0)
        return name
    }

    /// Signs `device` in to `server` as `user` (password "pw").
    func signIn(_ device: String, to server: String, as user: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = server.replacingOccurrences(of: "://", with: "://\(user)@")
        var arguments = ["login", url, "--device-name", device]
        if server.hasPrefix("https://") { arguments += ["--ca-file", try makeCertificate().0] }
        let login = try vocab.run(arguments, environment: self.device(device).merging(["VOCAB_PASSWORD": "pw"]) { $1 })
        XCTAssertEqual(login.status, 0, login.stderr, file: file, line: line)
    }

    /// The test's Vocab server in front of the cloud (`through` a pooler), started once.
    func sharedServer(through pooler: String? = nil) throws -> String {
        if let known = sharedServers[pooler ?? ""] { return known }
        let started = try startServer("server-\(sharedServers.count)", tls: false, through: pooler)
        sharedServers[pooler ?? ""] = started
        return started
    }

    /// Makes a learner (password "pw") and signs `devices` in through the test's Vocab server
    /// (plain HTTP on loopback; `through` the suite's PgBouncer in transaction pooling mode in
    /// front of PostgreSQL); returns the login URL (`http://USER@127.0.0.1:PORT`).
    func setUpUser(devices: [String] = ["a", "b"], through pooler: String? = nil) throws -> String {
        let name = try newUser()
        let server = try sharedServer(through: pooler)
        for device in devices { try signIn(device, to: server, as: name) }
        return server.replacingOccurrences(of: "://", with: "://\(name)@")
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

    /// The words of a device, sorted.
    func words(_ device: String) throws -> [String] {
        let listed = try JSONSerialization.jsonObject(with: Data(try on(device, ["word", "list", "--json"]).stdout.utf8)) as? [[String: Any]]
        return (listed ?? []).compactMap { $0["word"] as? String }.sorted()
    }

    /// Runs a control script of the suite's services (scripts/services.sh) and waits for it;
    /// returns what it printed, or throws what it said when it fails.
    @discardableResult
    func runScript(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-script-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)  // a file: nothing waits on it
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ScriptFailure(command: ([script] + arguments).joined(separator: " "), status: process.terminationStatus, said: String(said.suffix(4000)))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A control script that failed, with what it wrote to standard error.
    struct ScriptFailure: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let said: String
        var description: String { "\(command) exited \(status): \(said)" }
    }

    /// Runs SQL as the administrator with psql (in the suite's database), answering its rows
    /// unaligned; a statement psql refuses throws (once its failure read as an empty answer).
    @discardableResult
    func adminSQL(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", adminURL, "-c", sql]
        process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": adminPassword]) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScriptFailure(command: "psql -c \(sql)", status: process.terminationStatus, said: String(decoding: said, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
