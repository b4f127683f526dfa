import Foundation
import XCTest
import VocabAnki
import VocabArchives
import VocabCloudAPI
import VocabCore
@testable import VocabSessions
import VocabStore
@testable import VocabAnkiSync

/// Media files an app sends, through the translator into a real store: what Anki's apps send is
/// kept byte for byte; every hostile shape (a path, a dot name, a name not in NFC, a compressed
/// or damaged entry, too many files, an empty one, an entry the list lacks) is refused in words
/// the app shows, and changes nothing.
final class AnkiMediaUploadTests: XCTestCase {
    /// Signs every app in as the one learner of a store (the sign-in is not under test here).
    private struct OneLearner: AnkiSyncAccounts {
        let pool: LibraryPool
        func signIn(user: String, password: String, label: String, peer: String) throws -> String { "key" }
        func serve(key: String, peer: String, _ body: (AnkiLearner) throws -> AnkiSyncReply) throws -> AnkiSyncReply {
            guard key == "key" else { throw Refusal.deviceSignedOut }
            return try body(AnkiLearner(account: "me", pool: pool))
        }
    }

    private var pool: LibraryPool!
    private var server: AnkiSyncServer!

    override func setUpWithError() throws {
        let folder = NSTemporaryDirectory() + "vocab-anki-media-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        pool = try LibraryPool(folder: folder, watchingOtherProcesses: false)
        server = AnkiSyncServer(accounts: OneLearner(pool: pool))
    }

    /// Posts `body` to `call`; returns the status and the unpacked answer.
    private func post(_ call: AnkiSyncCall, _ body: [UInt8], key: String = "key") throws -> (status: Int, body: [UInt8]) {
        let header = #"{"v":11,"k":"\#(key)","c":"26.09,test,linux","s":"s"}"#
        let reply = server.answer(AnkiSyncExchange(method: "POST", path: call.path, header: header, body: try Zstd.compress(body), peer: "127.0.0.1"))
        guard reply.status == 200 else { return (reply.status, reply.body) }
        return (reply.status, try Zstd.decompress(reply.body, bound: 64 << 20))
    }

    private func json(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes) }

    /// An upload as Anki's apps pack one: entries named by place, and `_meta` listing
    /// `[name, place]` (null for a deletion).
    private func upload(_ files: [(String, [UInt8]?)]) -> [UInt8] {
        var entries: [(name: String, data: [UInt8])] = []
        var meta: [JSONValue] = []
        for (index, (name, data)) in files.enumerated() {
            if let data { entries.append((String(index), data)) }
            meta.append(.array([.string(name), data == nil ? .null : .string(String(index))]))
        }
        entries.append(("_meta", Array(JSONValue.array(meta).compact.utf8)))
        return StoredZip.bytes(of: entries)
    }

    private func kept() throws -> [AnkiMediaEntry] { try pool.read { try $0.store.ankiMediaChanges(after: 0, limit: 100) } }

    func testFilesAreKeptByteForByteAndDeletionsListed() throws {
        let picture = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let answer = try json(try post(.uploadChanges, upload([("사과.jpg", picture), ("sound.mp3", Array("mp3".utf8))])).body)
        XCTAssertEqual(answer["err"]?.stringValue, "")
        XCTAssertEqual(answer["data"], .array([.int(2), .int(2)]), "two processed, the media now at number 2")
        XCTAssertEqual(try kept().map(\.name), ["사과.jpg", "sound.mp3"])

        // The same again changes nothing; a deletion is a change of its own.
        _ = try post(.uploadChanges, upload([("사과.jpg", picture)]))
        let deleted = try json(try post(.uploadChanges, upload([("sound.mp3", nil)])).body)
        XCTAssertEqual(deleted["data"], .array([.int(1), .int(3)]))
        let changes = try json(try post(.mediaChanges, Array(#"{"lastUsn":2}"#.utf8)).body)
        XCTAssertEqual(changes["data"], .array([.array([.string("sound.mp3"), .int(3), .string("")])]))

        // Asked for, the file comes back in a zip of the protocol's shape, byte for byte.
        let zip = try post(.downloadFiles, Array(#"{"files":["사과.jpg"]}"#.utf8)).body
        let entries = try StoredZip.entries(of: zip, maxEntries: 10, maxEntryBytes: 1 << 20)
        XCTAssertEqual(entries.map(\.name), ["0", "_meta"])
        XCTAssertEqual(entries.first?.data, picture)
        XCTAssertEqual(try json(entries[1].data), .object([("0", .string("사과.jpg"))]))
        XCTAssertEqual(try json(try post(.mediaSanity, Array(#"{"local":1}"#.utf8)).body)["data"], .string("OK"))
        XCTAssertEqual(try json(try post(.mediaSanity, Array(#"{"local":2}"#.utf8)).body)["data"], .string("mediaSanity"))
        // A deleted file asked for is gone: the app is told to sync again.
        XCTAssertEqual(try post(.downloadFiles, Array(#"{"files":["sound.mp3"]}"#.utf8)).status, 409)
    }

    func testHostileUploadsAreRefusedAndChangeNothing() throws {
        _ = try post(.uploadChanges, upload([("kept.txt", Array("kept".utf8))]))
        let before = try kept()
        let one = Array("x".utf8)
        var compressed = upload([("a.txt", one)])
        compressed[8] = 8  // the first entry's method: deflate
        var damaged = upload([("a.txt", one)])
        damaged[30 + 1] ^= 0xFF  // the first entry's content, after its header and one-byte name
        let hostile: [(String, [UInt8])] = [
            ("a path", upload([("../../etc/passwd", one)])),
            ("a folder", upload([("sub/a.txt", one)])),
            ("a backslash", upload([("sub\\a.txt", one)])),
            ("a dot name", upload([("..", one)])),
            ("a control character", upload([("a\u{1}.txt", one)])),
            ("a name not in NFC", upload([("e\u{301}.txt", one)])),
            ("a name too long", upload([(String(repeating: "a", count: 256), one)])),
            ("an empty file", upload([("a.txt", [])])),
            ("a name twice", upload([("a.txt", one), ("a.txt", one)])),
            ("too many files", upload((0...AnkiMediaBounds.filesPerUpload).map { ("f\($0).txt", one) })),
            ("a compressed entry", compressed),
            ("a damaged entry", damaged),
            ("no list", StoredZip.bytes(of: [("0", one)])),
            ("a list naming no entry", StoredZip.bytes(of: [("_meta", Array(#"[["a.txt","7"]]"#.utf8))])),
            ("the list as a file", StoredZip.bytes(of: [("_meta", Array(#"[["a.txt","_meta"]]"#.utf8))])),
            ("not a zip", Array("hello".utf8)),
        ]
        for (what, body) in hostile {
            let reply = try post(.uploadChanges, body)
            XCTAssertEqual(reply.status, 200, what)
            let answer = try json(reply.body)
            XCTAssertNil(answer["data"], what)
            XCTAssertEqual(answer["err"]?.stringValue, Refusal.ankiMediaUnreadable.message, what)
        }
        XCTAssertEqual(try kept(), before, "nothing was kept of any")
        XCTAssertEqual(try post(.uploadChanges, upload([("a.txt", one)]), key: "stranger").status, 403, "a key not signed in")
        XCTAssertEqual(try kept(), before)
    }

    func testADownloadStopsAtItsBoundAndTheAppAsksForTheRest() throws {
        let big = [UInt8](repeating: 7, count: 9 << 20)
        for name in ["one.mp4", "two.mp4", "three.mp4"] {
            _ = try post(.uploadChanges, upload([(name, big + Array(name.utf8))]))
        }
        let names = #"{"files":["one.mp4","two.mp4","three.mp4"]}"#
        let first = try StoredZip.entries(of: try post(.downloadFiles, Array(names.utf8)).body, maxEntries: 200, maxEntryBytes: 32 << 20)
        XCTAssertEqual(first.count, 2, "one file of 9 MiB fits in the 16 MiB an answer holds, with its list")
        let rest = #"{"files":["two.mp4","three.mp4"]}"#
        let second = try StoredZip.entries(of: try post(.downloadFiles, Array(rest.utf8)).body, maxEntries: 200, maxEntryBytes: 32 << 20)
        XCTAssertEqual(second.first?.data, big + Array("two.mp4".utf8))
        let tooMany = JSONValue.object([("files", .array((0...AnkiMediaBounds.filesPerDownload).map { .string("f\($0)") }))])
        XCTAssertEqual(try post(.downloadFiles, Array(tooMany.compact.utf8)).status, 400)
    }
}
