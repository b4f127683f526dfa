import XCTest
import TestServices
import VocabCore
@testable import VocabStore
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// A learner's devices syncing at once: a push that meets another device's newer changes is
/// stored after them when it touches none of their records (cloud schema 7), and pulled again
/// first when it does.
extension SyncEngineTests {
    /// Device b syncing between a's pull and a's first push.
    private func racing(_ b: Store) throws -> RacingChannel {
        RacingChannel(DatabaseSyncChannel(connection: try server.tier(), device: login.device)) { [unowned self] in
            try self.sync(b)
        }
    }

    private func words(_ store: Store) throws -> [String] {
        try store.words().map { "\($0.word)|\($0.definition)" }.sorted()
    }

    func testAPushTouchingNoneOfAnotherDevicesNewChangesIsStoredAfterThemAndTheyArePulledAfter() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "TOEIC"), now: t0)
        try sync(a); try sync(b)
        try a.addWord(WordDraft(word: "from-a"), toBook: book.id, now: t0)
        try b.addWord(WordDraft(word: "from-b"), toBook: book.id, now: t0)
        let channel = try racing(b)
        let report = try sync(a, through: channel)
        XCTAssertEqual(channel.pushes, 1, "a's batch went in after b's once: not refused and sent again")
        XCTAssertEqual(report.pushed, 1)
        XCTAssertEqual(report.pulled, 1, "b's word, and not a's own row again")
        XCTAssertEqual(try words(a), ["from-a|", "from-b|"])
        try sync(b)
        XCTAssertEqual(try words(b), try words(a))
        let counts = try DatabaseSyncChannel(connection: server.tier(), device: login.device).counts()
        XCTAssertEqual(try a.syncToken(for: login.address.url), counts.latest, "a's token caught up past both")
        XCTAssertEqual(try sync(a).pulled, 0, "nothing comes twice")
    }

    func testAPushTouchingARecordAnotherDeviceChangedIsRefusedAndSentAgainAfterThePull() throws {
        let a = try device("a"), b = try device("b")
        let book = try a.addBook(BookDraft(name: "TOEIC"), now: t0)
        let apple = try a.addWord(WordDraft(word: "apple"), toBook: book.id, now: t0)
        try sync(a); try sync(b)
        try a.updateWord(id: apple.id, WordChanges(definition: "newer"), now: t0.adding(seconds: 120))
        try b.updateWord(id: try b.word("apple", inBook: nil).id, WordChanges(definition: "older"), now: t0.adding(seconds: 60))
        let channel = try racing(b)
        try sync(a, through: channel)
        XCTAssertEqual(channel.pushes, 2, "refused once (b changed apple since a pulled), sent again after a merged b's change")
        XCTAssertEqual(try words(a), ["apple|newer"])
        try sync(b)
        XCTAssertEqual(try words(b), ["apple|newer"])
    }

    func testADeviceThatDoesNotAskToMergeIsRefusedAsBefore() throws {
        let asServer = try server.tier()
        let key = login.device
        func push(expected: Int64, id: UUID, merge: Bool) throws -> String? {
            let batch = #"[{"k":"book","i":"\#(id.lowercaseText)","d":false,"b":{"name":"x"}}]"#
            return try asServer.execute("SELECT vocab.push($1, $2, $3::bigint, $4, false, $5::boolean)::text",
                                        [key.id, key.secret, String(expected), batch, merge ? "true" : "false"]).first?.first ?? nil
        }
        let first = UUID(), second = UUID()
        XCTAssertEqual(try push(expected: 0, id: first, merge: false), "1")
        XCTAssertNil(try push(expected: 0, id: second, merge: false), "stale, and not asked to merge")
        XCTAssertNil(try push(expected: 0, id: first, merge: true), "its record changed after 0")
        XCTAssertEqual(try push(expected: 0, id: second, merge: true), "2", "stored after the change it does not touch")
        XCTAssertNil(try push(expected: 5, id: UUID(), merge: true), "a token the account never gave")
    }
}

/// A channel that runs `meanwhile` once, just before its first push.
private final class RacingChannel: SyncChannel {
    let inner: SyncChannel
    let meanwhile: () throws -> Void
    var pushes = 0

    init(_ inner: SyncChannel, meanwhile: @escaping () throws -> Void) {
        self.inner = inner
        self.meanwhile = meanwhile
    }

    func counts() throws -> CloudCounts { try inner.counts() }
    func pull(after token: Int64, limit: Int) throws -> [PulledRow] { try inner.pull(after: token, limit: limit) }
    func startPush(token: Int64, batch: String, intoEmptyAccount: Bool) throws {
        if pushes == 0 { try meanwhile() }
        pushes += 1
        try inner.startPush(token: token, batch: batch, intoEmptyAccount: intoEmptyAccount)
    }
    func finishPush() throws -> PushOutcome { try inner.finishPush() }
    func abandonPush() { inner.abandonPush() }
}
