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
