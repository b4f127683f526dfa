import XCTest
import TestServices
import VocabCore
@testable import VocabStore
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// A first sync's batches go ahead of each other (`pushesAhead`): the next is sent before the
/// one before is answered, with the token that one will leave. The cloud reads it meanwhile and
/// stores it after the one before; whatever goes wrong, every record is stored once, in order.
extension SyncEngineTests {
    private func line(_ id: UUID) -> String {
        #"{"k":"book","i":"\#(id.lowercaseText)","d":false,"b":{"name":"x"}}"#
    }

    /// Waits until `sessions` of the cloud's sessions sleep (a batch waiting for the one before it).
    private func waitUntilSleeping(_ sessions: Int) throws {
        for _ in 0..<500 {
            let sleeping = try admin.execute("SELECT count(*)::text FROM pg_stat_activity WHERE wait_event = 'PgSleep'").first?.first ?? nil
            if sleeping == String(sessions) { return }
            usleep(10_000)
        }
        XCTFail("no batch waited for the one before it")
    }

    func testABatchThatCameFirstWaitsForTheOneBeforeItAndOneWhoseBatchNeverComesIsMoved() throws {
        let first = DatabaseSyncChannel(connection: try server.tier(), device: login.device)
        let second = DatabaseSyncChannel(connection: try server.tier(), device: login.device)
        let a = [UUID(), UUID()], b = [UUID(), UUID()]
        try second.startPush(token: 2, batch: line(b[0]) + "\n" + line(b[1]), intoEmptyAccount: true)
        try waitUntilSleeping(1)
        try first.startPush(token: 0, batch: line(a[0]) + "\n" + line(a[1]), intoEmptyAccount: true)
        XCTAssertEqual(try first.finishPush(), .stored(latest: 2, counts: CloudCounts(books: 2, words: 0, reviews: 0, latest: 2)))
        XCTAssertEqual(try second.finishPush(), .stored(latest: 4, counts: CloudCounts(books: 4, words: 0, reviews: 0, latest: 4)))
        let pulled = try first.pull(after: 0, limit: 10)
        XCTAssertEqual(pulled.map(\.id), (a + b).map(\.lowercaseText))
        XCTAssertEqual(pulled.map(\.seq), [1, 2, 3, 4])

        // Sent after a batch that never comes: it waits a while, then stores nothing.
        try second.startPush(token: 6, batch: line(UUID()), intoEmptyAccount: true)
        XCTAssertEqual(try second.finishPush(), .accountMoved)
        XCTAssertEqual(try first.counts().latest, 4)
    }

    func testBatchesSentAheadStoreEveryRecordOnceInOrder() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "Big"), now: t0)
        try a.transaction {
            for index in 0..<1200 { try a.addWord(WordDraft(word: "word\(index)"), toBook: book.id, now: t0) }
        }
        let channel = try TwoLaneChannel(server, device: login.device)
        XCTAssertEqual(try sync(a, batchSize: 100, through: channel).pushed, 1201)
        XCTAssertGreaterThan(channel.sentAhead, 5, "batches went ahead of each other")
        try checkStoredOnceInOrder(1201)
        XCTAssertEqual(try a.outboxCount(), 0)
        XCTAssertEqual(try sync(b, pageSize: 500).pulled, 1201)
        XCTAssertEqual(try b.wordCount(), 1200)
    }

    func testABatchAheadAnsweredMovedOrBehindOneToSendAgainGoesAgainAndNothingTwice() throws {
        // A cloud that does not wait for the batch before (answers "moved" at once), and a first
        // batch the cloud could not insert (sent again as an upsert) while the next is on its way.
        for fault in [TwoLaneChannel.Fault.firstAheadMoved, .firstAsUpsert] {
            let store = try device("fault-\(fault)")
            let learner = try server.addUser("ahead_" + UUID().uuidString.prefix(8).lowercased(), password: "pw")
            let book = try store.addBook(BookDraft(name: "Big"), now: t0)
            try store.transaction {
                for index in 0..<450 { try store.addWord(WordDraft(word: "word\(index)"), toBook: book.id, now: t0) }
            }
            let channel = try TwoLaneChannel(server, device: learner.device, fault: fault)
            let report = try SyncEngine(store: store, channel: channel, account: learner.address.url, learner: learner.address.user,
                                        batchSize: 100).run()
            XCTAssertFalse(report.repaired, "\(fault)")
            XCTAssertEqual(report.pushed, 451, "\(fault)")
            XCTAssertTrue(channel.faulted, "\(fault)")
            if fault == .firstAheadMoved { XCTAssertEqual(channel.upserts, 0, "the batches after it still went as new records") }
            try checkStoredOnceInOrder(451, owner: learner.address.user)
            XCTAssertEqual(try store.outboxCount(), 0)
        }
    }

    /// The learner's records in the cloud: `count`, each once, their seqs 1 to `count`.
    private func checkStoredOnceInOrder(_ count: Int, owner: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let row = try admin.execute("""
            SELECT count(*)::text, count(DISTINCT id)::text, min(seq)::text, max(seq)::text, count(DISTINCT seq)::text
            FROM vocab.records WHERE owner = $1
            """, [owner ?? login.address.user]).first
        let text = String(count)
        XCTAssertEqual(row, [text, text, "1", text, text], file: file, line: line)
    }
}

/// Two connections to the cloud, a push on each in turn (as a device's pushes go through the
/// Vocab server), so that a batch of new records goes ahead of the one before. A `fault`: the
/// first batch sent ahead answered "moved" without being sent (a cloud that does not wait for
/// the batch before), or the first batch answered "send again as an upsert" without being sent
/// (while the next, sent ahead, waits for it in vain).
final class TwoLaneChannel: SyncChannel {
    enum Fault { case none, firstAheadMoved, firstAsUpsert }
    private let lanes: [DatabaseSyncChannel]
    private var fault: Fault
    /// Pushes begun, oldest first: the lane each went on, or the answer given without sending.
    private var pending: [(lane: Int, answer: PushOutcome?)] = []
    private(set) var sentAhead = 0
    private(set) var faulted = false
    /// Batches sent as upserts (not as new records).
    private(set) var upserts = 0

    init(_ server: TestPostgres, device: DeviceKey, fault: Fault = .none) throws {
        lanes = [DatabaseSyncChannel(connection: try server.tier(), device: device),
                 DatabaseSyncChannel(connection: try server.tier(), device: device)]
        self.fault = fault
    }

    var pushesAhead: Int { 2 }
    func counts() throws -> CloudCounts { try lanes[0].counts() }
    func pull(after token: Int64, limit: Int) throws -> [PulledRow] { try lanes[0].pull(after: token, limit: limit) }

    func startPush(token: Int64, batch: String, intoEmptyAccount: Bool) throws {
        let lane = pending.first.map { 1 - $0.lane } ?? 0
        let ahead = !pending.isEmpty
        if ahead { sentAhead += 1 }
        switch fault {
        case .firstAheadMoved where ahead:
            fault = .none
            faulted = true
            pending.append((lane, .accountMoved))
            return
        case .firstAsUpsert where intoEmptyAccount && !ahead:
            fault = .none
            faulted = true
            pending.append((lane, .retryAsUpsert))
            return
        default:
            break
        }
        try lanes[lane].startPush(token: token, batch: batch, intoEmptyAccount: intoEmptyAccount)
        pending.append((lane, nil))
        if !intoEmptyAccount { upserts += 1 }
    }

    func finishPush() throws -> PushOutcome {
        let push = pending.removeFirst()
        if let answer = push.answer { return answer }
        return try lanes[push.lane].finishPush()
    }

    func abandonPush() {
        for push in pending where push.answer == nil { lanes[push.lane].abandonPush() }
        pending = []
    }
}
