import XCTest
import TestServices
#if canImport(Glibc)
import Glibc
import Synchronization
#endif
import VocabCore
@testable import VocabStore
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// Two (or three) devices of one user syncing through the real PostgreSQL of scripts/test.sh.
final class SyncEngineTests: XCTestCase {
    var login: TestLearner!
    var server: TestPostgres!
    var admin: PostgresConnection!
    var adminLogin: CloudLogin!
    var folder: String!

    override func setUpWithError() throws {
        server = try TestPostgres()
        admin = server.admin
        adminLogin = server.adminLogin
        login = try server.addUser("sync_" + UUID().uuidString.prefix(8).lowercased(), password: "pw")
        folder = NSTemporaryDirectory() + "vocab-sync-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    func device(_ name: String) throws -> Store { try Store.open(folder: folder + "/" + name) }

    /// One sync of `store` as the test's learner, over the server tier's connection (`on` one
    /// given) or `through` a channel given.
    @discardableResult
    func sync(_ store: Store, pageSize: Int = 2000, batchSize: Int = 2000, on given: PostgresConnection? = nil,
              through channel: SyncChannel? = nil) throws -> SyncReport {
        let channel = try channel ?? DatabaseSyncChannel(connection: given ?? server.tier(), device: login.device)
        let report = try SyncEngine(store: store, channel: channel, account: login.address.url, learner: login.address.user,
                                    pageSize: pageSize, batchSize: batchSize).run()
        XCTAssertFalse(report.repaired, "an undamaged store agrees with the server's counts")
        return report
    }

    private func snapshot(_ store: Store, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        // What triggers keep beside the words (search index, counts) survives every sync path.
        XCTAssertEqual(try store.derivedDataProblems(), [], file: file, line: line)
        let names = try store.bookNames()
        return try store.words().map { w in
            [names[w.bookId] ?? "?", w.word, w.definition, w.synonym, w.antonym, String(w.memorized)].joined(separator: "|")
        }.sorted()
    }

    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    func testTwoDevicesConvergeThroughAddsEditsAndConcurrentFieldEdits() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "TOEIC"), now: t0)
        let apple = try a.addWord(WordDraft(word: "apple", definition: "사과"), toBook: book.id, now: t0)
        try a.addWord(WordDraft(word: "banana"), toBook: book.id, now: t0)
        try sync(a)
        try sync(b)
        XCTAssertEqual(try snapshot(b), try snapshot(a))
        // Offline edits of different fields of the same word on both devices.
        try a.updateWord(id: apple.id, WordChanges(synonym: "pomme"), now: t0.adding(seconds: 60))
        let bApple = try b.word("apple", inBook: nil)
        try b.updateWord(id: bApple.id, WordChanges(definition: "red fruit"), now: t0.adding(seconds: 120))
        try sync(a); try sync(b); try sync(a)
        XCTAssertEqual(try snapshot(a), try snapshot(b))
        let merged = try a.word("apple", inBook: nil)
        XCTAssertEqual(merged.definition, "red fruit")
        XCTAssertEqual(merged.synonym, "pomme")
        // The same field on both: the newer edit wins everywhere.
        try a.updateWord(id: apple.id, WordChanges(antonym: "older"), now: t0.adding(seconds: 200))
        try b.updateWord(id: apple.id, WordChanges(antonym: "newer"), now: t0.adding(seconds: 300))
        try sync(b); try sync(a); try sync(b)
        XCTAssertEqual(try a.word("apple", inBook: nil).antonym, "newer")
        XCTAssertEqual(try snapshot(a), try snapshot(b))
        // Nothing to do: nothing pushed or pulled.
        let quiet = try sync(a)
        XCTAssertEqual(quiet.pushed, 0)
    }

    func testADeletionWinsOverAConcurrentEditAndDeletionsTravel() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        let word = try a.addWord(WordDraft(word: "gone"), toBook: book.id, now: t0)
        try a.addWord(WordDraft(word: "kept"), toBook: book.id, now: t0)
        try sync(a); try sync(b)
        try a.deleteWord(id: word.id, now: t0.adding(seconds: 10))
        try b.updateWord(id: word.id, WordChanges(definition: "edited later"), now: t0.adding(seconds: 20))
        try sync(b); try sync(a); try sync(b)
        XCTAssertEqual(try a.words().map(\.word), ["kept"])
        XCTAssertEqual(try b.words().map(\.word), ["kept"])
        // A whole book deleted on one device disappears on the other.
        try b.deleteBook(id: book.id, now: t0.adding(seconds: 30))
        try sync(b); try sync(a)
        XCTAssertEqual(try a.bookSummaries().count, 0)
        XCTAssertEqual(try a.wordCount(), 0)
    }

    func testReviewLogsMergeByUnionAndGiveTheSameSchedule() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        let word = try a.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        try sync(a); try sync(b)
        var ids = TimeOrderedIDs()
        try a.recordReview(wordId: word.id, rating: .good, at: t0.adding(seconds: 100), source: .study, ids: &ids)
        try b.recordReview(wordId: word.id, rating: .again, at: t0.adding(seconds: 86_400), source: .study, ids: &ids)
        try sync(a); try sync(b); try sync(a)
        XCTAssertEqual(try a.reviewCount(), 2)
        XCTAssertEqual(try b.reviewCount(), 2)
        XCTAssertEqual(try a.schedule(wordId: word.id), try b.schedule(wordId: word.id))
    }

    func testLearningSettingsTravelAndTheNewestChangeWinsOnEveryDevice() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        let word = try a.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        var ids = TimeOrderedIDs()
        try a.recordReview(wordId: word.id, rating: .good, at: t0, source: .study, ids: &ids)
        try a.recordReview(wordId: word.id, rating: .good, at: t0.adding(seconds: 86_400 * 3), source: .study, ids: &ids)
        var fitted = FSRSScheduler.defaultParameters
        fitted[8] = 2.4
        try a.saveLearningSettings(parameters: fitted, desiredRetention: 0.95, at: t0.adding(seconds: 60))
        try sync(a); try sync(b)
        XCTAssertEqual(try b.learningSettings(), try a.learningSettings())
        XCTAssertEqual(try b.learningSettings().parameters, fitted)
        let log = try b.reviewLog(wordId: word.id).map { (rating: $0.rating, at: $0.reviewedAt) }
        XCTAssertEqual(try b.schedule(wordId: word.id), FSRSScheduler(parameters: fitted, desiredRetention: 0.95).replay(log),
                       "the pulled parameters re-derive the schedules they touch")
        XCTAssertEqual(try b.schedule(wordId: word.id), try a.schedule(wordId: word.id))

        // Both change them offline; the later change wins on both, whichever syncs first.
        try b.saveLearningSettings(parameters: nil, desiredRetention: 0.85, at: t0.adding(seconds: 300))
        try a.saveLearningSettings(parameters: fitted, desiredRetention: 0.9, at: t0.adding(seconds: 200))
        try sync(b); try sync(a); try sync(b)
        for store in [a, b] {
            XCTAssertNil(try store.learningSettings().parameters)
            XCTAssertEqual(try store.learningSettings().desiredRetention, 0.85)
            XCTAssertEqual(try store.schedule(wordId: word.id), FSRSScheduler(desiredRetention: 0.85).replay(log))
        }
    }

    func testTheSameBookAndWordMadeOfflineOnTwoDevicesMergeTheSameWay() throws {
        let a = try device("a"), b = try device("b")
        let bookA = try a.addBook(BookDraft(name: "TOEIC"), now: t0)
        try a.addWord(WordDraft(word: "apple", definition: "from a"), toBook: bookA.id, now: t0)
        let bookB = try b.addBook(BookDraft(name: "toeic"), now: t0)
        try b.addWord(WordDraft(word: "apple", synonym: "from b"), toBook: bookB.id, now: t0.adding(seconds: 5))
        try b.addWord(WordDraft(word: "pear"), toBook: bookB.id, now: t0)
        try sync(a); try sync(b); try sync(a); try sync(b)
        XCTAssertEqual(try a.bookSummaries().count, 1)
        XCTAssertEqual(try snapshot(a), try snapshot(b))
        XCTAssertEqual(try a.words().map(\.word).sorted(), ["apple", "pear"])
        XCTAssertEqual(try a.bookSummaries().first?.book.id, try b.bookSummaries().first?.book.id)
    }

    /// Device A folds B's book into its own same-named book; A then edits its book, so on the
    /// server the fold's tombstone comes before the surviving book. A word B added offline to
    /// its book meanwhile must land in the surviving book, not vanish with the tombstone.
    func testAWordAddedToABookAnotherDeviceFoldedAwaySurvives() throws {
        // One page, and pages of one record (the tombstone then arrives a page before the survivor).
        for pageSize in [2000, 1] { try foldScenario(pageSize: pageSize) }
    }

    private func foldScenario(pageSize: Int) throws {
        let a = try device("a\(pageSize)"), b = try device("b\(pageSize)")
        // Ids from one generator, so that A's book surely has the smaller id and survives (books
        // made by `addBook` in the same millisecond could come out in either order).
        var ids = TimeOrderedIDs()
        let survivor = Book(id: ids.next(milliseconds: t0.milliseconds), name: "TOEIC \(pageSize)", createdAt: t0, modifiedAt: t0)
        let folded = Book(id: ids.next(milliseconds: t0.milliseconds), name: "toeic \(pageSize)", createdAt: t0, modifiedAt: t0)
        try a.transaction { try a.insert(survivor) }
        try b.transaction { try b.insert(folded) }
        try b.addWord(WordDraft(word: "first"), toBook: folded.id, now: t0)
        try sync(b)
        try b.addWord(WordDraft(word: "offline"), toBook: folded.id, now: t0)      // not pushed yet
        try sync(a)                                                              // folds B's book into A's
        _ = try a.updateBook(id: survivor.id, BookChanges(explain: "edited after the fold"), now: t0.adding(seconds: 60))
        try sync(a)
        try sync(b, pageSize: pageSize); try sync(a)
        XCTAssertEqual(try b.words(WordFilter(bookId: survivor.id)).map(\.word).sorted(), ["first", "offline"], "pages of \(pageSize)")
        XCTAssertEqual(try snapshot(a), try snapshot(b))
        let books = try b.bookSummaries().filter { $0.book.name.hasSuffix(" \(pageSize)") }
        XCTAssertEqual(books.map(\.book.id), [survivor.id])
        XCTAssertEqual(books.first?.book.explain, "edited after the fold")
    }

    func testAFirstSyncPushesEveryObjectOnceWhetherAddedByHandOrImported() throws {
        let a = try device("a")
        let book = try a.addBook(BookDraft(name: "Hand"), now: t0)
        for word in ["one", "two", "three"] { try a.addWord(WordDraft(word: word), toBook: book.id, now: t0) }
        var reader = try WordFileReader(ArrayByteStream("word\nfour\nfive\n"), format: .csv)
        _ = try WordImporter(defaultBook: "Imported", now: t0).run(&reader, into: a)
        let report = try sync(a)
        XCTAssertEqual(report.pushed, 7, "2 books and 5 words, each once")
        XCTAssertEqual(try a.outboxCount(), 0)
        let b = try device("b")
        XCTAssertEqual(try sync(b).pulled, 7)
        XCTAssertEqual(try snapshot(a), try snapshot(b))
    }

    func testBigBooksComeOverWholePageByPage() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "Big"), now: t0)
        try a.transaction {
            for index in 0..<2500 { try a.addWord(WordDraft(word: "word\(index)"), toBook: book.id, now: t0) }
        }
        XCTAssertEqual(try sync(a, batchSize: 700).pushed, 2501)
        let report = try sync(b, pageSize: 300)
        XCTAssertEqual(report.pulled, 2501)
        XCTAssertEqual(try b.wordCount(), 2500)
    }

    func testAMalformedRemoteRowIsSkippedAndReportedAndTheRestSyncs() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        try a.addWord(WordDraft(word: "fine"), toBook: book.id, now: t0)
        try sync(a)
        let asServer = try server.tier()
        try asServer.execute("""
            SELECT vocab.push($2, $3, (SELECT latest FROM vocab.counts($2, $3)), jsonb_build_array(jsonb_build_object(
                'k', 'word', 'i', $1::text, 'd', false, 'b', '{"definition": 7}'::jsonb))::text, false)
            """, [UUID().uuidString, login.device.id, login.device.secret])
        let report = try sync(b)
        XCTAssertEqual(report.skipped.count, 1, "\(report.skipped)")
        XCTAssertEqual(try b.words().map(\.word), ["fine"])
    }

    func testSettingsFromTheCloudOutsideTheLimitsAreSkippedAndTheDefaultsStay() throws {
        let a = try device("a")
        try a.addBook(BookDraft(name: "B"), now: t0)
        try sync(a)
        let asServer = try server.tier()
        let wild = "[" + Array(repeating: "50", count: 21).joined(separator: ",") + "]"
        try asServer.execute("""
            SELECT vocab.push($3, $4, (SELECT latest FROM vocab.counts($3, $4)), jsonb_build_array(jsonb_build_object(
                'k', 'settings', 'i', $1::text, 'd', false,
                'b', jsonb_build_object('parameters', $2::text, 'retention', 0.9, 'changedAt', 99999999999999, 'device', 'x')))::text, false)
            """, [Store.learningSettingsId.uuidString, wild, login.device.id, login.device.secret])
        let report = try sync(a)
        XCTAssertEqual(report.skipped, ["settings \(Store.learningSettingsId.lowercaseText): parameters out of their limits"])
        XCTAssertEqual(try a.learningSettings(), LearningSettings())
    }

    /// A server asks the counts before a learner's write and syncs with them after it: counts
    /// another device made old meanwhile cost a pull, never a change.
    func testCountsKnownBeforeAnotherDevicesPushLoseNothing() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "TOEIC"), now: t0)
        let apple = try a.addWord(WordDraft(word: "apple", definition: "사과"), toBook: book.id, now: t0)
        try sync(a)
        try sync(b)
        let known = try DatabaseSyncChannel(connection: server.tier(), device: login.device).counts()
        try a.updateWord(id: apple.id, WordChanges(definition: "사과 (과일)"), now: t0.adding(seconds: 60))
        try sync(a)
        try b.addWord(WordDraft(word: "banana", definition: "바나나"), toBook: book.id, now: t0.adding(seconds: 120))
        let report = try SyncEngine(store: b, channel: DatabaseSyncChannel(connection: server.tier(), device: login.device),
                                    account: login.address.url, learner: login.address.user).run(known: known)
        XCTAssertEqual(report.pushed, 1)
        XCTAssertEqual(report.pulled, 1, "a's edit, which the old counts did not know of, was pulled")
        XCTAssertFalse(report.repaired)
        try sync(a)
        XCTAssertEqual(try snapshot(a), try snapshot(b))
        XCTAssertEqual(try snapshot(b), ["TOEIC|apple|사과 (과일)|||false", "TOEIC|banana|바나나|||false"])
    }

    /// A sync of one change asks the account's counts once, as it begins (none when the caller
    /// knows them): the push answers the counts the closing check needs.
    func testASyncOfOneChangeAsksTheCountsOnceAndWithThemKnownNever() throws {
        let a = try device("a")
        let book = try a.addBook(BookDraft(name: "TOEIC"), now: t0)
        try sync(a)
        let channel = CountingChannel(try DatabaseSyncChannel(connection: server.tier(), device: login.device))
        func syncOnce(known: CloudCounts?) throws -> SyncReport {
            try SyncEngine(store: a, channel: channel, account: login.address.url, learner: login.address.user).run(known: known)
        }
        try a.addWord(WordDraft(word: "apple"), toBook: book.id, now: t0)
        var report = try syncOnce(known: nil)
        XCTAssertEqual(report.pushed, 1)
        XCTAssertFalse(report.repaired)
        XCTAssertEqual(channel.countsAsked, 1)
        let known = try channel.counts()
        try a.addWord(WordDraft(word: "pear"), toBook: book.id, now: t0)
        report = try syncOnce(known: known)
        XCTAssertEqual(report.pushed, 1)
        XCTAssertFalse(report.repaired)
        XCTAssertEqual(channel.countsAsked, 2, "only the test's own ask")
        XCTAssertEqual(try channel.counts(), CloudCounts(books: 1, words: 2, reviews: 0, latest: 3))
    }

    func testConcurrentPushesFromTwoDevicesLoseNoRowForAThirdReader() throws {
        let seed = try device("seed")
        let book = try seed.addBook(BookDraft(name: "Shared"), now: t0)
        try sync(seed)
        for name in ["a", "b"] { try sync(try device(name)) }
        let folder = self.folder!, login = self.login!, server = self.server!
        let start = t0
        // What each device's concurrent rounds did: every add must land, and every sync either
        // push or be told the account is busy (the other device's push holds its lock).
        let failures = Mutex<[String]>([]), pushedConcurrently = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let name = index == 0 ? "a" : "b"
            do {
                let store = try Store.open(folder: folder + "/" + name)
                for round in 0..<5 {
                    try store.transaction {
                        for n in 0..<40 { try store.addWord(WordDraft(word: "\(name)-\(round)-\(n)"), toBook: book.id, now: start) }
                    }
                    do {
                        let report = try SyncEngine(store: store, connection: try server.tier(), device: login.device, account: login.address,
                                                    batchSize: 25).run()
                        pushedConcurrently.withLock { $0[name, default: 0] += report.pushed }
                    } catch CloudError.lockNotAvailable {
                        continue  // busy with the other device's push: this round's words go with the next
                    }
                }
            } catch {
                failures.withLock { $0.append("\(name): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [], "no add and no sync failed but for a busy account")
        let pushed = pushedConcurrently.withLock { $0 }
        XCTAssertGreaterThan(pushed["a"] ?? 0, 0, "a pushed while b did: \(pushed)")
        XCTAssertGreaterThan(pushed["b"] ?? 0, 0, "b pushed while a did: \(pushed)")
        try sync(try device("a")); try sync(try device("b"))
        let reader = try device("reader")
        try sync(reader, pageSize: 50)
        XCTAssertEqual(try reader.wordCount(), 400)
        XCTAssertEqual(try device("a").wordCount(), 400)
        XCTAssertEqual(try device("b").wordCount(), 400)
    }

    func testAConnectionKilledMidSyncLosesAndDuplicatesNothingOnTheNextSync() throws {
        let a = try device("a")
        let book = try a.addBook(BookDraft(name: "Cut"), now: t0)
        try a.transaction {
            for index in 0..<3000 { try a.addWord(WordDraft(word: "w\(index)"), toBook: book.id, now: t0) }
        }
        let user = login.address.user, adminLogin = self.adminLogin!
        // The server's connection this sync runs on is ended while it pushes.
        let connection = try server.tier()
        let pid = try XCTUnwrap(try connection.execute("SELECT pg_backend_pid()::text").first?.first ?? nil)
        let killer = Thread {
            guard let admin = try? PostgresConnection(adminLogin.address, password: adminLogin.password) else { return }
            for _ in 0..<200 {
                if let killed = try? admin.execute("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1::int AND query LIKE '%vocab.push%'
                    """, [pid]), !killed.isEmpty { return }
                usleep(2000)
            }
        }
        killer.start()
        XCTAssertThrowsError(try sync(a, batchSize: 50, on: connection)) { error in
            XCTAssertEqual((error as? CloudError)?.category, .cloudUnavailable, "\(error)")
        }
        try sync(a, batchSize: 500)
        XCTAssertEqual(try a.outboxCount(), 0)
        let count = try admin.execute("SELECT count(*)::text FROM vocab.records WHERE owner = $1 AND kind = 'word'", [user])
        XCTAssertEqual(count, [["3000"]])
        let b = try device("b")
        XCTAssertEqual(try sync(b).pulled, 3001)
        XCTAssertEqual(try b.wordCount(), 3000)
    }
}

/// Runs a shell script of the test harness with posix_spawn and waitpid; returns its exit
/// status. (Foundation's Process would wait for the server the script starts, since the
/// server inherits the descriptor Process watches.)
private func runScript(_ path: String) -> Int32 {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup(path), nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    guard posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

extension SyncEngineTests {
    func testTheServerStoppedMidSyncLosesAndDuplicatesNothingOnceItIsBack() throws {
        // The server can be stopped only when it is scripts/test.sh's own cluster.
        let stop = try requiredService("VOCAB_TEST_PG_STOP", "script that stops the suite's own PostgreSQL")
        let start = try requiredService("VOCAB_TEST_PG_START", "script that starts the suite's own PostgreSQL")
        let a = try device("a")
        let book = try a.addBook(BookDraft(name: "Outage"), now: t0)
        try a.transaction {
            for index in 0..<3000 { try a.addWord(WordDraft(word: "w\(index)"), toBook: book.id, now: t0) }
        }
        // The server stops right after the first batch is stored: the sync is cut in the middle.
        let stopper = Thread { _ = runScript(stop) }
        let connection = try server.tier()
        let engine = SyncEngine(store: a, connection: connection, device: login.device, account: login.address, batchSize: 20) { step in
            if case .pushed = step, !stopper.isExecuting && !stopper.isFinished {
                stopper.start()
                while !stopper.isFinished { usleep(10_000) }
            }
        }
        XCTAssertThrowsError(try engine.run()) { error in
            XCTAssertEqual((error as? CloudError)?.category, .cloudUnavailable, "\(error)")
        }
        XCTAssertGreaterThan(try a.outboxCount(), 0, "the sync was cut before the end")
        while stopper.isExecuting { usleep(10_000) }
        XCTAssertEqual(runScript(start), 0, "the server starts again")
        admin = try PostgresConnection(adminLogin.address, password: adminLogin.password)
        try sync(a, batchSize: 500)
        XCTAssertEqual(try a.outboxCount(), 0)
        let count = try admin.execute("SELECT count(*)::text FROM vocab.records WHERE owner = $1 AND kind = 'word'", [login.address.user])
        XCTAssertEqual(count, [["3000"]])
        let b = try device("b")
        try sync(b)
        XCTAssertEqual(try b.wordCount(), 3000)
    }
}

/// A channel that counts how often the account's counts are asked.
final class CountingChannel: SyncChannel {
    let inner: SyncChannel
    private(set) var countsAsked = 0
    init(_ inner: SyncChannel) { self.inner = inner }
    func counts() throws -> CloudCounts {
        countsAsked += 1
        return try inner.counts()
    }
    func pull(after token: Int64, limit: Int) throws -> [PulledRow] { try inner.pull(after: token, limit: limit) }
    func startPush(token: Int64, batch: String, intoEmptyAccount: Bool) throws {
        try inner.startPush(token: token, batch: batch, intoEmptyAccount: intoEmptyAccount)
    }
    func finishPush() throws -> PushOutcome { try inner.finishPush() }
    func abandonPush() { inner.abandonPush() }
}
