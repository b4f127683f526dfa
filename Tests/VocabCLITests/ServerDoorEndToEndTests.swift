import Foundation
import Synchronization
import TestServices
import XCTest

/// Devices that speak HTTPS to the Vocab server (`vocab serve --cloud`), never SQL: signed in
/// with `vocab login https://USER@HOST`, syncing through one server or two in front of the
/// same cloud, signed out on one and refused by the other.
final class ServerDoorEndToEndTests: CloudEndToEndTestCase {
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

    func testAFirstSyncOfManyBatchesStoresEachRecordOnceInOrder() throws {
        // 5,000 words: three batches, each sent before the one before is answered, over HTTPS.
        let user = try newUser()
        let server = try startServer("many")
        try signIn("desk", to: server, as: user)
        try signIn("laptop", to: server, as: user)
        let csv = "word,definition\n" + (0..<5000).map { "word\($0),\"meaning \\ \"\"\($0)\"\"\"\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: vocab.file("many.csv")))
        try on("desk", ["import", vocab.file("many.csv"), "--book", "Many"]).expectSuccess()
        try syncs("desk")
        XCTAssertEqual(try adminSQL("""
            SELECT count(*), count(DISTINCT id), min(seq), max(seq), count(DISTINCT seq) FROM vocab.records WHERE owner = '\(user)'
            """), "5001|5001|1|5001|5001", "every record once, their seqs 1 to 5001")
        try syncs("laptop")
        let laptop = try words("laptop")
        XCTAssertEqual(laptop.count, 5000)
        XCTAssertEqual(Set(laptop).symmetricDifference((0..<5000).map { "word\($0)" }).count, 0, "the same words")
        XCTAssertTrue(try on("laptop", ["word", "show", "word4999"]).stdout.contains("meaning \\ \"4999\""))
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
        let refused = try on("phone", ["sync"])
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("signed out"), "refused at its next request (not a time-out): \(refused.stderr)")
        XCTAssertEqual(try words("phone"), ["passport", "ticket"], "its words stay on the device")
    }

    /// Bob and carol each hold their own account's lock (psql, a transaction left open) and
    /// flood a server of four connections to the cloud: their own requests wait or are told to
    /// come back (429), they hold three of the four connections between them (a learner takes a
    /// second only while more than half are free), and alice's sync goes through as if they
    /// were not there. (With the four lent first come, first served, it timed out.)
    func testLearnersLocksAndFloodsHoldNobodyElse() throws {
        let alice = try newUser(), bob = try newUser(), carol = try newUser()
        let server = try startServer("fair", tls: false, options: ["--cloud-connections", "4"])
        try signIn("desk", to: server, as: alice)
        for (learner, devices) in [(bob, ["bobs", "bob2", "bob3", "bob4"]), (carol, ["carols", "carol2", "carol3", "carol4"])] {
            try signIn(devices[0], to: server, as: learner)
            try on(devices[0], ["book", "add", "Mine"]).expectSuccess()
            try syncs(devices[0])
            // (Signed in before their locks are held: signing in takes the account's lock too.)
            for extra in devices.dropFirst() { try signIn(extra, to: server, as: learner) }
        }
        // A long request of each holds his account's own lock (here the administrator takes them).
        let held = try PsqlSession(url: adminURL, password: adminPassword)
        defer { held.end() }
        held.send("BEGIN; SELECT 1 FROM vocab.accounts WHERE owner IN ('\(bob)', '\(carol)') FOR UPDATE;")
        held.send("\\echo lock-held")  // printed once the statement above holds both locks
        XCTAssertTrue(waitUntil(10) { held.output.contains("lock-held") }, held.output)

        func waitingOnLocks() throws -> String {
            try PsqlSession.once(url: adminURL, password: adminPassword,
                                 "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND usename = 'vocab_server'")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func push(_ device: String) throws -> Process { try self.push(device, to: server, token: 1) }
        // Bob's three pushes: two wait for his lock in PostgreSQL, the third in the server...
        var waiting = try ["bob2", "bob3", "bob4"].map(push)
        XCTAssertTrue(try waitUntil(5) { try waitingOnLocks() == "2" }, "two of bob's pushes on his lock: \((try? waitingOnLocks()) ?? "?")")
        // ...carol's three: one waits for her lock in PostgreSQL (one connection of four is left)...
        waiting += try ["carol2", "carol3", "carol4"].map(push)
        XCTAssertTrue(try waitUntil(5) { try waitingOnLocks() == "3" }, "and one of carol's: \((try? waitingOnLocks()) ?? "?")")
        // ...a fourth request of bob's is told to come back at once...
        XCTAssertEqual(status(try curlInBackground(as: "bobs", [server + "/api/v1/account"])), "429", "past his share, bob's requests are refused at once")
        // ...and alice syncs as if they were not there.
        // (Her client gives up after 5 s a request: their locks hold for longer.)
        try on("desk", ["book", "add", "Hers"]).expectSuccess()
        var environment = device("desk")
        environment["VOCAB_CLOUD_TIMEOUT"] = "5"
        let hers = try vocab.run(["sync"], environment: environment)
        XCTAssertEqual(hers.status, 0, "alice never waits on bob's or carol's lock: \(hers.stderr)")
        held.send("ROLLBACK;")
        let ends = waiting.map(status)
        // Each is answered as what it is: stored (200), behind the account (409), or the account
        // busy (429) — never the cloud "out of reach" (503), which none of them was.
        XCTAssertTrue(ends.allSatisfy { ["200", "409", "429"].contains($0) }, "their own waits end, one way or another: \(ends)")

        // A 20 MiB push is refused before it is read (413), and changes nothing.
        let giant = vocab.file("giant.json")
        try Data(("[" + String(repeating: " ", count: 20 << 20) + "]").utf8).write(to: URL(fileURLWithPath: giant))
        let refused = try curlInBackground(as: "bobs", ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + giant,
                                                     server + "/api/v1/sync/push?token=0&fresh=0"])
        XCTAssertEqual(status(refused), "413")
        try syncs("desk")
        try syncs("bobs")
    }

    /// curl as `device` (its `Authorization`), running in the background; `status` waits for its answer.
    private func curlInBackground(as device: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", try bearer(device)] + arguments
        process.standardOutput = Pipe()
        try process.run()
        return process
    }

    /// The HTTP status a `curlInBackground` was answered with, once it was.
    private func status(_ process: Process) -> String {
        process.waitUntilExit()
        let data = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A whole (empty) batch pushed by `device` to `server`, as its terminal sends one, in the background.
    private func push(_ device: String, to server: String, token: Int = 0) throws -> Process {
        try curlInBackground(as: device, ["-X", "POST", "-H", "Content-Type: application/json", "-H", "X-Vocab-Request: 1", "--data", "[]",
                                          server + "/api/v1/sync/push?token=\(token)&fresh=0"])
    }

    /// Bodies being received hold no slot: a push that names no device is refused from its head
    /// (its body dropped for 5 s and 4 MiB at most, then its connection closed — the bytes are
    /// checked exactly, the time only as "it ends"; one that waits for our word is answered at once); a learner's slow pushes — more than the eight slots there once
    /// were — hold nothing of his own whole push nor of alice's sync; and a body that comes
    /// slower than the slowest rate (4 KiB a second past its first 10 s) is cut off, which the
    /// idle bound never would.
    func testSlowBodiesHoldNoSlotAndAreCutOffWhenTooSlow() throws {
        let alice = try newUser(), bob = try newUser()
        let server = try startServer("slots", tls: false)
        let port = try XCTUnwrap(server.split(separator: ":").last.flatMap { Int($0) })
        try signIn("desk", to: server, as: alice)
        try signIn("bobs", to: server, as: bob)
        let pushPath = "/api/v1/sync/push?token=0&fresh=0"

        // Eight pushes with no device, as slow as can be: refused from their heads; their bodies
        // are dropped as they come for 5 s at most, then they are cut off.
        let anonymous = try (0..<8).map { _ in try SlowSender(port: port, path: pushPath, length: 100_000) }
        XCTAssertTrue(waitUntil(30) {
            anonymous.forEach { $0.sendByte() }
            usleep(500_000)
            return anonymous.allSatisfy { $0.closedUnanswered(waitingAtMost: 0) }
        }, "the anonymous bodies are cut off within the drain's time")
        // The drain's other bound, its bytes (4 MiB): a refused body sent as fast as the server
        // takes it is cut off long before its 64 MiB (without the bound, loopback would carry all
        // of it within the drain's 5 s; what the kernel's buffers hold on either side is the rest).
        let flood = try SlowSender(port: port, path: pushPath, length: 64 << 20)
        let taken = flood.sendFast(upTo: 64 << 20)
        XCTAssertLessThan(taken, 32 << 20, "a refused body is dropped for 4 MiB at most, then its connection closed (\(taken) bytes taken)")
        // Asking to wait for the server's word (as curl does for large bodies), one is answered at once.
        let asking = try SlowSender(port: port, path: pushPath, headers: ["Expect: 100-continue"], length: 100_000)
        XCTAssertEqual(asking.status(waitingAtMost: 30), 401, "refused at once")

        // Ten slow pushes of bob's, then a whole one: it is answered.
        let bobs = try (0..<10).map { _ in try SlowSender(port: port, path: pushPath, headers: [try bearer("bobs")], length: 100_000) }
        XCTAssertTrue(bobs.allSatisfy { $0.sendByte() })
        XCTAssertEqual(status(try push("bobs", to: server)), "200", "bob's whole batch is answered beside his slow ones")
        XCTAssertTrue(bobs.allSatisfy { $0.status(waitingAtMost: 0) == nil }, "his slow ones still coming")

        try on("desk", ["book", "add", "Hers"]).expectSuccess()
        var environment = device("desk")
        environment["VOCAB_CLOUD_TIMEOUT"] = "5"
        let hers = try vocab.run(["sync"], environment: environment)
        XCTAssertEqual(hers.status, 0, "alice pushes beside bob's slow batches: \(hers.stderr)")

        // They go on sending a byte every 2 s: past 10 s, below 4 KiB a second, they are cut off.
        XCTAssertTrue(waitUntil(40) {
            bobs.forEach { $0.sendByte() }
            sleep(2)
            return bobs.allSatisfy { $0.closedUnanswered(waitingAtMost: 0) }
        }, "a body sent a byte at a time is cut off")
        try syncs("bobs")
        try syncs("desk")
    }

    /// The operator's set-up docs/operating.md shows: HAProxy (docs/haproxy.cfg, its ports and
    /// certificate put in) terminating HTTPS in front of two servers behind it. Devices sign in
    /// and sync through it and converge; each device's requests go to one server (a hash of its
    /// token: a terminal's Authorization, a phone's cookie), a request with no token to either.
    func testThroughHAProxyBeforeTwoServersDevicesConverge() throws {
        let user = try newUser()
        var backends: [String] = []
        for name in ["one", "two"] {
            backends.append(try startServer(name, tls: false, options: ["--behind-proxy"]))
        }
        let proxy = try startHAProxy(before: backends, namingTheBackend: true)
        let (front, certificate) = (proxy.front, proxy.certificate)
        XCTAssertTrue(waitUntil(10) {
            (try? vocab.run(["login", front.replacingOccurrences(of: "://", with: "://\(user)@"), "--device-name", "desk", "--ca-file", certificate],
                            environment: device("desk").merging(["VOCAB_PASSWORD": "pw"]) { $1 }).status) == 0
        }, "desk signs in through HAProxy")
        try signIn("laptop", to: front, as: user)
        try on("desk", ["book", "add", "Proxied"]).expectSuccess()
        for word in ["one", "two", "three", "four"] {
            try on("desk", ["word", "add", word, "--book", "Proxied"]).expectSuccess()
            try syncs("desk")  // each sync's requests go to one server or the other
        }
        try syncs("laptop")
        XCTAssertEqual(try words("laptop"), ["four", "one", "three", "two"])
        try on("laptop", ["word", "delete", "two"]).expectSuccess()
        try syncs("laptop")
        try syncs("desk")
        XCTAssertEqual(try words("desk"), ["four", "one", "three"])

        // Which server answered each of six requests.
        func answering(_ arguments: [String]) throws -> Set<String> {
            var seen: Set<String> = []
            for _ in 0..<6 {
                let headers = try curl(["-o", "/dev/null", "-D", "-", "--cacert", certificate] + arguments)
                let line = headers.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("x-vocab-backend:") }
                seen.insert(String(try XCTUnwrap(line, headers).dropFirst("x-vocab-backend:".count)).trimmingCharacters(in: .whitespaces))
            }
            return seen
        }
        let bearer = try self.bearer("desk")
        XCTAssertEqual(try answering(["-H", bearer, front + "/api/v1/account"]).count, 1, "a terminal's requests go to one server")
        let jar = vocab.file("phone-cookies")
        let signedIn = try curl(["-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, "-c", jar, "-X", "POST",
                                 "-H", "X-Vocab-Request: 1", "-d", #"{"user":"\#(user)","password":"pw"}"#, front + "/api/signin"])
        XCTAssertEqual(signedIn, "200")
        XCTAssertEqual(try answering(["-b", jar, front + "/api/books"]).count, 1, "a phone's requests go to one server")
        XCTAssertEqual(try answering([front + "/api/meta"]).count, 2, "requests with no device's token go to either")
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
