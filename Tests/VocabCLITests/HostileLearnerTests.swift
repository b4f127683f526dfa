import Foundation
import XCTest

/// Bob, a Vocab user with `psql` and his own password, against the cloud `vocab cloud init`
/// installs (the suite's real PostgreSQL), with the administrator's guard running
/// (`vocab cloud guard`, short bounds for the test). Each test is one attack of the issue's list;
/// in each, alice's `vocab sync` completes within its bound, the administrator's commands
/// complete or refuse clearly within theirs, and what bob tried is refused or ended.
final class HostileLearnerTests: CloudEndToEndTestCase {
    private var alice = "", bob = ""
    private var guardProcess: Process?
    private var sessions: [PsqlSession] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        alice = try setUpUser(devices: ["alice"])
        bob = try setUpUser(devices: [])
        try on("alice", ["book", "add", "Mine"]).expectSuccess()
        for word in ["apple", "pear", "plum"] { try on("alice", ["word", "add", word, "--book", "Mine", "--definition", "fruit"]).expectSuccess() }
        try syncs("alice")
    }

    override func tearDown() {
        // A backend in pg_sleep does not notice its client leave: the innocents' are ended here.
        let pids = innocents.compactMap { $0.session.backendPid }.map(String.init).joined(separator: ",")
        if !pids.isEmpty {
            _ = try? PsqlSession.once(url: adminURL, password: adminPassword, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN (\(pids))")
        }
        sessions.forEach { $0.end() }
        if let guardProcess, guardProcess.isRunning { guardProcess.terminate(); guardProcess.waitUntilExit() }
        super.tearDown()
    }

    /// Sessions the guard must never end, open while it sweeps: an administrator's long query,
    /// alice's own session between statements, and a long query of a role that is not Vocab's.
    private var innocents: [(who: String, session: PsqlSession)] = []

    private func openInnocents() throws {
        let bystander = "bystander_\(UInt32.random(in: 0...UInt32.max))"
        try adminPsql("CREATE ROLE \(bystander) LOGIN PASSWORD 'pw'")
        var bystanderURL = adminURL
        if let at = bystanderURL.range(of: "://"), let userEnd = bystanderURL[at.upperBound...].firstIndex(where: { $0 == "@" || $0 == ":" }) {
            bystanderURL.replaceSubrange(at.upperBound..<userEnd, with: bystander)
        }
        let administrator = try PsqlSession(url: adminURL, password: adminPassword)
        administrator.send("SET statement_timeout = 0; SELECT pg_sleep(120);")
        let aliceOwn = try PsqlSession(url: alice, password: "pw")
        let other = try PsqlSession(url: bystanderURL, password: "pw")
        other.send("SET statement_timeout = 0; SELECT pg_sleep(120);")
        innocents = [("the administrator's long query", administrator), ("alice's own session", aliceOwn),
                     ("a non-Vocab role's long query", other)]
        sessions += innocents.map(\.session)
        XCTAssertTrue(wait(10) { innocents.allSatisfy { $0.session.backendPid != nil } }, "the innocent sessions started")
    }

    /// Every innocent session is still there, and alice's still answers.
    private func assertInnocentsSurvived(file: StaticString = #filePath, line: UInt = #line) throws {
        for (who, session) in innocents {
            XCTAssertFalse(try ended(session), "the guard ended \(who): \(session.output)", file: file, line: line)
        }
        if let aliceOwn = innocents.first(where: { $0.who == "alice's own session" })?.session {
            aliceOwn.send("\\echo still-here")
            XCTAssertTrue(wait(5) { aliceOwn.output.contains("still-here") }, "alice's session answers", file: file, line: line)
        }
    }

    /// The guard with bounds short enough for a test: idle in a transaction 2 s, a statement 4 s, a transaction 6 s.
    private func startGuard() throws {
        try openInnocents()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: VocabRunner.binary)
        process.arguments = ["cloud", "guard", "--admin", adminURL, "--idle", "2", "--statement", "4", "--transaction", "6"]
        process.environment = ProcessInfo.processInfo.environment.merging(admin) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guardProcess = process
    }

    /// A psql session of bob's, kept open: what he types goes in as he would type it.
    private func psqlAsBob() throws -> PsqlSession {
        let session = try PsqlSession(url: bob, password: "pw")
        sessions.append(session)
        return session
    }

    /// Whether the server still has bob's session `session` (psql notices a lost connection
    /// only when it next sends something, so the administrator looks).
    private func ended(_ session: PsqlSession) throws -> Bool {
        guard let pid = session.backendPid else { return session.ended }
        let count = try PsqlSession.once(url: adminURL, password: adminPassword, "SELECT count(*) FROM pg_stat_activity WHERE pid = \(pid)")
        return count.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    /// One statement as bob (a psql of its own); its output and errors.
    private func bobRuns(_ sql: String) throws -> String {
        try PsqlSession.once(url: bob, password: "pw", sql)
    }

    /// Alice adds a word and syncs with every statement bounded to `seconds` (the client's own
    /// time-out, VOCAB_CLOUD_TIMEOUT): it must succeed, so nothing made it wait longer.
    private func aliceSyncsWithin(_ seconds: Int, _ word: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try on("alice", ["word", "add", word, "--book", "Mine"]).expectSuccess()
        var environment = device("alice")
        environment["VOCAB_CLOUD_TIMEOUT"] = String(seconds)
        let result = try vocab.run(["sync"], environment: environment)
        XCTAssertEqual(result.status, 0, "alice's sync was held: \(result.stderr)", file: file, line: line)
    }

    private func wait(_ seconds: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    // 1. Bob lifts his own limits.
    func testTimeOutsBobSetsToNothingAreEnforcedByTheGuardAndHisHardLimitsAreNotHisToChange() throws {
        try startGuard()
        let user = userName(bob)
        _ = try bobRuns("ALTER ROLE \(user) SET statement_timeout = 0")  // accepted or not: the guard does not read it
        XCTAssertTrue(try bobRuns("ALTER ROLE \(user) CONNECTION LIMIT -1").contains("permission denied"))
        XCTAssertTrue(try bobRuns("ALTER ROLE \(user) SET temp_file_limit = -1").contains("permission denied"))
        XCTAssertTrue(try bobRuns("SET temp_file_limit = -1").contains("permission denied"))
        let long = try psqlAsBob()
        long.send("SET statement_timeout = 0; SELECT pg_sleep(600);")
        XCTAssertTrue(wait(12) { long.ended }, "the guard ended his endless statement")
        XCTAssertTrue(long.output.contains("terminat"), long.output)
        try aliceSyncsWithin(5, "fig")
        try assertInnocentsSurvived()
        // One round by hand, beside the running guard: it ends nothing innocent and exits 0.
        let once = try vocab.run(["cloud", "guard", "--once", "--admin", adminURL, "--statement", "4"], environment: admin)
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertFalse(once.stdout.contains("Ended"), once.stdout)
        try assertInnocentsSurvived()
    }

    // 2. Bob stops schema upgrades and, through them, everyone's sync.
    func testAnIdleTransactionCannotHoldAnUpgradeOrACapOrAnyoneElsesSync() throws {
        let held = try psqlAsBob()
        held.send("SET idle_in_transaction_session_timeout = 0; BEGIN; SELECT count(*) FROM vocab.meta;")
        let account = try psqlAsBob()
        account.send("SET idle_in_transaction_session_timeout = 0; BEGIN; SELECT vocab.push((SELECT latest FROM vocab.counts()), '[]', false);")
        usleep(500_000)
        // An init with nothing to change takes no table lock: it goes through.
        XCTAssertEqual(try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin).status, 0)
        // An upgrade waits at most 3 s, then names bob's session; alice's sync is not held behind it.
        try adminPsql("UPDATE vocab.meta SET value = 'an older install' WHERE key = 'install_md5'")  // so init has work to do
        let upgrade = try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin)
        XCTAssertNotEqual(upgrade.status, 0)
        XCTAssertTrue(upgrade.stderr.contains(userName(bob)) && upgrade.stderr.contains("pg_terminate_backend"), upgrade.stderr)
        try aliceSyncsWithin(5, "fig")
        let cap = try vocab.run(["cloud", "limit", userName(bob), "1000", "--admin", adminURL], environment: admin)
        XCTAssertNotEqual(cap.status, 0, "his account row is his to hold, for a moment")
        XCTAssertTrue(cap.stderr.contains(userName(bob)), cap.stderr)
        // With the guard, his idle transactions end within its bound, and both go through.
        try startGuard()
        XCTAssertTrue(try wait(10) { try ended(held) && ended(account) }, "the guard ended both idle transactions")
        XCTAssertEqual(try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin).status, 0)
        XCTAssertEqual(try vocab.run(["cloud", "limit", userName(bob), "1000", "--admin", adminURL], environment: admin).status, 0)
        try aliceSyncsWithin(5, "kiwi")
        try assertInnocentsSurvived()
    }

    // 3. Bob takes every connection.
    func testBobCannotTakeEveryConnection() throws {
        var open: [PsqlSession] = []
        for _ in 0..<12 {
            let session = try psqlAsBob()
            session.send("SELECT 1;")
            open.append(session)
        }
        // His limit is 8: eight sessions answer, and the rest are refused for his role.
        XCTAssertTrue(wait(10) { open.filter { $0.backendPid != nil || $0.ended }.count == open.count },
                      "every attempt answered or was refused: \(open.map(\.output))")
        XCTAssertEqual(open.filter { $0.backendPid != nil }.count, 8, "\(open.map(\.output))")
        let refused = open.filter { $0.backendPid == nil }
        XCTAssertEqual(refused.count, 4)
        XCTAssertTrue(refused.allSatisfy { $0.output.contains("too many connections for role") }, "\(refused.map(\.output))")
        try aliceSyncsWithin(5, "fig")
    }

    // 4 and 5. Storage has no real bound; one push can take gigabytes.
    func testBytesAreCappedABodyIsBoundedByItsKindAndAGiantBatchIsRefusedBeforeItIsParsed() throws {
        XCTAssertEqual(try vocab.run(["cloud", "limit", userName(bob), "60", "--bytes", "1MiB", "--admin", adminURL], environment: admin).status, 0)
        func push(_ records: Int, bodyBytes: Int, kind: String = "word", fresh: Bool = false) throws -> String {
            let filler = String(repeating: "x", count: bodyBytes)
            let batch = (0..<records).map { _ in #"{"k":"\#(kind)","i":"\#(UUID().uuidString)","d":false,"b":{"word":"\#(filler)"}}"# }.joined(separator: ",")
            let file = vocab.file("batch-\(UUID().uuidString).json")
            try Data(("[" + batch + "]").utf8).write(to: URL(fileURLWithPath: file))
            return try bobRuns("\\set batch `cat \(file)`\nSELECT vocab.push((SELECT coalesce((SELECT latest FROM vocab.counts()), 0)), :'batch', \(fresh));")
        }
        XCTAssertTrue(try push(1, bodyBytes: 600_000).contains("larger than a word may be"), "a word of 600 KB")
        XCTAssertTrue(try push(4, bodyBytes: 400_000).contains("may hold 1048576 bytes"), "1.6 MB under a 1 MiB cap")
        // The same through the plain insert a push into an empty account takes: measured as it goes in, and undone.
        XCTAssertTrue(try push(2, bodyBytes: 600_000, fresh: true).contains("larger than a word may be"), "a word of 600 KB, inserted")
        XCTAssertTrue(try push(4, bodyBytes: 400_000, fresh: true).contains("may hold 1048576 bytes"), "1.6 MB under a 1 MiB cap, inserted")
        XCTAssertEqual(try bobRuns("SELECT words FROM vocab.counts()").split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first, 0,
                       "nothing refused was kept")
        let small = try push(1, bodyBytes: 1_000)
        XCTAssertFalse(small.contains("ERROR"), "a small one goes in: \(small)")
        let giant = try push(40, bodyBytes: 500_000)
        XCTAssertTrue(giant.contains("16 MiB"), "20 MB refused before it is parsed: \(giant.prefix(300))")
        XCTAssertTrue(try bobRuns("SELECT lo_from_bytea(0, 'x'::bytea)").contains("permission denied"))
        XCTAssertTrue(try bobRuns("CREATE TEMP TABLE t (x int)").contains("permission denied"))
        try aliceSyncsWithin(5, "fig")
    }

    // 6. Bob walks the cluster toward transaction-ID wraparound.
    func testBobCanNeitherBurnTransactionIdsNorHoldASnapshot() throws {
        try startGuard()
        XCTAssertTrue(try bobRuns("SELECT txid_current()").contains("permission denied"))
        XCTAssertTrue(try bobRuns("SELECT pg_current_xact_id()").contains("permission denied"))
        let snapshot = try psqlAsBob()
        snapshot.send("SET idle_in_transaction_session_timeout = 0; BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT * FROM vocab.meta;")
        snapshot.send("\\echo snapshot-held")  // printed once the read above answered, inside the transaction
        XCTAssertTrue(wait(10) { snapshot.output.contains("snapshot-held") },
                      "the snapshot was held (its first read answered) before the guard ended it: \(snapshot.output)")
        XCTAssertTrue(try wait(12) { try ended(snapshot) }, "a held snapshot is ended")
        try aliceSyncsWithin(5, "fig")
        try assertInnocentsSurvived()
    }

    // 7. Bob learns alice's record count and when she syncs.
    func testBobLearnsNothingOfAlicesRecordsOrSyncs() throws {
        XCTAssertTrue(try bobRuns("EXPLAIN SELECT * FROM vocab.records WHERE owner = '\(userName(alice))'").contains("permission denied"))
        XCTAssertTrue(try bobRuns("SELECT n_live_tup FROM pg_stat_user_tables").contains("permission denied"))
        XCTAssertTrue(try bobRuns("SELECT usename FROM pg_stat_activity").contains("permission denied"))
        func bobPushesOne() throws -> Int {
            let out = try bobRuns("""
                SELECT vocab.push(coalesce((SELECT latest FROM vocab.counts()), 0), '[{"k":"book","i":"\(UUID().uuidString)","d":false,"b":{"name":"b"}}]', false);
                """)
            return Int(out.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first ?? -1)
        }
        let first = try bobPushesOne()
        for word in ["fig", "kiwi", "lime", "date"] { try on("alice", ["word", "add", word, "--book", "Mine"]).expectSuccess() }
        try syncs("alice")
        XCTAssertEqual(try bobPushesOne(), first + 1, "his numbers move with his own pushes only")
    }

    /// Upgrading a server from schema 3 (no per-user counter, no byte counts: the columns
    /// start at 0 when version 4 adds them) keeps every user's data and devices: another device
    /// pulls everything, and the first one goes on pushing without a conflict.
    func testUpgradingAServerFromSchema3KeepsEveryUsersDataAndDevices() throws {
        try adminPsql("""
            UPDATE vocab.accounts SET next_seq = 0, total_bytes = 0;
            UPDATE vocab.meta SET value = '3' WHERE key = 'schema_version'
            """)
        XCTAssertEqual(try vocab.run(["cloud", "init", "--admin", adminURL], environment: admin).status, 0)
        try aliceSyncsWithin(5, "fig")
        XCTAssertEqual(try on("alice2", ["login", alice], input: "pw\n").status, 0)
        try syncs("alice2")
        let words = try on("alice2", ["word", "list", "--book", "Mine"]).stdout
        for word in ["apple", "pear", "plum", "fig"] { XCTAssertTrue(words.contains(word), words) }
        try on("alice2", ["word", "add", "kiwi", "--book", "Mine"]).expectSuccess()
        try syncs("alice2")
        try syncs("alice")
        XCTAssertTrue(try on("alice", ["word", "list", "--book", "Mine"]).stdout.contains("kiwi"))
    }

    private func adminPsql(_ sql: String) throws {
        let output = try PsqlSession.once(url: adminURL, password: adminPassword, sql)
        XCTAssertFalse(output.contains("ERROR"), output)
    }
}

/// A real psql (Debian's postgresql-client) as a user: kept open reading what it is sent, or
/// run once for one statement.
final class PsqlSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let buffer = NSLock()
    private var text = ""

    init(url: String, password: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", url]
        process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "5"]) { $1 }
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.buffer.lock()
            self.text += String(decoding: data, as: UTF8.self)
            self.buffer.unlock()
        }
        try process.run()
        send("\\echo backend-pid")
        send("SELECT pg_backend_pid();")
    }

    /// The server process of this session, once psql printed it.
    var backendPid: Int? {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let marker = lines.firstIndex(of: "backend-pid") else { return nil }
        return lines[(marker + 1)...].lazy.compactMap { Int($0) }.first
    }

    func send(_ sql: String) {
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
    }

    var output: String {
        buffer.lock()
        defer { buffer.unlock() }
        return text
    }

    /// The server ended the session (psql exits when its connection is gone), or it never began.
    var ended: Bool { !process.isRunning || output.contains("terminat") || output.contains("connection to server") }

    func end() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// One statement in a psql of its own; everything it printed.
    static func once(url: String, password: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-At", url]
        process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "5"]) { $1 }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

extension RunResult {
    func expectSuccess(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(status, 0, stderr, file: file, line: line)
    }
}
