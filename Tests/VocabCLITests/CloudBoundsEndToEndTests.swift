import Foundation
import XCTest

/// What docs/operating.md promises of the cloud's bounds, each tried as it says: a server refuses a
/// cloud of another schema version; the server role's time bounds; new accounts' caps and
/// `cloud limit --bytes`; the largest word and book; an address held after 30 wrong passwords;
/// the catalogue's most followed first.
final class CloudBoundsEndToEndTests: CloudEndToEndTestCase {
    /// A server started on a cloud whose schema is newer or older than it speaks says so and
    /// does not start (a cloud of its own: another database of the suite's PostgreSQL).
    func testAServerRefusesACloudOfAnotherSchemaVersion() throws {
        _ = try newUser()  // the suite's cloud made, and with it the server role
        let database = "vocab_version_" + UUID().uuidString.prefix(8).lowercased()
        _ = try adminSQL("CREATE DATABASE \(database)")
        defer { _ = try? adminSQL("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        func inDatabase(_ url: String) -> String { String(url[..<(url.lastIndex(of: "/") ?? url.endIndex)]) + "/" + database }
        let otherAdmin = inDatabase(adminURL)
        let made = try vocab.run(["cloud", "init", "--admin", otherAdmin], environment: admin)
        XCTAssertEqual(made.status, 0, made.stderr)
        let current = try PsqlSession.once(url: otherAdmin, password: adminPassword, "SELECT value FROM vocab.meta WHERE key = 'schema_version'")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try XCTUnwrap(Int(current), current)
        for (found, said) in [(version + 1, "newer than this Vocab knows"), (version - 1, "an administrator must upgrade it")] {
            _ = try PsqlSession.once(url: otherAdmin, password: adminPassword,
                                     "UPDATE vocab.meta SET value = '\(found)' WHERE key = 'schema_version'")
            let refused = try serveAndWaitForItsEnd(cloud: inDatabase(cloudURL()))
            XCTAssertNotEqual(refused.status, 0, "schema \(found): it must not start")
            XCTAssertTrue(refused.output.contains("schema version \(found)") && refused.output.contains(said), refused.output)
        }
    }

    /// `vocab serve` with `cloud`, which must end by itself (a refusal): its status and output.
    private func serveAndWaitForItsEnd(cloud: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: VocabRunner.binary)
        process.arguments = ["serve", "--cloud", cloud, "--listen", "127.0.0.1:0", "--cache", vocab.file("refused-cache")]
        process.environment = ProcessInfo.processInfo.environment.merging(["VOCAB_HOME": vocab.file("refused-home"), "PGPASSWORD": serverPassword]) { $1 }
        let output = vocab.file("refused-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let ended = waitUntil(30) { !process.isRunning }
        if !ended { process.terminate() }
        process.waitUntilExit()
        try handle.close()
        XCTAssertTrue(ended, "the server ended by itself")
        return (process.terminationStatus, try String(contentsOfFile: output, encoding: .utf8))
    }

    /// The server role's bounds, as a session of it finds them: a statement 60 s, a lock wait
    /// 10 s, idle in a transaction 60 s.
    func testTheServerRolesSessionsAreBoundedInTime() throws {
        _ = try newUser()
        let shown = try PsqlSession.once(url: cloudURL(), password: serverPassword,
                                         "SHOW statement_timeout; SHOW lock_timeout; SHOW idle_in_transaction_session_timeout;")
        XCTAssertEqual(shown.split(separator: "\n").map(String.init), ["1min", "10s", "1min"], shown)
    }

    /// A new account may hold 500,000 records and 256 MiB; `cloud limit --bytes` caps its bytes,
    /// a push past the cap is refused with the reason and nothing on the device is lost, and
    /// lifting the cap lets the same sync through.
    func testNewAccountsCapsAndTheBytesCap() throws {
        let user = try newUser()
        XCTAssertEqual(try adminSQL("SELECT max_records, max_bytes FROM vocab.accounts WHERE owner = '\(user)'"), "500000|268435456")
        let server = try sharedServer()
        try signIn("desk", to: server, as: user)
        let capped = try vocab.run(["cloud", "limit", user, "none", "--bytes", "4000", "--admin", adminURL], environment: admin)
        XCTAssertEqual(capped.status, 0, capped.stderr)
        XCTAssertTrue(capped.stdout.contains("may keep up to 4000 bytes"), capped.stdout)
        try on("desk", ["book", "add", "Long"]).expectSuccess()
        try on("desk", ["word", "add", "essay", "--book", "Long", "--definition", String(repeating: "long words ", count: 600)]).expectSuccess()
        let refused = try on("desk", ["sync"])
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("4000 bytes"), refused.stderr)
        XCTAssertEqual(try words("desk"), ["essay"], "nothing local was lost")
        let lifted = try vocab.run(["cloud", "limit", user, "none", "--bytes", "none", "--admin", adminURL], environment: admin)
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        try syncs("desk")
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(user)' AND kind = 'word'"), "1")
    }

    /// A word of more than 512 KiB and a book of more than 2 MiB are refused with the reason
    /// (measured before they are stored), and nothing is stored.
    func testTheLargestWordAndBookAreBounded() throws {
        let user = try newUser()
        let server = try sharedServer()
        try signIn("desk", to: server, as: user)
        func push(_ kind: String, bodyBytes: Int) throws -> String {
            let field = kind == "word" ? #""word":"big","definition":""# : #""name":"Big","image":""#
            let record = #"{"k":"\#(kind)","i":"\#(UUID().uuidString.lowercased())","d":false,"b":{\#(field)\#(String(repeating: "x", count: bodyBytes))"}}"#
            let batch = vocab.file("big-\(kind).json")
            try Data(("[" + record + "]").utf8).write(to: URL(fileURLWithPath: batch))
            return try curl(["-w", "\n%{http_code}", "-H", try bearer("desk"), "-H", "Content-Type: application/json", "-H", "X-Vocab-Request: 1",
                             "--data-binary", "@" + batch, server + "/api/v1/sync/push?token=0&fresh=0"])
        }
        let word = try push("word", bodyBytes: 600 << 10)
        XCTAssertTrue(word.hasSuffix("\n507") && word.contains("larger than a word may be"), word)
        let book = try push("book", bodyBytes: (2 << 20) + (200 << 10))
        XCTAssertTrue(book.hasSuffix("\n507") && book.contains("larger than a book may be"), book)
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(user)'"), "0", "nothing stored")
        let fits = try push("word", bodyBytes: 400 << 10)
        XCTAssertTrue(fits.hasSuffix("\n200"), String(fits.suffix(300)))
    }

    /// Thirty wrong passwords from one address, each for another name: the address then waits,
    /// even with a right password, while the same learner from another address signs in.
    func testAnAddressIsHeldAfterThirtyWrongPasswords() throws {
        let alice = try newUser()
        let server = try startServer("thirty", tls: false)
        func signIn(_ user: String, _ password: String, from address: String) throws -> String {
            try curl(["-o", "/dev/null", "-w", "%{http_code}", "--interface", address, "-H", "X-Vocab-Request: 1",
                      "-d", #"{"user":"\#(user)","password":"\#(password)"}"#, server + "/api/signin"])
        }
        let guesses = try (0..<30).map { try signIn("nobody\($0)", "guess", from: "127.0.0.3") }
        XCTAssertEqual(guesses, Array(repeating: "403", count: 30), "each of the thirty checked")
        XCTAssertEqual(try signIn(alice, "pw", from: "127.0.0.3"), "429", "then the address waits, even with a right password")
        XCTAssertEqual(try signIn(alice, "pw", from: "127.0.0.1"), "200", "alice from her own address")
    }

    /// `vocab catalog --popular` lists the most followed first; without it, the newest first.
    func testTheCatalogueMostFollowedFirst() throws {
        let first = try newUser("teacher"), second = try newUser("teacher"), readers = [try newUser("student"), try newUser("student")]
        let server = try sharedServer()
        for (device, user) in [("older", first), ("newer", second), ("reader0", readers[0]), ("reader1", readers[1])] {
            try signIn(device, to: server, as: user)
        }
        let tag = "Qz" + UUID().uuidString.prefix(6).lowercased()
        var links: [String] = []
        for (device, title) in [("older", "\(tag) Followed"), ("newer", "\(tag) Newest")] {
            try on(device, ["book", "add", title]).expectSuccess()
            try on(device, ["word", "add", "word", "--book", title]).expectSuccess()
            let shared = try on(device, ["share", title, "--catalog", "Teacher", "--json"])
            XCTAssertEqual(shared.status, 0, shared.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shared.stdout.utf8)) as? [String: Any])
            links.append(try XCTUnwrap(object["link"] as? String))
        }
        for reader in ["reader0", "reader1"] { try on(reader, ["follow", links[0]]).expectSuccess() }
        func titles(_ arguments: [String]) throws -> [String] {
            let listed = try JSONSerialization.jsonObject(with: Data(try on("reader0", ["catalog", tag] + arguments + ["--json"]).expectSuccess().utf8))
            return ((listed as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
        }
        XCTAssertEqual(try titles([]), ["\(tag) Newest", "\(tag) Followed"], "newest first")
        XCTAssertEqual(try titles(["--popular"]), ["\(tag) Followed", "\(tag) Newest"], "most followed first")
    }

    /// `cloud limit` and `cloud init` wait at most 3 s for a lock (docs/operating.md's promise, once
    /// untested), then name the session holding it, and change nothing.
    func testCloudLimitAndInitWaitAMomentForALockThenNameWhoHoldsIt() throws {
        let user = try newUser()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = ["-X", "-q", "-d", adminURL, "-c", "BEGIN; LOCK TABLE vocab.accounts IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600);"]
        holder.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": adminPassword]) { $1 }
        holder.standardOutput = FileHandle.nullDevice
        // An install to make (its functions changed since), so that `cloud init` needs the tables.
        try adminSQL("UPDATE vocab.meta SET value = 'stale' WHERE key = 'install_md5'")
        try holder.run()
        defer {
            _ = try? adminSQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()")
            holder.waitUntilExit()
            _ = try? vocab.run(["cloud", "init", "--admin", adminURL], environment: admin)  // the install made, as it was
        }
        XCTAssertTrue(waitUntil(30) {
            (try? adminSQL("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND state = 'active' AND pid <> pg_backend_pid()")) == "1"
        }, "the lock was taken")
        for command in [["cloud", "limit", user, "5"], ["cloud", "init"]] {
            let refused = try vocab.run(command + ["--admin", adminURL], environment: admin)
            XCTAssertNotEqual(refused.status, 0, "\(command): \(refused.stdout)")
            XCTAssertTrue(refused.stderr.contains("held by") && refused.stderr.contains("postgres") && refused.stderr.contains("pg_terminate_backend"),
                          "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("Nothing was changed"), refused.stderr)
        }
        XCTAssertEqual(try adminSQL("SELECT value FROM vocab.meta WHERE key = 'install_md5'"), "stale", "the install changed nothing")
    }
}
