import Foundation
import XCTest

/// Backups as a user meets them: taken by themselves, before a delete, restored in one
/// command, named when the store is damaged, kept by the retention policy.
final class BackupEndToEndTests: EndToEndTestCase {
    private var backups: String { vocab.home + "/backups" }

    /// An environment whose config.json sets `"backups": settings` (a JSON object).
    private func configured(backups settings: String) throws -> [String: String] {
        let config = vocab.root + "/config"
        try FileManager.default.createDirectory(atPath: config + "/vocab", withIntermediateDirectories: true)
        try #"{"backups": \#(settings)}"#.write(toFile: config + "/vocab/config.json", atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": config]
    }

    private func backupFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: backups)) ?? []).filter { $0.hasPrefix("vocab-") }.sorted()
    }

    func testABackupIsTakenByItselfAfterAChangeAndIsPrivate() throws {
        _ = try vocab.ok(["book", "add", "TOEIC"])
        let deadline = Date().addingTimeInterval(20)
        while backupFiles().isEmpty && Date() < deadline { usleep(100_000) }
        let files = backupFiles()
        XCTAssertEqual(files.count, 1, "one automatic backup: \(files)")
        XCTAssertTrue(files.first?.hasSuffix("-auto.sqlite") ?? false, "\(files)")
        let folderMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: backups)[.posixPermissions] as? Int)
        XCTAssertEqual(folderMode & 0o777, 0o700)
        let fileMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: backups + "/" + files[0])[.posixPermissions] as? Int)
        XCTAssertEqual(fileMode & 0o777, 0o600)
        // Not due again so soon: the next change starts no second backup (whatever upkeep it
        // started has ended when the count is read).
        _ = try vocab.ok(["book", "add", "Second"])
        XCTAssertTrue(vocab.waitForBackgroundUpkeep())
        XCTAssertEqual(backupFiles().count, 1)
    }

    func testABookDeletedByMistakeComesBackWithOneCommand() throws {
        _ = try vocab.ok(["book", "add", "TOEIC"])
        for word in ["abandon", "brave", "calm"] { _ = try vocab.ok(["word", "add", word, "--book", "TOEIC"]) }
        _ = try vocab.ok(["review", "brave", "--rating", "good"])
        let deleted = try vocab.ok(["book", "delete", "TOEIC", "--yes"])
        let undo = try XCTUnwrap(deleted.split(separator: "\n").first { $0.hasPrefix("Undo: ") }, deleted)
        XCTAssertEqual(try vocab.ok(["word", "list", "--json"]).trimmingCharacters(in: .whitespacesAndNewlines), "[]")
        let list = try vocab.ok(["backup", "list"])
        XCTAssertTrue(list.contains("before-delete"), list)
        let restored = try vocab.ok(["backup", "restore", String(undo.dropFirst("Undo: vocab backup restore ".count)), "--yes"])
        XCTAssertTrue(restored.contains("3 words"), restored)
        XCTAssertTrue(try vocab.ok(["word", "list", "--json"]).contains("calm"))
        XCTAssertTrue(try vocab.ok(["word", "show", "brave", "--json"]).contains("\"reviews\" : 1")
                      || (try vocab.ok(["word", "show", "brave", "--json"])).contains("\"reviews\": 1"), "its review too")
        // The store as it was before the restore was itself backed up.
        XCTAssertTrue(backupFiles().contains { $0.hasSuffix("-before-restore.sqlite") }, "\(backupFiles())")
        // Asked on no terminal without --yes: refused, nothing changed.
        let refused = try vocab.run(["backup", "restore", "latest"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
    }

    func testADamagedStoreNamesItsNewestGoodBackupAndTheRestoreBringsItBack() throws {
        _ = try vocab.ok(["book", "add", "Fruit"])
        _ = try vocab.ok(["word", "add", "apple", "--book", "Fruit"])
        _ = try vocab.ok(["backup"])
        // Another program writes garbage over the middle of the store.
        let store = vocab.home + "/vocab.sqlite"
        _ = try vocab.ok(["book", "list"])  // checkpointed by now? make sure pages are in the main file:
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store)))
        XCTAssertGreaterThan(bytes.count, 4096)
        for index in 0..<bytes.count where index >= 100 { bytes[index] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: store))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        let damaged = try vocab.run(["word", "list"])
        XCTAssertEqual(damaged.status, 4, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("vocab backup restore latest"), damaged.stderr)
        let restored = try vocab.run(["backup", "restore", "latest", "--yes"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.contains("moved aside"), restored.stdout)
        XCTAssertTrue(try vocab.ok(["word", "list", "--json"]).contains("apple"))
    }

    func testABackupFolderThatCannotBeWrittenOrHoldsOtherFilesGetsClearMessages() throws {
        _ = try vocab.ok(["book", "add", "Kept"])
        XCTAssertTrue(vocab.waitForBackgroundUpkeep(), "the automatic backup finished")
        try? FileManager.default.removeItem(atPath: backups)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: backups))
        let refused = try vocab.run(["backup"])
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Cannot write a backup into") && refused.stderr.contains("not changed"), refused.stderr)
        XCTAssertTrue(try vocab.ok(["book", "list"]).contains("Kept"), "the store is untouched")
        try FileManager.default.removeItem(atPath: backups)
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: backups + "/notes.txt"))
        _ = try vocab.ok(["backup"])
        let list = try vocab.ok(["backup", "list"])
        XCTAssertTrue(list.contains("notes.txt") && list.contains("left alone"), list)
        XCTAssertTrue(FileManager.default.fileExists(atPath: backups + "/notes.txt"))
    }

    func testOlderAutomaticBackupsAreCompressedAndStillRestore() throws {
        let environment = try configured(backups: #"{"everyMinutes": 60}"#)
        XCTAssertEqual(try vocab.run(["book", "add", "Old"], environment: environment).status, 0)
        XCTAssertEqual(try vocab.run(["word", "add", "first", "--book", "Old"], environment: environment).status, 0)
        XCTAssertTrue(waitUntil(20) { !backupFiles().isEmpty }, "the automatic one after the first change")
        XCTAssertTrue(vocab.waitForBackgroundUpkeep(), "and it has ended (it compresses the older ones last)")
        XCTAssertEqual(try vocab.run(["backup", "--now", "2027-01-01T00:00:00Z"], environment: environment).status, 0)
        XCTAssertEqual(try vocab.run(["word", "add", "second", "--book", "Old"], environment: environment).status, 0)
        XCTAssertEqual(try vocab.run(["backup", "--auto", "--now", "2027-01-01T02:00:00Z"], environment: environment).status, 0)
        let files = backupFiles()
        XCTAssertEqual(files.count, 3, "\(files)")
        XCTAssertEqual(files.filter { $0.hasSuffix(".sqlite.gz") }.count, 2, "all but the newest are compressed: \(files)")
        XCTAssertTrue(files.last?.hasSuffix("20270101T020000Z-auto.sqlite") ?? false, "the newest stays plain: \(files)")
        let list = try vocab.ok(["backup", "list"])
        XCTAssertFalse(list.contains("damaged"), list)
        let restored = try vocab.run(["backup", "restore", "2027-01-01T01:00", "--yes"], environment: environment)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        let words = try vocab.ok(["word", "list", "--json"])
        XCTAssertTrue(words.contains("first") && !words.contains("second"), words)
    }

    func testRetentionKeepsThePromisedSetOverASimulatedYear() throws {
        // Automatic backups (taken at the real time) off for this test: a very long interval.
        let environment = try configured(backups: #"{"everyMinutes": 100000000}"#)
        XCTAssertEqual(try vocab.run(["backup", "--now", "2025-06-01T00:00:00Z"], environment: environment).status, 0)
        XCTAssertEqual(try vocab.run(["book", "add", "Year"], environment: environment).status, 0)
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let formatter = ISO8601DateFormatter()
        var taken: [Date] = []
        for step in 0..<73 {  // every 5 days for a year
            let time = start.addingTimeInterval(Double(step) * 5 * 86_400)
            taken.append(time)
            let result = try vocab.run(["backup", "--now", formatter.string(from: time)], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        // Expected, worked out by hand from the policy: the 8 newest; the newest of each of the
        // last 7 days that have one (the 7 newest, already kept); of each of the last 4 weeks
        // (the 4 newest); of each of the last 12 months.
        var expected = Set(taken.suffix(8))
        var months = [Int: Date]()
        let calendar = Calendar(identifier: .gregorian)
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC")!
        for time in taken {
            let key = utc.component(.year, from: time) * 12 + utc.component(.month, from: time)
            months[key] = max(months[key] ?? time, time)
        }
        expected.formUnion(months.keys.sorted().suffix(12).compactMap { months[$0] })
        let kept = Set(backupFiles().compactMap { name -> Date? in
            let stamp = name.dropFirst("vocab-".count).prefix(while: { $0 != "-" })
            let chars = Array(stamp)
            guard chars.count >= 16 else { return nil }
            let iso = String(chars[0..<4]) + "-" + String(chars[4..<6]) + "-" + String(chars[6..<8]) + "T"
                + String(chars[9..<11]) + ":" + String(chars[11..<13]) + ":" + String(chars[13..<15]) + "Z"
            return formatter.date(from: iso)
        })
        XCTAssertEqual(kept, expected)
    }
}
