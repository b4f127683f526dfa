import Foundation
import Synchronization
import TestServices
import XCTest
import VocabCore
@testable import VocabStore

/// One store file shared by many threads: readers that never wait for the writer, writes that
/// say what they changed, and observers that hear of every commit — the pool's own at once,
/// another process's through the file system (no timer in the caller).
final class StorePoolTests: XCTestCase {
    let t0 = StorePoolTests.start
    static let start = Timestamp(milliseconds: 1_796_115_600_000)  // 2026-12-01T09:00:00Z

    func testReadersReadTheLastCommitWhileAWriteIsUnderWay() throws {
        let folder = try TemporaryFolder()
        let pool = try StorePool(folder: folder.path)
        let book = try pool.write { try $0.addBook(BookDraft(name: "B"), now: self.t0) }.value
        try pool.write { store in
            try store.addWord(WordDraft(word: "before"), toBook: book.id, now: self.t0)
        }
        let writing = DispatchSemaphore(value: 0), mayCommit = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.write { store in
                try store.transaction {
                    try store.addWord(WordDraft(word: "during"), toBook: book.id, now: StorePoolTests.start)
                    writing.signal()
                    mayCommit.wait()  // the write stays open until the reads below are done
                }
            }
            done.signal()
        }
        writing.wait()
        // Four threads read at once while the writer holds its transaction open.
        let counts = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let count = (try? pool.read { try $0.wordCount() }) ?? -1
            counts.withLock { $0.append(count) }
        }
        XCTAssertEqual(counts.withLock { $0 }, [1, 1, 1, 1], "each read saw the last commit, without waiting for the write")
        mayCommit.signal()
        done.wait()
        XCTAssertEqual(try pool.read { try $0.wordCount() }, 2)
    }

    func testAReaderCannotWrite() throws {
        let folder = try TemporaryFolder()
        let pool = try StorePool(folder: folder.path)
        XCTAssertThrowsError(try pool.read { try $0.addBook(BookDraft(name: "No"), now: self.t0) })
        XCTAssertEqual(try pool.read { try $0.bookSummaries().count }, 0)
    }

    func testAWriteSaysWhatItChangedAndObserversHearItAtOnce() throws {
        let folder = try TemporaryFolder()
        let pool = try StorePool(folder: folder.path)
        let heard = Mutex<[StoreChange]>([])
        let token = pool.observe { change in heard.withLock { $0.append(change) } }
        let added = try pool.write { try $0.addBook(BookDraft(name: "B"), now: self.t0) }
        XCTAssertTrue(added.changed.books)
        XCTAssertFalse(added.changed.words)
        let word = try pool.write { try $0.addWord(WordDraft(word: "w"), toBook: added.value.id, now: self.t0) }
        XCTAssertTrue(word.changed.words)
        XCTAssertEqual(heard.withLock { $0.count }, 2, "one notice per commit, before the write returned")
        token.cancel()
        try pool.write { try $0.addWord(WordDraft(word: "x"), toBook: added.value.id, now: self.t0) }
        XCTAssertEqual(heard.withLock { $0.count }, 2, "a cancelled observer hears nothing more")
    }

    func testAnotherProcesssCommitIsHeardWithoutAnyonePolling() throws {
        let folder = try TemporaryFolder()
        let pool = try StorePool(folder: folder.path)
        let heard = expectation(description: "the outside commit is heard")
        heard.assertForOverFulfill = false
        let token = pool.observe { change in if change == .everything { heard.fulfill() } }
        // Another connection to the file stands for another process (its commit is outside the pool).
        let outside = try Store(path: pool.path)
        try outside.addBook(BookDraft(name: "From elsewhere"), now: t0)
        wait(for: [heard], timeout: 30)
        XCTAssertEqual(try pool.read { try $0.bookSummaries().map(\.book.name) }, ["From elsewhere"])
        token.cancel()
    }

    func testManyThreadsWritingAndReadingAgree() throws {
        let folder = try TemporaryFolder()
        let pool = try StorePool(folder: folder.path, maximumReaders: 3)
        let book = try pool.write { try $0.addBook(BookDraft(name: "B"), now: self.t0) }.value
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<25 {
                do {
                    if thread % 2 == 0 {
                        try pool.write { try $0.addWord(WordDraft(word: "t\(thread)-\(index)"), toBook: book.id, now: StorePoolTests.start) }
                    } else {
                        _ = try pool.read { try $0.wordCount() }
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertEqual(try pool.read { try $0.wordCount() }, 100)
    }

    /// A server's many small stores: a log checkpointed at a few pages is written over from its
    /// start and stays that small; SQLite's default lets it grow to 1,000 pages.
    func testAStoresWriteAheadLogStaysWithinThePagesItIsCheckpointedAt() throws {
        let folder = try TemporaryFolder()
        func logBytes(_ pool: StorePool) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: pool.path + "-wal")
            return (attributes[.size] as? NSNumber)?.intValue ?? 0
        }
        var sizes: [Int] = []
        for (name, pages) in [("small", 16 as Int?), ("default", nil)] {
            let pool = try StorePool(folder: folder.path + "/" + name, logPages: pages)
            let book = try pool.write { try $0.addBook(BookDraft(name: "B"), now: self.t0) }.value
            var largest = 0
            for index in 0..<300 {
                try pool.write { store in
                    try store.addWord(WordDraft(word: "word \(index)", definition: String(repeating: "meaning ", count: 40)), toBook: book.id, now: self.t0)
                }
                largest = max(largest, try logBytes(pool))
            }
            XCTAssertEqual(try pool.read { try $0.wordCount() }, 300)
            sizes.append(largest)
        }
        let frame = 8_192 + 24  // a page and its header
        XCTAssertLessThanOrEqual(sizes[0], 64 * frame, "checkpointed at 16 pages (and one write's pages past them): \(sizes[0] / frame) frames")
        XCTAssertGreaterThan(sizes[1], 200 * frame, "the default log grew far past that: \(sizes[1] / frame) frames")
    }

    /// `vocab serve`'s store: the log is checkpointed on the pool's own thread, so no write waits
    /// for a checkpoint its commit brought on; held back, the log grows past the mark while the
    /// writes go on, and once let go the checkpoint copies it into the store.
    func testALogCheckpointedAsideNeverHoldsTheWriteThatFilledIt() throws {
        let folder = try TemporaryFolder()
        let pool = try StorePool(folder: folder.path, logPages: 16, checkpointingAside: true)
        func bytes(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        let book = try pool.write { try $0.addBook(BookDraft(name: "B"), now: self.t0) }.value
        let checkpoints = try XCTUnwrap(pool.checkpointer).queue
        checkpoints.suspend()
        let storeBefore = bytes(pool.path)
        for index in 0..<100 {
            try pool.write { store in
                try store.addWord(WordDraft(word: "word \(index)", definition: String(repeating: "meaning ", count: 40)), toBook: book.id, now: self.t0)
            }
        }
        let frame = 8_192 + 24
        XCTAssertGreaterThan(bytes(pool.path + "-wal"), 64 * frame, "no write checkpointed the log itself")
        XCTAssertEqual(bytes(pool.path), storeBefore, "nothing was copied into the store meanwhile")
        checkpoints.resume()
        XCTAssertTrue(waitUntil { bytes(pool.path) > storeBefore }, "the pool's checkpoint copied the log into the store")
        XCTAssertEqual(try pool.read { try $0.wordCount() }, 100)
    }
}
