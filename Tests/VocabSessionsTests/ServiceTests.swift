import Synchronization
import XCTest
import VocabCore
import VocabStore
import VocabSync
import VocabCloudAPI
@testable import VocabSessions

final class TransferServiceTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "vocab-sessions-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func writeCSV(rows: Int, in folder: String) throws -> String {
        let path = folder + "/words.csv"
        var text = "word,definition\n"
        for index in 0..<rows { text += "word\(index),meaning \(index)\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testAnImportReportsProgressAndACancelledOneChangesNothing() throws {
        let folder = try folder()
        let csv = try writeCSV(rows: 5_000, in: folder)
        let store = try Store.open(folder: folder)
        var seen: [Int] = []
        let cancel = CancelFlag()
        XCTAssertThrowsError(try TransferService.importFile(csv, format: .csv, into: Library(store), defaultBook: "Big", skipInvalid: false,
                                                            now: t0, progress: { step in
            guard case .rows(let count) = step else { return XCTFail("\(step)") }
            seen.append(count)
            if count >= 2_000 { cancel.cancel() }
        }, isCancelled: { cancel.isCancelled })) { XCTAssertEqual($0 as? ImportError, .cancelled) }
        XCTAssertEqual(seen, [1_000, 2_000])
        XCTAssertEqual(try store.wordCount(), 0, "all or nothing")
        XCTAssertEqual(try store.bookSummaries().count, 0)
        let outcome = try TransferService.importFile(csv, format: .csv, into: Library(store), defaultBook: "Big", skipInvalid: false, now: t0)
        XCTAssertEqual(outcome.summary.added, 5_000)
    }

    /// The rules every front end takes from here: an import into a store with words backs it up
    /// first, and a book named by id is the book the rows go to, even renamed meanwhile.
    func testAnImportBacksUpAStoreWithWordsAndFindsItsBookById() throws {
        let folder = try folder()
        let store = try Store.open(folder: folder)
        let book = try store.addBook(BookDraft(name: "Mine"), now: t0)
        _ = try TransferService.importFile(try writeCSV(rows: 10, in: folder), format: .csv, into: Library(store), defaultBook: .id(book.id),
                                           skipInvalid: false, now: t0)
        XCTAssertEqual(StoreBackups.list(in: store.backupFolder).backups.count, 0, "an empty store has nothing to lose")
        _ = try store.updateBook(id: book.id, BookChanges(name: "Renamed by a sync"), now: t0)
        try "word,definition\nlater,new\n".write(toFile: folder + "/more.csv", atomically: true, encoding: .utf8)
        let outcome = try TransferService.importFile(folder + "/more.csv", format: .csv, into: Library(store), defaultBook: .id(book.id),
                                                     skipInvalid: false, now: t0)
        XCTAssertEqual(outcome.summary.createdBooks, [], "no new book under the old name")
        XCTAssertEqual(try store.wordCount(WordFilter(bookId: book.id)), 11)
        XCTAssertEqual(StoreBackups.list(in: store.backupFolder).backups.map(\.reason), ["before-import"])
        XCTAssertEqual(try ImportBook.reference("renamed by a sync", in: Library(store)), .id(book.id))
        XCTAssertEqual(try ImportBook.reference("Other", in: Library(store)), .name("Other"))
    }

    func testDeletingABookWithWordsBacksUpFirstAndAnEmptyOneNeedsNone() throws {
        let folder = try folder()
        let store = try Store.open(folder: folder)
        let full = try store.addBook(BookDraft(name: "Full"), now: t0), empty = try store.addBook(BookDraft(name: "Empty"), now: t0)
        try store.addWord(WordDraft(word: "kept"), toBook: full.id, now: t0)
        let none = try BookDeletion.delete(bookId: empty.id, from: Library(store), policy: BackupPolicy(), now: t0)
        XCTAssertEqual(none.deleted, 0)
        XCTAssertNil(none.backup)
        let deleted = try BookDeletion.delete(bookId: full.id, from: Library(store), policy: BackupPolicy(), now: t0)
        XCTAssertEqual(deleted.deleted, 1)
        let backup = try XCTUnwrap(deleted.backup)
        XCTAssertEqual(try StoreBackups.check(backup.path).words, 1, "the backup holds the word")
    }

    func testAnAnkiImportReportsItsReviewLogAndACancelInItChangesNothing() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("VocabCLITests/Fixtures/anki-modern.apkg").path
        let store = try Store.open(folder: try folder())
        var steps: [ImportProgress] = []
        let cancel = CancelFlag()
        XCTAssertThrowsError(try TransferService.importFile(package, format: .apkg, into: Library(store), defaultBook: nil, skipInvalid: false,
                                                            now: t0, progress: { step in
            steps.append(step)
            if case .reviews = step { cancel.cancel() }
        }, isCancelled: { cancel.isCancelled })) { XCTAssertEqual($0 as? ImportError, .cancelled) }
        // 5 notes (no step for rows below 1,000), then the log: 10 reviews carried, 3 of other cards.
        XCTAssertEqual(steps, [.reviews(done: 0, total: 13)])
        XCTAssertEqual(try store.wordCount(), 0, "cancelled in the log: the words go too")
        XCTAssertEqual(try store.reviewCount(), 0)

        steps = []
        let outcome = try TransferService.importFile(package, format: .apkg, into: Library(store), defaultBook: nil, skipInvalid: false,
                                                     now: t0, progress: { steps.append($0) })
        XCTAssertEqual(outcome.reviewsAdded, 10)
        XCTAssertEqual(outcome.otherCardReviews, 3)
        XCTAssertEqual(steps, [.reviews(done: 0, total: 13), .reviews(done: 13, total: 13)])
        XCTAssertEqual(steps.map(\.share), [0, 1])
        XCTAssertNil(ImportProgress.rows(1_000).share, "rows: the whole is not known")
    }

    func testAnExportAppearsOnlyWholeAndACancelledOneLeavesNoFile() throws {
        let folder = try folder()
        let store = try Store.open(folder: folder)
        _ = try TransferService.importFile(try writeCSV(rows: 3_000, in: folder), format: .csv, into: Library(store), defaultBook: "B",
                                           skipInvalid: false, now: t0)
        let path = folder + "/out.csv"
        XCTAssertThrowsError(try TransferService.exportFile(path, from: Library(store), bookId: nil, format: .csv,
                                                            isCancelled: { true })) { XCTAssertTrue($0 is ExportCancelled) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try TransferService.exportFile(path, from: Library(store), bookId: nil, format: .csv), 3_000)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }
}

final class StoreWorkerTests: XCTestCase {
    func testAWorkersWriteIsHeardAtOnceAndItsReadsComeBackOnTheMainThread() throws {
        let folder = NSTemporaryDirectory() + "vocab-worker-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pool = try LibraryPool(folder: folder)
        let heard = Mutex<[StoreChange]>([])
        let token = pool.observe { change in heard.withLock { $0.append(change) } }
        let worker = StoreWorker(pool: pool)
        let wrote = expectation(description: "the worker's write ends on the main queue")
        worker.perform({ library -> Bool in
            try library.store.addBook(BookDraft(name: "From the worker"))
            return Thread.isMainThread
        }, then: { result in
            XCTAssertEqual(try? result.get(), false, "the job ran off the main thread")
            XCTAssertTrue(Thread.isMainThread, "the result comes back on the main thread")
            wrote.fulfill()
        })
        wait(for: [wrote], timeout: 30)
        XCTAssertEqual(heard.withLock { $0.map(\.books) }, [true], "heard once, as it committed: nobody polled")
        let read = expectation(description: "a read beside the writes")
        worker.read({ store in try store.bookSummaries().map(\.book.name) }, then: { result in
            XCTAssertEqual(try? result.get(), ["From the worker"])
            XCTAssertTrue(Thread.isMainThread)
            read.fulfill()
        })
        wait(for: [read], timeout: 30)
        withExtendedLifetime(token) {}
    }
}

final class SyncServiceTests: XCTestCase {
    func testWithoutALoginSyncRefusesAndTouchesNothing() throws {
        let home = NSTemporaryDirectory() + "vocab-sync-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let service = try SyncService(paths: AppPaths(environment: ["XDG_CONFIG_HOME": home + "/config", "VOCAB_HOME": home]))
        XCTAssertEqual(service.accountStatus(), .notLoggedIn)
        let store = try Store(path: ":memory:")
        XCTAssertThrowsError(try service.run(library: Library(store))) { XCTAssertEqual($0 as? CloudError, .notLoggedIn) }
        XCTAssertNil(try store.boundAccount())
        XCTAssertNil(try service.logOut(), "nothing to log out of")
    }

    func testACancelledSyncSaysNothingWasLost() {
        let failure = SyncFailure(underlying: CloudError.cancelled)
        XCTAssertEqual(failure.message, "Sync cancelled. Nothing was lost: what finished is saved.")
        XCTAssertEqual(failure.category, .cloudUnavailable)
    }
}
