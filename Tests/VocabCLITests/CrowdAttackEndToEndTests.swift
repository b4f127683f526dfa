import Foundation
import VocabSystem
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A small crowd against `vocab serve --cloud`, made as issue 67 found it: many source
/// addresses in 127.0.0.0/8, each as slow as it likes, straight at a server and through the
/// shipped HAProxy — while alice, at 127.0.0.1, syncs with the real binary throughout. Each of
/// her syncs must finish within the 5 s her device waits (`VOCAB_CLOUD_TIMEOUT`), the health
/// check must answer, and the server must hold its threads (a slow client costs a socket and a
/// few KiB, never a thread).
final class CrowdAttackEndToEndTests: CloudEndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        OpenFiles.raiseLimit(to: 16_384)  // a socket is a file: thousands need more than the usual 1,024
    }

    /// Alice's sync, as impatient as a learner: it must be served within 5 s.
    private func aliceSyncsInTime(_ device: String = "alice", file: StaticString = #filePath, line: UInt = #line) throws {
        var environment = self.device(device)
        environment["VOCAB_CLOUD_TIMEOUT"] = "5"
        let sync = try vocab.run(["sync"], environment: environment)
        XCTAssertEqual(sync.status, 0, "alice's sync: \(sync.stderr)", file: file, line: line)
    }

    /// The server's threads and resident memory (KiB), from /proc.
    private func footprint(of server: Process) throws -> (threads: Int, residentKiB: Int) {
        let status = try String(contentsOfFile: "/proc/\(server.processIdentifier)/status", encoding: .utf8)
        func value(_ name: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) } ?? -1
        }
        return (value("Threads"), value("VmRSS"))
    }

    private func healthStatus(_ base: String, certificate: String? = nil) throws -> String {
        try curl(["-o", "/dev/null", "-w", "%{http_code}", "-m", "5"] + (certificate.map { ["--cacert", $0] } ?? []) + [base + "/api/v1/health"])
    }

    /// 1,280 half-sent heads from 10 addresses (128 each, a header line every 2 s; each cut at
    /// the 10 s a head may take opens again): once they filled the server's 1,024 connection
    /// threads and 9 of alice's 13 syncs failed. Now her syncs are served, the health check
    /// answers, and the server keeps under 64 threads and 512 MiB.
    func testSlowHeadsFromACrowdLeaveAliceHerServer() throws {
        let alice = try newUser()
        let server = try startServer("heads", tls: false)
        let process = try XCTUnwrap(servers.last)
        let port = try XCTUnwrap(server.split(separator: ":").last.flatMap { Int($0) })
        try signIn("alice", to: server, as: alice)
        try on("alice", ["book", "add", "Hers"]).expectSuccess()
        try aliceSyncsInTime()
        let head = "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        let addresses = (1...10).map { "127.0.8.\($0)" }
        var crowd = try addresses.flatMap { address in try (0..<128).map { _ in try SlowSender(port: port, from: address, sending: head) } }
        XCTAssertEqual(crowd.count, 1_280)
        var mostThreads = 0, mostResident = 0
        for round in 0..<6 {
            // Each keeps trickling; a connection the server cut is opened again at once.
            crowd = try crowd.enumerated().map { index, sender in
                if sender.send("X-Slow: \(round)\r\n") { return sender }
                return try SlowSender(port: port, from: addresses[index / 128], sending: head)
            }
            let seen = try footprint(of: process)
            mostThreads = max(mostThreads, seen.threads)
            mostResident = max(mostResident, seen.residentKiB)
            XCTAssertEqual(try healthStatus(server), "200", "the health check answers (round \(round))")
            try on("alice", ["word", "add", "word\(round)", "--book", "Hers"]).expectSuccess()
            try aliceSyncsInTime()
            sleep(2)
        }
        XCTAssertLessThan(mostThreads, 64, "the server's threads stay bounded")
        XCTAssertLessThan(mostResident, 512 * 1024, "its memory too")
        XCTAssertEqual(try words("alice").count, 6, "her words all there")
    }

    /// 1,920 anonymous POSTs announcing 1 MiB through HAProxy as shipped, from 120 addresses
    /// (16 each): the first 17 KiB at once (past HAProxy's buffer, so the request reaches a
    /// server), then a byte every 5 s. Once they held both servers' 512 places and alice's
    /// requests waited 9 s, health checks got 503. Now a server holds them at no thread's cost
    /// and cuts each once it comes slower than the slowest rate; alice syncs meanwhile.
    func testSlowBodiesFromACrowdThroughTheShippedProxyLeaveAliceHerServers() throws {
        let alice = try newUser()
        let backends = try ["one", "two"].map { try startServer($0, tls: false, options: ["--behind-proxy"]) }
        let processes = Array(servers.suffix(2))
        let proxy = try startHAProxy(before: backends)
        try signIn("alice", to: proxy.front, as: alice)
        try on("alice", ["book", "add", "Hers"]).expectSuccess()

        let start = String(repeating: "x", count: 17 * 1024)
        let crowd = (1...120).flatMap { address in
            (0..<16).compactMap { _ -> SlowSender? in
                let sender = try? SlowSender(port: proxy.plainPort, from: "127.0.9.\(address)", path: "/api/v1/sync/push?token=0&fresh=0",
                                             length: 1 << 20)
                _ = sender?.send(start)
                return sender
            }
        }
        XCTAssertEqual(crowd.count, 1_920, "HAProxy let them all in (16 from each address)")
        var mostThreads = 0
        for round in 0..<5 {
            crowd.forEach { _ = $0.sendByte() }
            for process in processes { mostThreads = max(mostThreads, try footprint(of: process).threads) }
            XCTAssertEqual(try healthStatus(proxy.front, certificate: proxy.certificate), "200", "the health check answers (round \(round))")
            try on("alice", ["word", "add", "word\(round)", "--book", "Hers"]).expectSuccess()
            try aliceSyncsInTime()
            sleep(5)
        }
        XCTAssertLessThan(mostThreads, 64, "each server's threads stay bounded")
        // Each is answered or cut off, though it goes on trickling.
        var ended = Set<Int>()
        XCTAssertTrue(waitUntil(40) {
            for (index, body) in crowd.enumerated() where !ended.contains(index) {
                _ = body.sendByte()
                if body.closedUnanswered(waitingAtMost: 0) || body.status(waitingAtMost: 0) != nil { ended.insert(index) }
            }
            sleep(1)
            return ended.count == crowd.count
        }, "every one refused or cut off: \(crowd.count - ended.count) of \(crowd.count) not")
        try aliceSyncsInTime()
    }

    /// Five accounts each sending slow pushes (a batch announced whole, a few bytes at a time,
    /// more of them than the eight slots there once were) and two trickling uploads of files
    /// (which once held both upload slots for 17 minutes): none of it holds anything of
    /// alice's — her sync and her import are served at once — and each slow body is cut off
    /// once it comes slower than the slowest rate.
    func testAFewAccountsSlowPushesAndUploadsHoldNothingOfAlices() throws {
        let users = try (0..<6).map { _ in try newUser() }
        let server = try startServer("slowpush", tls: false)
        let port = try XCTUnwrap(server.split(separator: ":").last.flatMap { Int($0) })
        let names = ["alice", "p1", "p2", "p3", "p4", "p5"]
        for (index, device) in names.enumerated() { try signIn(device, to: server, as: users[index]) }
        for device in names.dropFirst() { try syncsIn(device) }
        var slow: [SlowSender] = []
        // Each account from an address of its own (the crowd's), so that no address's share binds.
        for (index, device) in names.enumerated().dropFirst() {
            for _ in 0..<4 {
                slow.append(try SlowSender(port: port, from: "127.0.10.\(index)", path: "/api/v1/sync/push?token=0&fresh=0",
                                           headers: [try bearer(device)], length: 2 << 20))
            }
        }
        for (index, device) in names.enumerated().dropFirst(4) {
            slow.append(try SlowSender(port: port, from: "127.0.10.\(index)", path: "/api/imports?name=x.csv", headers: [try bearer(device)],
                                       length: 32 << 20))
        }
        XCTAssertTrue(slow.allSatisfy { $0.sendByte() })
        try on("alice", ["book", "add", "Hers"]).expectSuccess()
        try aliceSyncsInTime()
        // Her import, from the page's route, beside the trickling uploads.
        let csv = vocab.file("hers.csv")
        try Data("word,definition\nquiet,not loud\n".utf8).write(to: URL(fileURLWithPath: csv))
        let imported = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-m", "5", "-H", try bearer("alice"), "-H", "X-Vocab-Request: 1",
                                 "--data-binary", "@" + csv, server + "/api/imports?name=hers.csv"])
        XCTAssertEqual(imported, "202", "alice's import starts at once")
        // A byte every 2 s is far below the slowest rate: each is cut off after its grace.
        XCTAssertTrue(waitUntil(40) {
            slow.forEach { _ = $0.sendByte() }
            sleep(2)
            return slow.allSatisfy { $0.closedUnanswered(waitingAtMost: 0) }
        }, "every slow body is cut off")
        try aliceSyncsInTime()
        for device in names.dropFirst() { try syncsIn(device) }
    }

    private func syncsIn(_ device: String) throws { try syncs(device) }

    /// SIGTERM while a learner's push waits on his account's lock (held here by the
    /// administrator, as a long request would): the server ends within its stop's bound, the
    /// waiting push answered 503 (once a server busy with a long pull went on for over 20 s
    /// after SIGTERM), nothing of it stored; a server started again serves the account whole.
    func testAStopEndsTheRequestsInFlightAndLosesNothing() throws {
        let alice = try newUser()
        let server = try startServer("stop", tls: false)
        let process = try XCTUnwrap(servers.last)
        try signIn("alice", to: server, as: alice)
        try on("alice", ["book", "add", "Hers"]).expectSuccess()
        try on("alice", ["word", "add", "kept", "--book", "Hers"]).expectSuccess()
        try aliceSyncsInTime()
        let stored = try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(alice)'")
        let held = try PsqlSession(url: adminURL, password: adminPassword)
        defer { held.end() }
        held.send("BEGIN; SELECT 1 FROM vocab.accounts WHERE owner = '\(alice)' FOR UPDATE;")
        held.send("\\echo lock-held")
        XCTAssertTrue(waitUntil(10) { held.output.contains("lock-held") }, held.output)

        let push = Process()
        push.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let batch = #"[{"k":"word","i":"\#(UUID().uuidString.lowercased())","d":false,"b":{"word":"lost?"}}]"#
        push.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", try bearer("alice"), "-H", "Content-Type: application/json",
                          "-H", "X-Vocab-Request: 1", "--data", batch, server + "/api/v1/sync/push?token=0&fresh=0"]
        let answer = Pipe()
        push.standardOutput = answer
        try push.run()
        XCTAssertTrue(waitUntil(10) {
            (try? PsqlSession.once(url: adminURL, password: adminPassword,
                                   "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND usename = 'vocab_server'")
                .trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
        }, "the push waits on her lock")
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(waitUntil(10) { !process.isRunning }, "the server stopped while a request was in flight")
        push.waitUntilExit()
        XCTAssertEqual(String(decoding: answer.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "503", "the waiting push was answered")
        held.send("ROLLBACK;")
        XCTAssertEqual(try adminSQL("SELECT count(*) FROM vocab.records WHERE owner = '\(alice)'"), stored, "nothing half written")

        let again = try startServer("stop-again", tls: false)
        try signIn("alice-again", to: again, as: alice)
        try syncs("alice-again")
        XCTAssertEqual(try words("alice-again"), ["kept"], "a server started again serves her account whole")
    }

    /// Twelve learners' imports at once take the server's two import workers, not a thread
    /// each (they took one each before: twelve imports, twelve threads); every import finishes
    /// whole, and alice syncs meanwhile.
    func testACrowdOfImportsTakesTwoWorkersNotAThreadEach() throws {
        let alice = try newUser()
        let server = try startServer("imports", tls: false)
        let process = try XCTUnwrap(servers.last)
        try signIn("alice", to: server, as: alice)
        try on("alice", ["book", "add", "Hers"]).expectSuccess()
        let rows = 20_000
        let csv = vocab.file("words.csv")
        try Data(("word,definition\n" + (0..<rows).map { "w\($0),meaning \($0)\n" }.joined()).utf8).write(to: URL(fileURLWithPath: csv))
        var learners: [(jar: String, book: String)] = []
        for index in 0..<12 {
            let name = try newUser("importer"), jar = vocab.file("jar-\(index)")
            let signedIn = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-c", jar, "-H", "X-Vocab-Request: 1", "-H", "Content-Type: application/json",
                                     "-d", #"{"user":"\#(name)","password":"pw"}"#, server + "/api/signin"])
            XCTAssertEqual(signedIn, "200")
            let made = try curl(["-b", jar, "-H", "X-Vocab-Request: 1", "-H", "Content-Type: application/json", "-d", #"{"name":"Imported"}"#,
                                 server + "/api/books"])
            let book = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: Any])?["id"] as? String, made)
            learners.append((jar, book))
        }
        let before = try footprint(of: process).threads
        let ids = try learners.map { learner in
            let started = try curl(["-b", learner.jar, "-H", "X-Vocab-Request: 1", "--data-binary", "@" + csv,
                                    server + "/api/imports?name=words.csv&book=\(learner.book)"])
            return try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(started.utf8)) as? [String: Any])?["id"] as? String, started)
        }
        var mostThreads = before, states: [String] = []
        XCTAssertTrue(waitUntil(300) {
            mostThreads = max(mostThreads, (try? self.footprint(of: process).threads) ?? 0)
            states = zip(learners, ids).map { learner, id in
                let state = (try? curl(["-b", learner.jar, server + "/api/imports/\(id)"])) ?? ""
                return ((try? JSONSerialization.jsonObject(with: Data(state.utf8))) as? [String: Any])?["state"] as? String ?? state
            }
            return !states.contains("running")
        }, "the imports end: \(states)")
        XCTAssertEqual(states, Array(repeating: "done", count: 12))
        // Two import workers, each import's reader of its file running ahead of it (two), and a
        // few more of the server's own; twelve imports on a thread each (and their readers) were 24.
        XCTAssertLessThanOrEqual(mostThreads, before + 8, "the imports took the two import workers, no thread each (\(before) → \(mostThreads))")
        for learner in learners {
            let listed = try curl(["-b", learner.jar, server + "/api/books/\(learner.book)/words?limit=1"])
            XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])?["total"] as? Int, rows, "every row imported")
        }
        try aliceSyncsInTime()
    }
}
