import Foundation
import XCTest
import VocabAnki
import VocabCore
@testable import VocabSessions
import VocabStore

/// A full download's file kept ready between downloads (`AnkiDownloadReadiness`,
/// `AnkiKeptFile.ready`): a download finds it and sends it with the collection's stamps as they
/// are now, and never sends one the kept objects moved past — whether the store changed through
/// a word, an app's sync or an upload, and whether a run made ready again since or not.
final class AnkiDownloadReadinessTests: XCTestCase {
    private let now = Timestamp(milliseconds: 1_765_000_000_000)

    private struct Server {
        let pool: LibraryPool
        let folder: String
        let book: UUID
        let readiness: AnkiDownloadReadiness
    }

    private func server() throws -> Server {
        let home = NSTemporaryDirectory() + "vocab-anki-ready-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        let pool = try LibraryPool(folder: home, watchingOtherProcesses: false)
        let book = try pool.write { try $0.store.addBook(BookDraft(name: "Travel"), now: self.now).id }
        for index in 0..<3 { try addWord("word \(index)", to: pool, book: book) }
        let folder = home + "/anki-download"
        return Server(pool: pool, folder: folder, book: book,
                      readiness: AnkiDownloadReadiness(pool: pool, account: "me", folder: folder, clock: FixedClock(now)))
    }

    private func addWord(_ word: String, to pool: LibraryPool, book: UUID) throws {
        _ = try pool.write { try $0.store.addWord(WordDraft(word: word, definition: "뜻"), toBook: book, now: self.now) }
    }

    /// A full download as the app asks for it: the file's words (each note's first field, in
    /// order) and the collection's number.
    private func download(_ server: Server) throws -> (words: [String], usn: Int64) {
        let file = try AnkiCollections.kept(server.pool, account: "me", now: now, downloadFolder: server.folder) { try $0.download() }
        let path = NSTemporaryDirectory() + "vocab-anki-ready-download-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try Zstd.decompress(file.bytes, bound: 64 << 20)).write(to: URL(fileURLWithPath: path))
        let collection = try Database(path: path, create: false, readOnly: true)
        let words = try collection.query("SELECT sfld FROM notes ORDER BY sfld") { $0.text(0) }
        return (words, try collection.integer("SELECT usn FROM col"))
    }

    /// The files the folder holds (a stale one is removed once another is written).
    private func files(_ server: Server) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: server.folder)) ?? []).sorted()
    }

    /// The collection file kept, and when it was last written (a download that stamps it
    /// writes it; one that sends the compressed file kept beside it does not).
    private func keptFile(_ server: Server) -> (name: String, written: Date)? {
        guard let name = files(server).first(where: { $0.hasSuffix(".anki2") }),
              let written = (try? FileManager.default.attributesOfItem(atPath: server.folder + "/" + name))?[.modificationDate] as? Date
        else { return nil }
        return (name, written)
    }

    func testADownloadSendsTheFileMadeReadyAndNeverOneTheStoreMovedPast() throws {
        let server = try server()
        XCTAssertTrue(try server.readiness.prepareNow(), "the first run makes the file")
        let made = files(server)
        XCTAssertEqual(made.count, 2, "the file and the next download's compressed: \(made)")
        XCTAssertFalse(try server.readiness.prepareNow(), "nothing changed: nothing made again")
        XCTAssertEqual(files(server), made)
        let kept = try XCTUnwrap(keptFile(server))
        usleep(20_000)

        // Sent as it was made ready, its number past what it holds; the file kept untouched.
        let first = try download(server)
        XCTAssertEqual(first.words, ["word 0", "word 1", "word 2"])
        XCTAssertEqual(keptFile(server)?.name, kept.name)
        XCTAssertEqual(keptFile(server)?.written, kept.written, "sent as made ready, not stamped again")
        // The next download's number is another: the kept file stamped for it, then made ready again.
        let second = try download(server)
        XCTAssertEqual(second.words, first.words)
        XCTAssertEqual(second.usn, first.usn + 1, "each download's number moves on")
        XCTAssertTrue(try server.readiness.prepareNow(), "compressed again for the next number")
        let stamped = try XCTUnwrap(keptFile(server))
        usleep(20_000)
        let third = try download(server)
        XCTAssertEqual(third.usn, second.usn + 1)
        XCTAssertEqual(keptFile(server)?.written, stamped.written, "sent as made ready")

        // A word added, with no run since: the download sees the store, not the file.
        try addWord("word 3", to: server.pool, book: server.book)
        XCTAssertEqual(try download(server).words, ["word 0", "word 1", "word 2", "word 3"])
        XCTAssertNotEqual(keptFile(server)?.name, kept.name, "a new file for the objects as they are")
        XCTAssertEqual(files(server).count, 1, "the older files removed: \(files(server))")

        // A word added, then a run: the new file holds it.
        try addWord("word 4", to: server.pool, book: server.book)
        XCTAssertTrue(try server.readiness.prepareNow())
        XCTAssertEqual(try download(server).words, ["word 0", "word 1", "word 2", "word 3", "word 4"])
    }

    func testAFolderThatCannotBeWrittenOnlyCostsTheDownloadItsSpeed() throws {
        let ready = try server()
        let broken = Server(pool: ready.pool, folder: "/dev/null/anki-download", book: ready.book, readiness: ready.readiness)
        XCTAssertEqual(try download(broken).words, ["word 0", "word 1", "word 2"])
    }

    func testAnObjectWrittenAfterTheFileIsNamedUnnamesIt() throws {
        let server = try server()
        try server.readiness.prepareNow()
        let named = try server.pool.read { try $0.store.ankiDownloadToken() }
        XCTAssertNotNil(named)

        // Any object written, changed or removed unnames the file, as does clearing the collection.
        func unnamed(_ write: (Store) throws -> Void) throws -> Bool {
            try server.readiness.prepareNow()
            XCTAssertNotNil(try server.pool.read { try $0.store.ankiDownloadToken() })
            try server.pool.write { try write($0.store) }
            return try server.pool.read { try $0.store.ankiDownloadToken() } == nil
        }
        let tag = AnkiObject(kind: .tag, id: "travel", usn: 5, body: "0")
        XCTAssertTrue(try unnamed { try $0.putAnkiObject(tag) })
        XCTAssertTrue(try unnamed { try $0.putAnkiObjects([AnkiObject(kind: .tag, id: "travel", usn: 6, body: "0")]) })
        XCTAssertTrue(try unnamed { try $0.removeAnkiObject(.tag, id: "travel") })
        XCTAssertTrue(try unnamed { store in
            let note = try XCTUnwrap(try store.ankiObjects(.note).first)
            try store.setAnkiMirror(.note, id: note.id, source: nil, stamp: nil)
        })
        XCTAssertTrue(try unnamed { try $0.clearAnkiCollection() })
        // The stamps alone are not in the file: a download's new number leaves it named.
        try server.readiness.prepareNow()
        _ = try download(server)
        XCTAssertNotNil(try server.pool.read { try $0.store.ankiDownloadToken() })
    }

    func testTheReadinessRunsAtStartAndOnceTheStoreIsQuietAfterAChange() throws {
        let server = try server()
        let quick = AnkiDownloadReadiness(pool: server.pool, account: "me", folder: server.folder, clock: FixedClock(now), settle: 0.2)
        quick.start()
        try waitUntil("the file made at start") { self.files(server).count == 2 }
        let first = files(server)
        try addWord("word 3", to: server.pool, book: server.book)
        try waitUntil("a new file after the change") { Set(self.files(server)).isDisjoint(with: first) && self.files(server).count == 2 }
        // Made from the store with the word: the download sends it as made ready.
        let made = try XCTUnwrap(keptFile(server))
        usleep(20_000)
        XCTAssertEqual(try download(server).words, ["word 0", "word 1", "word 2", "word 3"])
        XCTAssertEqual(keptFile(server)?.written, made.written)
        withExtendedLifetime(quick) {}
    }
}
