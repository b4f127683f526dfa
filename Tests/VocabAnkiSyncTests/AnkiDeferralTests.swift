import Foundation
import XCTest
import VocabAnki
import VocabCloudAPI
import VocabCore
@testable import VocabSessions
import VocabStore

/// A server of one learner answers a sync's end and a full upload once what the app sent is
/// kept (`AnkiDeferral`), and brings it into the words after: once the apps' calls are quiet,
/// before a mirror of the store's changes (an upload: before any later call), and — when the
/// server stopped in between — as it starts again. Nothing the app was told is kept is lost.
final class AnkiDeferralTests: XCTestCase {
    private let now = Timestamp(milliseconds: 1_765_000_000_000)
    private var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "vocab-anki-deferral-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        addTeardownBlock { [home] in try? FileManager.default.removeItem(atPath: home) }
    }

    /// The store in `home`, opened as a server does (a second call: as a server started again).
    private func open() throws -> LibraryPool { try LibraryPool(folder: home, watchingOtherProcesses: false) }

    /// A deferral whose server stops right after answering: nothing done after.
    private func stoppingDeferral(_ pool: LibraryPool) -> AnkiDeferral {
        AnkiDeferral(uploadFolder: AnkiDeferral.uploadFolder(of: pool)) {}
    }

    /// A store of three words in "Travel", mirrored into its collection.
    private func storeOfThreeWords() throws -> LibraryPool {
        let pool = try open()
        try pool.write { library in
            let book = try library.store.addBook(BookDraft(name: "Travel"), now: self.now)
            for word in ["apple", "borrow", "cherry"] {
                _ = try library.store.addWord(WordDraft(word: word, definition: "뜻"), toBook: book.id, now: self.now)
            }
        }
        _ = try AnkiCollections.kept(pool, account: "me", now: now, deferral: stoppingDeferral(pool)) { try $0.standing() }
        return pool
    }

    private func words(_ pool: LibraryPool) throws -> [String: String] {
        try pool.read { library in
            Dictionary(uniqueKeysWithValues: try library.store.words().map { ($0.word, $0.definition) })
        }
    }

    private func pending(_ pool: LibraryPool) throws -> AnkiPendingWork? { try pool.read { try $0.store.ankiPendingWork() } }

    /// A normal sync in which the app sends a new note of a word ("banana") and its edit of
    /// "apple"'s definition, as the app sends them: rows of mirrored notes and cards, the new
    /// ones under new ids.
    private func syncNotes(_ pool: LibraryPool, deferral: AnkiDeferral) throws {
        _ = try AnkiCollections.kept(pool, account: "me", now: now, deferral: deferral) { kept in
            let store = kept.store
            func fields(_ row: [JSONValue]) -> [String] {
                (row[6].stringValue ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            }
            let apple = try XCTUnwrap(try store.ankiObjects(.note).compactMap(\.json?.arrayValue).first { fields($0).first == "apple" })
            let cardRow = try XCTUnwrap(try store.ankiObjects(.card).first?.json?.arrayValue)
            var edited = apple
            var appleFields = fields(apple)
            appleFields[1] = "사과 (앱)"
            edited[3] = .int(now.milliseconds / 1000 + 1)  // edited in the app after the mirror's
            edited[4] = .int(-1)
            edited[6] = .string(appleFields.joined(separator: "\u{1F}"))
            var note = apple, card = cardRow
            var bananaFields = appleFields
            bananaFields[0] = "banana"
            bananaFields[1] = "바나나"
            note[0] = .int(1_700_000_000_001)
            note[1] = .string("newguid01")
            note[3] = .int(now.milliseconds / 1000)
            note[4] = .int(-1)
            note[6] = .string(bananaFields.joined(separator: "\u{1F}"))
            note[7] = .string("banana")
            card[0] = .int(1_700_000_000_002)
            card[1] = note[0]
            card[5] = .int(-1)
            let usn = try XCTUnwrap(try store.ankiCollection()).usn
            _ = try kept.start(key: "s", .object([("minUsn", .int(usn)), ("lnewer", .bool(false))]))
            _ = try kept.applyChunk(key: "s", .object([("chunk", .object([
                ("done", .bool(true)), ("notes", .array([.array(note), .array(edited)])), ("cards", .array([.array(card)])),
                ("revlog", .array([])),
            ]))]))
            return try kept.finish(key: "s")
        }
    }

    /// The definition the kept collection's note of `word` holds.
    private func noteDefinition(_ pool: LibraryPool, _ word: String) throws -> String? {
        try pool.read { library in
            try library.store.ankiObjects(.note).compactMap { note -> [String]? in
                (note.json?.arrayValue?[6].stringValue).map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
            }.first { $0.first == word }?[1]
        }
    }

    func testASyncsChangesLeftAtItsAnswerWaitForAMirrorThatNeedsThemAndTheLaterEditWins() throws {
        let pool = try storeOfThreeWords()
        try syncNotes(pool, deferral: stoppingDeferral(pool))
        // Answered, and left: the notes kept, the words not yet changed.
        XCTAssertEqual(try pending(pool)?.kind, .reflect)
        XCTAssertNil(try words(pool)["banana"])
        XCTAssertEqual(try words(pool)["apple"], "뜻")
        XCTAssertEqual(try pool.read { try $0.store.ankiObjectCount(.note) }, 4, "the app's notes are kept")
        XCTAssertEqual(try noteDefinition(pool, "apple"), "사과 (앱)", "the app's edit is kept")

        // Another app's sync with nothing of the store's to mirror does not wait for them.
        _ = try AnkiCollections.kept(pool, account: "me", now: now, deferral: stoppingDeferral(pool)) { try $0.standing() }
        XCTAssertEqual(try pending(pool)?.kind, .reflect)

        // The learner edits apple after the app's edit was kept: the next mirror brings the app's
        // changes in first, and his later edit wins, in Vocab and in the collection.
        try pool.write { library in
            let apple = try XCTUnwrap(try library.store.words().first { $0.word == "apple" })
            _ = try library.store.updateWord(id: apple.id, WordChanges(definition: "사과 (나)"), now: Timestamp(milliseconds: self.now.milliseconds + 1_000))
        }
        _ = try AnkiCollections.kept(pool, account: "me", now: now, deferral: stoppingDeferral(pool)) { try $0.standing() }
        XCTAssertNil(try pending(pool))
        XCTAssertEqual(try words(pool)["banana"], "바나나")
        XCTAssertEqual(try words(pool)["apple"], "사과 (나)", "the learner's later edit stays")
        XCTAssertEqual(try noteDefinition(pool, "apple"), "사과 (나)", "and goes back to the app")
        XCTAssertEqual(try pool.read { try $0.store.ankiObjectCount(.note) }, 4, "the word made is the note's, not another")
    }

    func testASyncsChangesLeftWhenTheServerStoppedAreDoneAsItStartsAgain() throws {
        var pool: LibraryPool? = try storeOfThreeWords()
        try syncNotes(try XCTUnwrap(pool), deferral: stoppingDeferral(try XCTUnwrap(pool)))
        XCTAssertNil(try words(try XCTUnwrap(pool))["banana"])
        pool = nil  // the server stops

        let started = try open()
        let readiness = AnkiDownloadReadiness(pool: started, account: "me", folder: home + "/anki-download", clock: FixedClock(now))
        readiness.start()
        try waitUntil("the word made as the server starts") { (try? self.words(started)["banana"]) == "바나나" }
        XCTAssertNil(try pending(started))
        withExtendedLifetime(readiness) {}
    }

    func testAServerAboutToStopBringsASyncsChangesLeftIntoTheWords() throws {
        let pool = try storeOfThreeWords()
        try syncNotes(pool, deferral: stoppingDeferral(pool))
        XCTAssertNil(try words(pool)["banana"])
        let readiness = AnkiDownloadReadiness(pool: pool, account: "me", folder: home + "/anki-download", clock: FixedClock(now))
        try readiness.reflectLeftNow()
        XCTAssertEqual(try words(pool)["banana"], "바나나")
        XCTAssertEqual(try words(pool)["apple"], "사과 (앱)")
        XCTAssertNil(try pending(pool))
    }

    func testOnlyOldUploadFilesNothingNamesAreRemoved() throws {
        let pool = try storeOfThreeWords()
        let deferral = stoppingDeferral(pool)
        try keepAnUpload(pool, deferral: deferral)
        let named = try XCTUnwrap(try pending(pool)?.file)
        let folder = deferral.uploadFolder
        let hourAgo = Date(timeIntervalSinceNow: -3_600)
        for name in ["upload-stray.anki2", "upload-young.anki2"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try FileManager.default.createDirectory(atPath: folder + "/vocab-anki-cut", withIntermediateDirectories: true)
        for name in [named, "upload-stray.anki2", "vocab-anki-cut"] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: folder + "/" + name)
        }
        try AnkiCollections.removeStrayUploads(pool, deferral: deferral)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder)), [named, "upload-young.anki2"],
                       "the upload the store names stays however old; an old stray goes; a young one may be an upload arriving")
    }

    func testTheWordsFollowASyncRightAfterItsAnswer() throws {
        let pool = try open()
        try pool.write { library in
            let book = try library.store.addBook(BookDraft(name: "Travel"), now: self.now)
            _ = try library.store.addWord(WordDraft(word: "apple", definition: "뜻"), toBook: book.id, now: self.now)
        }
        let readiness = AnkiDownloadReadiness(pool: pool, account: "me", folder: home + "/anki-download", clock: FixedClock(now))
        _ = try AnkiCollections.kept(pool, account: "me", now: now, deferral: readiness.deferral) { try $0.standing() }
        try syncNotes(pool, deferral: readiness.deferral)
        readiness.deferral.settleSoon()  // as the server does once the answer is sent
        try waitUntil("the words changed after the answer") { (try? self.words(pool)) == ["apple": "사과 (앱)", "banana": "바나나"] }
        XCTAssertNil(try pending(pool))
        withExtendedLifetime(readiness) {}
    }

    /// An upload of the store's own collection as downloaded, less "cherry" and with "apple"
    /// changed, kept as a server that defers keeps one.
    private func keepAnUpload(_ pool: LibraryPool, deferral: AnkiDeferral) throws {
        let file = try AnkiCollections.kept(pool, account: "me", now: now, deferral: deferral) { try $0.download() }
        let path = home + "/upload-made.anki2"
        try Data(try Zstd.decompress(file.bytes, bound: 64 << 20)).write(to: URL(fileURLWithPath: path))
        let collection = try Database(path: path, create: false, readOnly: false)
        try collection.execute("""
            DELETE FROM cards WHERE nid IN (SELECT id FROM notes WHERE sfld = 'cherry');
            DELETE FROM notes WHERE sfld = 'cherry';
            UPDATE notes SET flds = replace(flds, '뜻', '사과'), mod = mod + 1 WHERE sfld = 'apple';
            UPDATE col SET mod = mod + 1000;
            """)
        let compressed = try Zstd.compress(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let folder = try XCTUnwrap(deferral.madeUploadFolder())
        let upload = try AnkiUploadedCollection(compressed: compressed, bound: 64 << 20, unpackingIn: folder)
        try AnkiCollections.keepUpload(pool, account: "me", now: now, collection: upload, deferral: deferral)
    }

    func testAnUploadLeftWhenTheServerStoppedIsTakenAsItStartsAgainWithItsBackup() throws {
        var pool: LibraryPool? = try storeOfThreeWords()
        try keepAnUpload(try XCTUnwrap(pool), deferral: stoppingDeferral(try XCTUnwrap(pool)))
        // Answered, and left: the file kept where uploads wait, the words as they were.
        XCTAssertEqual(try pending(try XCTUnwrap(pool))?.kind, .upload)
        XCTAssertEqual(try words(try XCTUnwrap(pool)), ["apple": "뜻", "borrow": "뜻", "cherry": "뜻"])
        let waiting = try FileManager.default.contentsOfDirectory(atPath: home + "/anki-upload")
        XCTAssertEqual(waiting.filter { $0.hasPrefix("upload-") }.count, 1, "\(waiting)")
        pool = nil  // the server stops

        let started = try open()
        let readiness = AnkiDownloadReadiness(pool: started, account: "me", folder: home + "/anki-download", clock: FixedClock(now))
        readiness.start()
        try waitUntil("the upload taken as the server starts") { (try? self.words(started)) == ["apple": "사과", "borrow": "뜻"] }
        XCTAssertNil(try pending(started))
        let notice = try AnkiCollections.kept(started, account: "me", now: now, deferral: readiness.deferral) { try $0.standing() }.notice
        XCTAssertEqual(notice?.deletedWords, 1, "the app is told a word went")
        let backups = StoreBackups.list(in: StoreBackups.folder(forStoreAt: started.path)).backups
        XCTAssertTrue(backups.contains { $0.path.contains(AccountBackups.beforeAnkiUpload) }, "the account as it was is kept: \(backups)")
        try waitUntil("the taken upload's file removed") {
            ((try? FileManager.default.contentsOfDirectory(atPath: self.home + "/anki-upload")) ?? []).allSatisfy { !$0.hasPrefix("upload-") }
        }
        withExtendedLifetime(readiness) {}
    }
}
