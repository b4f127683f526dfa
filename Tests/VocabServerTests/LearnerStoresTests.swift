import Foundation
import XCTest
import VocabCore
import VocabStore
import VocabSync
import VocabCloudAPI
@testable import VocabCloudSessions
@testable import VocabSessions
import VocabWeb

/// The learners' stores on a server of many, past the cache's budget: the stores used least
/// lately go first, only until the cache fits; a store in use, used in the last minute or
/// holding changes the cloud has not got stays; passes come at most one every few seconds.
final class LearnerStoresTests: XCTestCase {
    private var folder = ""
    private let server = ServerAddress(host: "cloud.example", port: 5432, database: "vocab", user: "")

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("learner-stores-\(UUID().uuidString)").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func stores(budget: Int64) throws -> LearnerStores<WebApp> {
        try LearnerStores(folder: folder, budget: budget) { pool in try WebApp(pool: pool, pairing: nil) }
    }

    /// Opens `owner`'s store, gives it a book of `words` words and ends the request (the store
    /// stays open, no longer busy). `bound`: bound to an account, so that all of it waits to be
    /// pushed.
    @discardableResult
    private func fill(_ stores: LearnerStores<WebApp>, _ owner: String, words: Int = 200, bound: Bool = false) throws -> Learner<WebApp> {
        let learner = try stores.learner(owner, server: server)
        _ = try learner.pool.write { library in
            let store = library.store
            if bound { _ = try store.syncToken(for: "https://cloud.example/\(owner)") }
            let book = try store.addBook(BookDraft(name: owner))
            for index in 0..<words {
                _ = try store.addWord(WordDraft(word: "\(owner) \(index)", definition: String(repeating: "meaning ", count: 20)), toBook: book.id)
            }
        }
        learner.busy.subtract(1, ordering: .relaxed)
        return learner
    }

    /// Makes every file of the store's folder look last changed `minutes` ago.
    private func age(_ learner: Learner<WebApp>, minutes: Double) throws {
        let when = Date(timeIntervalSinceNow: -minutes * 60)
        for file in try FileManager.default.contentsOfDirectory(atPath: learner.folder) {
            try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: learner.folder + "/" + file)
        }
    }

    private func bytes(_ learner: Learner<WebApp>) throws -> Int64 {
        try FileManager.default.contentsOfDirectory(atPath: learner.folder).reduce(0) { total, file in
            total + ((try FileManager.default.attributesOfItem(atPath: learner.folder + "/" + file)[.size] as? Int64) ?? 0)
        }
    }

    private func exists(_ learner: Learner<WebApp>) -> Bool {
        FileManager.default.fileExists(atPath: learner.folder)
    }

    func testTheStoresUsedLeastLatelyGoFirstAndOnlyUntilTheCacheFits() throws {
        let probe = try stores(budget: .max)
        let ann = try fill(probe, "ann"), ben = try fill(probe, "ben"), cat = try fill(probe, "cat")
        probe.closeIdle(seconds: 0)
        XCTAssertEqual(probe.openCount, 0)
        try age(ann, minutes: 30)
        try age(ben, minutes: 20)
        try age(cat, minutes: 10)
        let total = try bytes(ann) + bytes(ben) + bytes(cat)

        // One byte over: the store used least lately goes, and nothing more.
        let stores = try stores(budget: total - 1)
        stores.evictIfOverBudget()
        XCTAssertFalse(exists(ann), "the store used least lately goes first")
        XCTAssertTrue(exists(ben) && exists(cat), "the others stay: the cache fits without them gone")

        // A learner whose store went gets an empty one again (the cloud has it all).
        let again = try stores.learner("ann", server: server)
        XCTAssertFalse(try again.pool.read { try $0.store.hasBooks() })
        again.busy.subtract(1, ordering: .relaxed)
    }

    func testAStoreInUseUsedInTheLastMinuteOrHoldingUnsentChangesStays() throws {
        let stores = try stores(budget: 0)
        let busy = try stores.learner("busy", server: server)  // a request holds it
        let recent = try fill(stores, "recent")  // its request just ended
        let idle = try fill(stores, "idle")
        idle.lastUsed.store(-120 * 1_000_000_000, ordering: .relaxed)  // open, last used two minutes ago
        let unsent = try fill(stores, "unsent", bound: true)
        let closed = try fill(stores, "closed")
        stores.closeIdle(seconds: 0)
        XCTAssertEqual(stores.openCount, 1, "only the store a request holds stays open")
        for learner in [busy, recent, idle, unsent, closed] { try age(learner, minutes: 30) }
        // Open again as they were: recent used now, idle two minutes ago.
        try stores.learner("recent", server: server).busy.subtract(1, ordering: .relaxed)
        let idleAgain = try stores.learner("idle", server: server)
        idleAgain.busy.subtract(1, ordering: .relaxed)
        idleAgain.lastUsed.store(-120 * 1_000_000_000, ordering: .relaxed)
        busy.lastUsed.store(-120 * 1_000_000_000, ordering: .relaxed)  // a request two minutes long, still running
        XCTAssertEqual(stores.openCount, 3)

        stores.evictIfOverBudget()
        XCTAssertTrue(exists(busy), "a store a request holds stays")
        XCTAssertTrue(exists(recent), "a store used in the last minute stays")
        XCTAssertTrue(exists(unsent), "a store whose changes the cloud has not got stays")
        XCTAssertGreaterThan(try Store(path: unsent.folder + "/" + Store.fileName).outboxCount(), 0)
        XCTAssertFalse(exists(idle), "an open store nobody used for two minutes goes")
        XCTAssertFalse(exists(closed), "a closed store with nothing to send goes")
        XCTAssertEqual(stores.openCount, 2, "the store that went is closed too")

        // A pass a moment after another is skipped; one allowed at once runs.
        let late = try fill(stores, "late")
        late.lastUsed.store(-120 * 1_000_000_000, ordering: .relaxed)
        stores.evictIfOverBudget()
        XCTAssertTrue(exists(late), "a second pass within seconds of the first does not run")
        stores.evictIfOverBudget(notWithin: .zero)
        XCTAssertFalse(exists(late))
        busy.busy.subtract(1, ordering: .relaxed)
    }
}
