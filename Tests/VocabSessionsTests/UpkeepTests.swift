import XCTest
import VocabCore
import VocabStore
import VocabSystem
@testable import VocabSessions

/// The one upkeep every front end runs: indexing what a bulk write left, the backup when due,
/// one holder at a time across processes.
final class UpkeepTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "vocab-upkeep-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// A store with a book of `words` words imported at once (more than 2,000 wait for indexing).
    private func store(in folder: String, words: Int) throws -> LibraryPool {
        let pool = try LibraryPool(folder: folder, watchingOtherProcesses: false)
        let text = "word,definition\n" + (0..<words).map { "w\($0),m\($0)" }.joined(separator: "\n") + "\n"
        try pool.write { library in
            let store = library.store
            var reader = try WordFileReader(ArrayByteStream(text), format: .csv)
            _ = try WordImporter(defaultBook: "Big", skipInvalid: false, now: t0).run(&reader, into: store)
        }
        return pool
    }

    func testAPoolsUpkeepIndexesWhatABulkWriteLeftAndTakesTheDueBackupOnce() throws {
        let folder = try folder()
        let pool = try store(in: folder, words: 5_000)
        XCTAssertGreaterThan(try pool.read { try $0.store.searchBacklog() }, 0)
        let upkeep = StoreUpkeep(pool: pool, policy: BackupPolicy(), clock: FixedClock(t0))
        let report = try XCTUnwrap(upkeep.runNow())
        XCTAssertEqual(report.indexed, 5_000)
        XCTAssertEqual(try pool.read { try $0.store.searchBacklog() }, 0)
        XCTAssertEqual(report.backup?.reason, "auto")
        XCTAssertEqual(try StoreBackups.check(XCTUnwrap(report.backup?.path)).words, 5_000)
        // Nothing is due now: a second run does nothing.
        XCTAssertEqual(upkeep.runNow(), Upkeep.Report())
    }

    /// A server backs its store up from a reader: a write under way (the learner's grade, an Anki
    /// app's sync) never waits for the backup, nor the backup for it.
    func testTheAutomaticBackupIsTakenWhileAWriteHoldsTheStore() throws {
        let folder = try folder()
        let pool = try store(in: folder, words: 10)
        let books = try pool.read { try $0.store.bookSummaries().count }
        let writing = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), backedUp = DispatchSemaphore(value: 0)
        let t0 = self.t0
        Thread {
            try? pool.write { library in
                try library.store.transaction {
                    _ = try library.store.addBook(BookDraft(name: "Written meanwhile"), now: t0)
                    writing.signal()
                    release.wait()
                }
            }
        }.start()
        writing.wait()
        let outcome = UpkeepOutcome()
        Thread {
            outcome.report = StoreUpkeep(pool: pool, policy: BackupPolicy(), clock: FixedClock(t0)).runNow()
            backedUp.signal()
        }.start()
        let finished = backedUp.wait(timeout: .now() + 60)
        release.signal()
        XCTAssertEqual(finished, .success, "the backup was taken while the write held the store")
        if finished != .success { _ = backedUp.wait(timeout: .now() + 60) }
        let backup = try XCTUnwrap(outcome.report?.backup)
        // The store as it was before the write under way: its words, not the book it was adding.
        XCTAssertEqual(try StoreBackups.check(backup.path), StoreCounts(books: books, words: 10, reviews: 0))
    }

    func testWhileAnotherProcessHoldsTheUpkeepNothingIsDoneAndNothingWaits() throws {
        let folder = try folder()
        let pool = try store(in: folder, words: 3_000)
        let held = try XCTUnwrap(FileLock(path: Upkeep.lockPath(storePath: pool.path)))
        let report = try XCTUnwrap(StoreUpkeep(pool: pool, policy: BackupPolicy(), clock: FixedClock(t0)).runNow())
        XCTAssertTrue(report.busy)
        XCTAssertEqual(report.indexed, 0)
        XCTAssertNil(report.backup)
        held.release()
        XCTAssertEqual(StoreUpkeep(pool: pool, policy: BackupPolicy(), clock: FixedClock(t0)).runNow()?.indexed, 3_000)
    }

    func testAnEmptyStoreIsNotBackedUpAndNoAutomaticBackupsMeansNone() throws {
        let empty = try LibraryPool(folder: try folder(), watchingOtherProcesses: false)
        XCTAssertNil(StoreUpkeep(pool: empty, policy: BackupPolicy(), clock: FixedClock(t0)).runNow()?.backup)
        let pool = try store(in: try folder(), words: 10)
        XCTAssertNil(StoreUpkeep(pool: pool, policy: BackupPolicy(automatic: false), clock: FixedClock(t0)).runNow()?.backup)
        XCTAssertNotNil(StoreUpkeep(pool: pool, policy: BackupPolicy(), clock: FixedClock(t0)).runNow()?.backup)
    }
}

/// What a run on another thread reported: written before that thread signals, read after the wait.
private final class UpkeepOutcome: @unchecked Sendable {
    var report: Upkeep.Report?
}
