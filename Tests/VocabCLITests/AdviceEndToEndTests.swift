import Foundation
import XCTest

/// Every piece of advice Vocab prints, followed literally, loses nothing: each test reads the
/// command out of the message Vocab printed, runs it as printed (adding only `--yes`, which a
/// terminal would have asked for), and checks that every word is there.
final class AdviceEndToEndTests: EndToEndTestCase {
    /// The words of `book` in a store: one CSV of `count` generated words.
    private func fill(_ book: String, count: Int) throws -> Set<String> {
        let words = (0..<count).map { "\(book.lowercased())\($0)" }
        let csv = "word,definition\n" + words.map { "\($0),meaning of \($0)\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: vocab.file(book + ".csv")))
        _ = try vocab.ok(["import", vocab.file(book + ".csv"), "--book", book])
        return Set(words)
    }

    /// Every word in the store, by its text.
    private func wordsInStore(file: StaticString = #filePath, line: UInt = #line) throws -> Set<String> {
        let result = try vocab.run(["word", "list", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], file: file, line: line)
        return Set(rows.compactMap { $0["word"] as? String })
    }

    /// Overwrites all but the header of the store file, as a failing disk or another program might.
    private func damageTheStore() throws {
        let store = vocab.home + "/vocab.sqlite"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store)))
        XCTAssertGreaterThan(bytes.count, 4096)
        for index in 100..<bytes.count { bytes[index] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: store))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    }

    /// Follows the first `vocab …` command the message gives between backticks.
    private func follow(_ message: String, adding extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let command = try XCTUnwrap(AdviceText.commands(in: message).first, "no command in: \(message)", file: file, line: line)
        return try vocab.run(command + extra)
    }

    /// Issue 24's report, as it happened: a delete undone by `restore latest`, then damage, then
    /// the damage message's own command. The before-restore snapshot (an emptied store) is newer
    /// than the backup restored, but the restored state is newer still and is what comes back.
    func testTheDamageAdviceAfterAnUndoneDeleteBringsBackEveryWord() throws {
        let words = try fill("Keep", count: 5_000)
        _ = try vocab.ok(["book", "delete", "Keep", "--yes"])
        XCTAssertTrue(try wordsInStore().isEmpty)
        let undone = try vocab.run(["backup", "restore", "latest", "--yes"])
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(try wordsInStore(), words)
        try damageTheStore()
        let damaged = try vocab.run(["word", "list"])
        XCTAssertEqual(damaged.status, 4, damaged.stderr)
        let restored = try follow(damaged.stderr, adding: ["--yes"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.contains("5000 words"), restored.stdout)
        XCTAssertEqual(try wordsInStore(), words, "every word is back")
    }

    /// A damaged newest backup: the message and `latest` both mean the newest good one.
    func testTheDamageAdviceSkipsADamagedNewestBackup() throws {
        let words = try fill("Keep", count: 300)
        _ = try vocab.ok(["backup", "--now", "2030-01-01T00:00:00Z"])
        _ = try vocab.ok(["backup", "--now", "2030-01-02T00:00:00Z"])
        let newest = vocab.home + "/backups/vocab-20300102T000000Z-manual.sqlite"
        XCTAssertTrue(FileManager.default.fileExists(atPath: newest))
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: newest))
        try damageTheStore()
        let damaged = try vocab.run(["word", "list"])
        XCTAssertEqual(damaged.status, 4, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("2030-01-01T00:00:00"), "names the good one: \(damaged.stderr)")
        let restored = try follow(damaged.stderr, adding: ["--yes"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try wordsInStore(), words)
    }

    /// The delete's "Undo:" line, run as printed, after more work happened in between.
    func testTheUndoAdviceOfABookDeleteBringsBackEveryWord() throws {
        let kept = try fill("Keep", count: 500)
        let deleted = try vocab.ok(["book", "delete", "Keep", "--yes"])
        let undo = try XCTUnwrap(deleted.split(separator: "\n").first { $0.hasPrefix("Undo: ") }, deleted)
        let command = undo.dropFirst("Undo: ".count).split(separator: " ").map(String.init)
        XCTAssertEqual(command.first, "vocab")
        _ = try vocab.ok(["backup"])  // a newer backup of the store without the book
        let restored = try vocab.run(Array(command.dropFirst()) + ["--yes"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try wordsInStore(), kept)
        // And the restored state is now what "latest" means.
        try damageTheStore()
        let damaged = try vocab.run(["word", "list"])
        XCTAssertEqual(try follow(damaged.stderr, adding: ["--yes"]).status, 0)
        XCTAssertEqual(try wordsInStore(), kept)
    }

    /// An import refused for one bad line says to skip it; doing so keeps every word the store
    /// had and adds the good lines (the store was backed up before, as it held words).
    func testTheImportAdviceToSkipInvalidLinesLosesNoWord() throws {
        let before = try fill("Keep", count: 200)
        try Data("word,definition\nfresh1,new\n,no word here\nfresh2,new\n".utf8)
            .write(to: URL(fileURLWithPath: vocab.file("bad.csv")))
        let command = ["import", vocab.file("bad.csv"), "--book", "Keep"]
        let refused = try vocab.run(command)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(try wordsInStore(), before, "a refused import changes nothing")
        let flag = try XCTUnwrap(refused.stderr.range(of: "use --[a-z-]+", options: .regularExpression).map {
            String(refused.stderr[$0].dropFirst(4))
        }, refused.stderr)
        let followed = try vocab.run(command + [flag])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertEqual(try wordsInStore(), before.union(["fresh1", "fresh2"]))
        XCTAssertTrue(try vocab.ok(["backup", "list"]).contains("before-import"))
    }
}

/// The advice a sync prints, followed literally against the real PostgreSQL.
final class CloudAdviceEndToEndTests: CloudEndToEndTestCase {
    private func words(on device: String, file: StaticString = #filePath, line: UInt = #line) throws -> Set<String> {
        let result = try on(device, ["word", "list", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], file: file, line: line)
        return Set(rows.compactMap { $0["word"] as? String })
    }

    private func addWords(_ prefix: String, count: Int, on device: String) throws -> Set<String> {
        let words = (0..<count).map { "\(prefix)\($0)" }
        let csv = "word,definition\n" + words.map { "\($0),meaning\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: vocab.file(prefix + ".csv")))
        let imported = try on(device, ["import", vocab.file(prefix + ".csv"), "--book", prefix])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        return Set(words)
    }

    /// "Sync stopped: … run `vocab sync` again": the server held the records table past the
    /// sync's time limit; once it lets go, the advised command finishes and every word arrives.
    func testTheAdviceToSyncAgainAfterAStoppedSyncLosesNothing() throws {
        _ = try setUpUser()
        var held = try addWords("first", count: 1, on: "a")
        try syncs("a")  // the account's row on the server exists from here on
        held.formUnion(try addWords("held", count: 400, on: "a"))
        // Maintenance: the administrator holds the accounts' rows (a push waits for its own), in
        // a psql left running; the account check before the sync reads no locked row.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = ["-X", "-q", "-d", adminURL, "-c",
                            "BEGIN; SELECT 1 FROM vocab.accounts FOR UPDATE; SELECT pg_sleep(600);"]
        holder.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": adminPassword]) { $1 }
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        var locked = false
        for _ in 0..<300 where !locked {
            locked = try adminSQL("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND state = 'active' AND pid <> pg_backend_pid()") == "1"
            if !locked { usleep(100_000) }
        }
        XCTAssertTrue(locked, "the lock was taken")
        let stopped = try vocab.run(["sync"], environment: device("a").merging(["VOCAB_CLOUD_TIMEOUT": "2"]) { $1 })
        XCTAssertEqual(stopped.status, 3, stopped.stderr)
        // The holder's session ends (its client going away would not end a sleeping backend).
        _ = try adminSQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()")
        holder.waitUntilExit()
        let command = try XCTUnwrap(AdviceText.commands(in: stopped.stderr).first, stopped.stderr)
        XCTAssertEqual(command, ["sync"], stopped.stderr)
        let again = try on("a", command)
        XCTAssertEqual(again.status, 0, again.stderr)
        try syncs("b")
        XCTAssertEqual(try words(on: "b"), held)
        XCTAssertEqual(try words(on: "a"), held)
    }

    /// The message of a folder bound to alice, used while logged in as bob, gives three ways on;
    /// each, followed as written, keeps every word of the folder and of both accounts.
    func testEachWayTheAccountBindingAdviceGivesLosesNothing() throws {
        let alice = try setUpUser(devices: ["a", "alice2"])
        let bob = try setUpUser(devices: ["bob"])
        let aliceWords = try addWords("alice", count: 300, on: "a")
        let bobWords = try addWords("bob", count: 50, on: "bob")
        try syncs("a")
        try syncs("bob")
        func refusal() throws -> String {
            XCTAssertEqual(try on("a", ["logout"]).status, 0)
            XCTAssertEqual(try on("a", ["login", bob], input: "pw\n").status, 0)
            let refused = try on("a", ["sync"])
            XCTAssertEqual(refused.status, 3, refused.stderr)
            return refused.stderr
        }

        // 1. "use another data folder for this login (VOCAB_HOME=/path/to/folder vocab sync)"
        let message = try refusal()
        let example = try XCTUnwrap(message.range(of: #"VOCAB_HOME=\S+ vocab sync"#, options: .regularExpression), message)
        let otherFolder = vocab.file("other-folder")
        let advised = message[example].split(separator: " ").dropFirst(2).map(String.init)  // after "VOCAB_HOME=… vocab"
        let inOtherFolder = try vocab.run(advised, environment: device("a").merging(["VOCAB_HOME": otherFolder]) { $1 })
        XCTAssertEqual(inOtherFolder.status, 0, inOtherFolder.stderr)
        XCTAssertEqual(try words(on: "a"), aliceWords, "the folder keeps alice's words")
        let other = try vocab.run(["word", "list", "--json"], environment: device("a").merging(["VOCAB_HOME": otherFolder]) { $1 })
        XCTAssertTrue(bobWords.allSatisfy { other.stdout.contains("\"\($0)\"") }, "the new folder has bob's words")

        // 2. "or log in to ALICE again"
        let bound = try XCTUnwrap(message.range(of: #"log in to \S+ again"#, options: .regularExpression), message)
        let boundAccount = message[bound].split(separator: " ")[3]
        XCTAssertTrue(alice.contains(boundAccount), "\(boundAccount) is alice's account \(alice)")
        XCTAssertEqual(try on("a", ["logout"]).status, 0)
        let login = try on("a", ["login", String(boundAccount)], input: "pw\n")
        XCTAssertEqual(login.status, 0, "\(message)\n\(login.stderr)")
        try syncs("a")
        try syncs("alice2")
        XCTAssertEqual(try words(on: "alice2"), aliceWords)

        // 3. "run `vocab sync --copy-into-account BOB`"
        let copy = try XCTUnwrap(AdviceText.commands(in: try refusal()).first)
        XCTAssertEqual(copy, ["sync", "--copy-into-account", userName(bob)])
        let copied = try on("a", copy)
        XCTAssertEqual(copied.status, 0, copied.stderr)
        try syncs("bob")
        XCTAssertEqual(try words(on: "bob"), bobWords.union(aliceWords), "bob's account has both")
        try syncs("alice2")
        XCTAssertEqual(try words(on: "alice2"), aliceWords, "alice's account keeps all of hers")
        XCTAssertEqual(try words(on: "a"), aliceWords.union(bobWords))
    }
}

/// The commands a message gives between backticks, as arguments after `vocab`.
enum AdviceText {
    static func commands(in message: String) -> [[String]] {
        message.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasPrefix("vocab ") }
            .map { $0.element.split(separator: " ").dropFirst().map(String.init) }
    }
}
