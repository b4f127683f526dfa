import XCTest
import TestServices
import VocabCore
@testable import VocabStore
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// A first sync's batches go in line by line (`vocab.push_lines`); anything the plain insert
/// cannot take goes back to `vocab.push`, which stores or refuses it as always.
extension SyncEngineTests {
    private func record(_ id: UUID, kind: String = "book", body: String = #"{"name":"x"}"#) -> String {
        #"{"k":"\#(kind)","i":"\#(id.lowercaseText)","d":false,"b":\#(body)}"#
    }

    func testNewRecordsGoInLineByLineAndWhatTheInsertCannotTakeFallsBackToThePush() throws {
        let channel = DatabaseSyncChannel(connection: try server.tier(), device: login.device)
        let first = UUID(), second = UUID()
        try channel.startPush(token: 0, batch: "[" + record(first) + ",\n" + record(second) + "]", intoEmptyAccount: true)
        XCTAssertEqual(try channel.finishPush(), .stored(latest: 2, counts: CloudCounts(books: 2, words: 0, reviews: 0, latest: 2)),
                       "the counts as the push left them, in the same round trip")
        XCTAssertEqual(try channel.counts(), CloudCounts(books: 2, words: 0, reviews: 0, latest: 2))
        XCTAssertEqual(try channel.pull(after: 0, limit: 10).map(\.id), [first.lowercaseText, second.lowercaseText])

        // A record already there, a line that is no record: nothing of the batch is kept, and the
        // engine is told to send it as an upsert.
        for batch in ["[" + record(UUID()) + "," + record(first) + "]", "[" + record(UUID(), kind: "bogus") + "]"] {
            try channel.startPush(token: 2, batch: batch, intoEmptyAccount: true)
            XCTAssertEqual(try channel.finishPush(), .retryAsUpsert, batch)
        }
        XCTAssertEqual(try channel.counts().latest, 2, "nothing of them was stored")
        // Moved on since: nothing stored, pull first.
        try channel.startPush(token: 1, batch: "[" + record(UUID()) + "]", intoEmptyAccount: true)
        XCTAssertEqual(try channel.finishPush(), .accountMoved)
        // A record over its bound is refused as by the push.
        let big = #"{"review":""# + String(repeating: "x", count: 5_000) + #""}"#
        try channel.startPush(token: 2, batch: "[" + record(UUID(), kind: "review", body: big) + "]", intoEmptyAccount: true)
        XCTAssertThrowsError(try channel.finishPush()) { error in
            guard case CloudError.quotaExceeded = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try channel.counts().latest, 2)
        // The upsert tells the counts as it left them too: a deletion, an edit.
        let deletion = #"[{"k":"book","i":"\#(first.lowercaseText)","d":true,"b":{}},"# + record(second, body: #"{"name":"y"}"#) + "]"
        try channel.startPush(token: 2, batch: deletion, intoEmptyAccount: false)
        XCTAssertEqual(try channel.finishPush(), .stored(latest: 4, counts: CloudCounts(books: 1, words: 0, reviews: 0, latest: 4)))
        XCTAssertEqual(try channel.counts(), CloudCounts(books: 1, words: 0, reviews: 0, latest: 4))
        // One that touches a record changed since its token: nothing stored, no counts.
        try channel.startPush(token: 2, batch: "[" + record(second, body: #"{"name":"z"}"#) + "]", intoEmptyAccount: false)
        XCTAssertEqual(try channel.finishPush(), .accountMoved)
    }

    func testADevicesLinesGoInAsTheyAreAndAnythingElseFallsBackToThePush() throws {
        let channel = DatabaseSyncChannel(connection: try server.tier(), device: login.device)
        let first = UUID(), second = UUID()
        try channel.startPush(token: 0, batch: record(first) + "\n" + record(second), intoEmptyAccount: true)
        XCTAssertEqual(try channel.finishPush(), .stored(latest: 2, counts: CloudCounts(books: 2, words: 0, reviews: 0, latest: 2)))
        XCTAssertEqual(try channel.pull(after: 0, limit: 10).map(\.id), [first.lowercaseText, second.lowercaseText])
        // Two records on one line, an empty line: no record each; nothing of the batch is kept.
        for batch in [record(UUID()) + record(UUID()), record(UUID()) + "\n\n" + record(UUID())] {
            try channel.startPush(token: 2, batch: batch, intoEmptyAccount: true)
            XCTAssertEqual(try channel.finishPush(), .retryAsUpsert, batch)
        }
        XCTAssertEqual(try channel.counts().latest, 2)
    }

    func testTheEngineWritesNewRecordsOneALineWithNoNewlineInABody() {
        let id = UUID()
        let entry = OutboxEntry(place: .outbox(rowid: 1), record: SyncRecord(kind: "word", id: id, deleted: false, body: "{\"word\":\n\"a\"}"))
        let object = #"{"k":"word","i":"\#(id.lowercaseText)","d":false,"b":{"word":\#n"a"}}"#
        XCTAssertEqual(SyncEngine.batchText([entry, entry], asLines: false), "[" + object + "," + object + "]")
        let line = object.replacingOccurrences(of: "\n", with: " ")
        XCTAssertEqual(SyncEngine.batchText([entry, entry], asLines: true), line + "\n" + line)
    }
}
