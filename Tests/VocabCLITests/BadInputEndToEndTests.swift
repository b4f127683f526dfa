import Foundation
import XCTest

/// Every bad input gets one clear line on stderr, the exit code of DESIGN.md §8, and changes nothing.
final class BadInputEndToEndTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try vocab.ok(["book", "add", "TOEIC"])
        try vocab.ok(["word", "add", "abandon", "--book", "TOEIC", "-d", "to leave"])
    }

    func testUserErrorsChangeNothingAndExitWithOne() throws {
        let before = try vocab.storeSnapshot()
        let cases: [([String], String)] = [
            (["word", "list", "--book", "nope"], "No book named \"nope\""),
            (["word", "show", "missing"], "No word \"missing\""),
            (["book", "add", "toeic"], "already exists"),
            (["word", "add", "   ", "--book", "TOEIC"], "must not be empty"),
            (["book", "add", ""], "must not be empty"),
            (["word", "add", "abandon", "--book", "TOEIC"], "already in book"),
            (["word", "add", "x", "--book", "TOEIC", "--date", "yesterday"], "is not a date"),
            (["book", "add", "Pics", "--image", vocab.file("missing.png")], "Cannot read"),
            (["book", "add", "Pics", "--image", vocab.root], "it is a folder"),
            (["book", "rename", "TOEIC", "  "], "must not be empty"),
            (["word", "edit", "abandon", "--move-to", "Nowhere"], "No book named"),
        ]
        for (arguments, expected) in cases {
            let error = try vocab.fails(arguments, status: 1)
            XCTAssertTrue(error.contains(expected), "\(arguments): \(error)")
        }
        XCTAssertEqual(try vocab.storeSnapshot(), before)
    }

    func testImagesThatAreTooLargeOrNotImagesAreRefused() throws {
        let before = try vocab.storeSnapshot()
        let big = [UInt8]([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + [UInt8](repeating: 7, count: 2 * 1_048_576)
        try Data(big).write(to: URL(fileURLWithPath: vocab.file("big.png")))
        try Data("just text".utf8).write(to: URL(fileURLWithPath: vocab.file("fake.png")))
        XCTAssertTrue(try vocab.fails(["book", "add", "Big", "--image", vocab.file("big.png")], status: 1).contains("2 MiB; the limit is 1 MiB"))
        XCTAssertTrue(try vocab.fails(["book", "edit", "TOEIC", "--image", vocab.file("fake.png")], status: 1).contains("not a PNG"))
        XCTAssertEqual(try vocab.storeSnapshot(), before)
    }

    func testUsageErrorsExitWithTwo() throws {
        let cases: [([String], String)] = [
            (["frobnicate"], "Unknown command"),
            (["boook"], "Did you mean `vocab book`"),
            (["word", "show"], "Missing WORD"),
            (["word", "add", "x", "--bok", "TOEIC"], "Did you mean --book"),
            (["word", "add", "x", "--book"], "needs a value"),
            (["word", "list", "--json=yes"], "takes no value"),
            (["book", "add", "two", "words"], "Unexpected argument"),
            (["book", "edit", "TOEIC"], "a field to change"),
            (["word", "list", "--memorized", "--not-memorized"], "cannot be used together"),
        ]
        for (arguments, expected) in cases {
            let error = try vocab.fails(arguments, status: 2)
            XCTAssertTrue(error.contains(expected), "\(arguments): \(error)")
        }
    }

    func testAFileThatIsNotAVocabStoreIsRefusedAndLeftAlone() throws {
        let other = vocab.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let text = Data("this is somebody's notes, not a database\n".utf8)
        try text.write(to: URL(fileURLWithPath: other + "/vocab.sqlite"))
        let result = try vocab.run(["book", "list"], environment: ["VOCAB_HOME": other])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("vocab: "), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: other + "/vocab.sqlite")), text)
    }

    func testACorruptStoreIsReportedNotCrashedOn() throws {
        let path = vocab.home + "/vocab.sqlite"
        for _ in 0..<50 { try vocab.ok(["word", "add", UUID().uuidString, "--book", "TOEIC", "-d", String(repeating: "x", count: 300)]) }
        // Checkpoint the WAL into the main file, then damage the file's pages past the header.
        try vocab.ok(["book", "list"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertGreaterThan(bytes.count, 8192)
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 13) }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try vocab.run(["word", "list"])
        XCTAssertEqual(result.status, 4, "stdout: \(result.stdout.prefix(200)) stderr: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("damaged") || result.stderr.contains("not a Vocab store"), result.stderr)
    }

    func testADataFolderThatCannotBeWrittenGivesAClearError() throws {
        // /proc refuses new folders even to root, which CI runs as.
        let result = try vocab.run(["book", "add", "X"], environment: ["VOCAB_HOME": "/proc/vocab-test/data"])
        XCTAssertEqual(result.status, 5, "the store's own failure, not bad input: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("Cannot create the data folder"), result.stderr)
    }

    func testAReadOnlyStoreFolderGivesAClearErrorAndChangesNothing() throws {
        // Read-only for everybody, root included: a store inside a read-only file system.
        let result = try vocab.run(["book", "add", "X"], environment: ["VOCAB_HOME": "/proc/self"])
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertTrue(result.stderr.contains("VOCAB_HOME"), result.stderr)
        _ = try vocab.ok(["book", "add", "Old"])  // a store to find read-only
        var folder = vocab.home, binary = VocabRunner.binary, arguments = ["book", "add", "New"]
        let place = "/tmp/vocab-read-only-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: place) }
        if getuid() == 0 {
            // Root (as CI runs) is stopped by no mode: the store is handed to `nobody`, who then
            // finds its folder read-only — run as him through util-linux's setpriv.
            try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            folder = place + "/data"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            for name in ["vocab.sqlite", "vocab.sqlite-wal", "vocab.sqlite-shm"] where FileManager.default.fileExists(atPath: vocab.home + "/" + name) {
                try FileManager.default.copyItem(atPath: vocab.home + "/" + name, toPath: folder + "/" + name)
            }
            for path in [folder] + (try FileManager.default.contentsOfDirectory(atPath: folder)).map({ folder + "/" + $0 }) {
                XCTAssertEqual(chown(path, 65_534, 65_534), 0, path)
            }
            binary = "/usr/bin/setpriv"
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", VocabRunner.binary] + arguments
        }
        XCTAssertEqual(chmod(folder, 0o500), 0)
        defer { chmod(folder, 0o700) }
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/vocab.sqlite"))
        let write = try vocab.run(arguments, environment: ["VOCAB_HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "VOCAB_BACKGROUND": "off"],
                                  binary: binary)
        XCTAssertEqual(write.status, 5, write.stderr)
        XCTAssertTrue(write.stderr.contains("read-only"), write.stderr)
        XCTAssertEqual(write.stderr.split(separator: "\n").count, 1, write.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/vocab.sqlite")), before)
    }

    /// Needs no server: none listens on port 1 (it ran with the cloud tests, skipped with them).
    func testAnUnreachableServerIsRefusedWithExitCodeThree() throws {
        let result = try vocab.run(["login", "http://nobody@127.0.0.1:1"], input: "pw\n",
                                   environment: ["XDG_CONFIG_HOME": vocab.file("config"), "PGPASSWORD": ""])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("Cannot reach"), result.stderr)
        try vocab.fails(["login", "postgresql://alice:pw@localhost/db"], status: 1)
    }

    /// A saved login that cannot be read is said to be so, not taken for "not logged in".
    func testAnUnreadableLoginFileIsNotNotLoggedIn() throws {
        let config = vocab.file("config")
        try FileManager.default.createDirectory(atPath: config + "/vocab/cloud.json", withIntermediateDirectories: true)
        let result = try vocab.run(["account"], environment: ["XDG_CONFIG_HOME": config])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("cannot be read (it is a folder)"), result.stdout + result.stderr)
        XCTAssertFalse(result.stdout.contains("not logged in"), result.stdout)
    }
}
