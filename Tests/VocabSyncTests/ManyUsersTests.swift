import XCTest
import VocabCore
@testable import VocabStore
@testable import VocabSync

/// Issue 17: one user cannot delay another, every wait is bounded, the schema version is
/// checked, and an administrator's cap is enforced by the server — against the real PostgreSQL.
final class ManyUsersTests: XCTestCase {
    var server: TestPostgres!
    var folder: String!
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    override func setUpWithError() throws {
        server = try TestPostgres()
        folder = NSTemporaryDirectory() + "vocab-many-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func user(_ prefix: String) throws -> CloudLogin {
        try server.addUser(prefix + "_" + UUID().uuidString.prefix(8).lowercased(), password: "pw")
    }

    private func storeWithWords(_ name: String, count: Int) throws -> Store {
        let store = try Store.open(folder: folder + "/" + name)
        let book = try store.addBook(BookDraft(name: "Book"), now: t0)
        try store.transaction {
            for index in 0..<count { try store.addWord(WordDraft(word: "\(name)\(index)"), toBook: book.id, now: t0) }
        }
        return store
    }

    private func sync(_ store: Store, as login: CloudLogin, statementSeconds: Int = 10) throws -> SyncReport {
        let timeouts = CloudTimeouts(connectSeconds: 5, statementSeconds: statementSeconds, lockSeconds: 5)
        let connection = try PostgresConnection(login.address, password: login.password, timeouts: timeouts)
        return try SyncEngine(store: store, connection: connection, batchSize: 50).run()
    }

    func testAUserHoldingEveryLockHeCanTakeDoesNotStopAnothersSync() throws {
        let alice = try user("alice"), bob = try user("bob")
        let asBob = try PostgresConnection(bob.address, password: bob.password)
        // Advisory locks on every key bob can compute for alice (the old scheme's), held for the session.
        for key in ["hashtext('\(alice.address.user)')", "hashtext('alice')", "0", "1"] {
            try asBob.execute("SELECT pg_advisory_lock(\(key))")
        }
        try asBob.execute("BEGIN")
        // The strongest lock he can get on every table and sequence he can name.
        var granted: [String: String] = [:]
        for table in ["vocab.records", "vocab.meta", "vocab.accounts", "vocab.change_seq"] {
            for mode in ["ACCESS EXCLUSIVE", "EXCLUSIVE", "SHARE ROW EXCLUSIVE", "SHARE", "SHARE UPDATE EXCLUSIVE",
                         "ROW EXCLUSIVE", "ROW SHARE", "ACCESS SHARE"] {
                try asBob.execute("SAVEPOINT attempt")
                if (try? asBob.execute("LOCK TABLE \(table) IN \(mode) MODE")) != nil {
                    granted[table] = mode
                    break
                }
                try asBob.execute("ROLLBACK TO SAVEPOINT attempt")
            }
        }
        for statement in ["SELECT * FROM vocab.records FOR UPDATE", "SELECT * FROM vocab.accounts FOR UPDATE"] {
            try asBob.execute("SAVEPOINT attempt")
            XCTAssertThrowsError(try asBob.execute(statement), statement)
            try asBob.execute("ROLLBACK TO SAVEPOINT attempt")
        }
        // And his own push, left uncommitted: it holds his own account row, nobody else's.
        try asBob.execute("SELECT vocab.push(0, '[]', false)")
        XCTAssertEqual(granted, ["vocab.meta": "ACCESS SHARE"],
                       "only locks that block nobody's sync")

        let store = try storeWithWords("alice", count: 120)
        let report = try sync(store, as: alice, statementSeconds: 10)
        XCTAssertEqual(report.pushed, 121)
        XCTAssertEqual(try store.outboxCount(), 0)
        try asBob.execute("ROLLBACK")
    }

    func testASyncThatCannotFinishStopsInTimeLosesNothingAndTheNextOneResumes() throws {
        let alice = try user("slow")
        let store = try storeWithWords("slow", count: 30)
        // Maintenance (or a stuck server): the administrator holds the records table.
        let maintenance = try PostgresConnection(server.adminLogin.address, password: server.adminLogin.password)
        try maintenance.execute("BEGIN")
        try maintenance.execute("LOCK TABLE vocab.records IN ACCESS EXCLUSIVE MODE")
        let started = ContinuousClock.now
        XCTAssertThrowsError(try sync(store, as: alice, statementSeconds: 2)) { error in
            guard case .timedOut(_, let seconds)? = error as? CloudError else { return XCTFail("\(error)") }
            XCTAssertEqual(seconds, 2)
            XCTAssertEqual((error as? CloudError)?.category, .cloudUnavailable)
        }
        XCTAssertLessThan(started.duration(to: .now), .seconds(30), "the wait was bounded")
        XCTAssertEqual(try store.outboxCount(), 31, "nothing was lost")
        try maintenance.execute("ROLLBACK")
        XCTAssertEqual(try sync(store, as: alice).pushed, 31)
        XCTAssertEqual(try store.outboxCount(), 0)
    }

    func testTheServerRefusesAPushPastTheAdministratorsCapAndNothingLocalIsLost() throws {
        let alice = try user("capped")
        try CloudSchema.setRecordLimit(alice.address.user, to: 10, on: server.admin)
        let store = try storeWithWords("capped", count: 20)
        XCTAssertThrowsError(try sync(store, as: alice)) { error in
            guard case .quotaExceeded(let detail)? = error as? CloudError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("may hold 10 records"), detail)
        }
        XCTAssertEqual(try store.wordCount(), 20)
        XCTAssertEqual(try store.outboxCount(), 21, "everything still waits to be pushed")
        try CloudSchema.setRecordLimit(alice.address.user, to: nil, on: server.admin)
        XCTAssertEqual(try sync(store, as: alice).pushed, 21)
    }

    func testAClientRefusesASchemaOlderOrNewerThanItSpeaks() throws {
        let alice = try user("version")
        defer { _ = try? server.admin.execute("UPDATE vocab.meta SET value = $1 WHERE key = 'schema_version'", [String(CloudSchema.version)]) }
        for (found, expected) in [(CloudSchema.version - 1, "older"), (CloudSchema.version + 1, "newer")] {
            try server.admin.execute("UPDATE vocab.meta SET value = $1 WHERE key = 'schema_version'", [String(found)])
            let status = AccountStatus.check(alice)
            switch (status, expected) {
            case (.accessDenied(.schemaTooOld(_, let seen, _)), "older"): XCTAssertEqual(seen, found)
            case (.accessDenied(.schemaTooNew(_, let seen, _)), "newer"): XCTAssertEqual(seen, found)
            default: XCTFail("\(status) for a schema \(expected) than this Vocab's")
            }
            XCTAssertTrue(status.refusal?.message.contains(expected == "older" ? "an administrator must upgrade it" : "update Vocab") ?? false)
        }
    }
}

/// Reading libpq's messages needs no server (these ran with the class above, skipped with it).
final class PostgresMessageTests: XCTestCase {
    func testAFailedLoginIsRecognisedByItsSQLState() {
        XCTAssertEqual(PostgresConnection.sqlState(in: #"connection to server at "h", port 5 failed: FATAL:  28P01: password authentication failed for user "x""#).code,
                       "28P01")
        XCTAssertNil(PostgresConnection.sqlState(in: "could not connect to server: Connection refused").code)
        // PgBouncer refuses logins with its protocol-error code (measured: 08P01 for both).
        for refusal in ["no such user", "SASL authentication failed"] {
            let parsed = PostgresConnection.sqlState(in: "connection to server at \"h\", port 5 failed: FATAL:  08P01: \(refusal)")
            XCTAssertTrue(PostgresConnection.isPoolerLoginRefusal(code: parsed.code, detail: parsed.detail), refusal)
        }
        XCTAssertFalse(PostgresConnection.isPoolerLoginRefusal(code: "08P01", detail: "server conn crashed?"))
    }
}

/// Every sync ends by comparing counts with the server, and repairs a damaged store.
final class SyncCountCheckTests: XCTestCase {
    var server: TestPostgres!
    var login: CloudLogin!
    var folder: String!
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    override func setUpWithError() throws {
        server = try TestPostgres()
        login = try server.addUser("count_" + UUID().uuidString.prefix(8).lowercased(), password: "pw")
        folder = NSTemporaryDirectory() + "vocab-count-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func sync(_ store: Store) throws -> SyncReport {
        try SyncEngine(store: store, connection: try PostgresConnection(login.address, password: login.password)).run()
    }

    func testOrdinarySyncsAgreeWithTheServerAndRepairNothing() throws {
        let a = try Store.open(folder: folder + "/a"), b = try Store.open(folder: folder + "/b")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        let words = try (0..<5).map { try a.addWord(WordDraft(word: "w\($0)"), toBook: book.id, now: t0) }
        var ids = TimeOrderedIDs()
        try a.recordReview(wordId: words[0].id, rating: .good, at: t0, source: .study, ids: &ids)
        XCTAssertFalse(try sync(a).repaired)
        XCTAssertFalse(try sync(b).repaired)
        try b.deleteWord(id: words[0].id, now: t0)  // its review stays in the server's log
        XCTAssertFalse(try sync(b).repaired)
        XCTAssertFalse(try sync(a).repaired)
        XCTAssertEqual(try a.wordCount(), 4)
        // The server's kept totals (the first push went in as a plain insert into an empty
        // account, the rest as upserts) are what its records add up to.
        let kept = try server.admin.execute("""
            SELECT concat_ws(' ', live_books, live_words, live_reviews, total_records, total_bytes)
            FROM vocab.accounts WHERE owner = $1
            """, [login.address.user]).first?.first ?? nil
        let counted = try server.admin.execute("""
            SELECT concat_ws(' ', count(*) FILTER (WHERE kind = 'book' AND NOT deleted), count(*) FILTER (WHERE kind = 'word' AND NOT deleted),
                             count(*) FILTER (WHERE kind = 'review' AND NOT deleted), count(*), sum(octet_length(body::text)))
            FROM vocab.records WHERE owner = $1
            """, [login.address.user]).first?.first ?? nil
        XCTAssertEqual(kept, counted)
        XCTAssertEqual(kept, "1 4 1 7 \(try XCTUnwrap(counted?.split(separator: " ").last))", "a book, four live words, a review; seven records")
    }

    func testAStoreWhoseTokenWasDamagedIsRepairedByAFullPull() throws {
        let a = try Store.open(folder: folder + "/a"), b = try Store.open(folder: folder + "/b")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        try a.addWord(WordDraft(word: "first"), toBook: book.id, now: t0)
        _ = try sync(a)
        _ = try sync(b)
        // Damage: b believes it has seen far more of the server than it has.
        try b.setSyncToken(Int64.max / 2)
        try a.addWord(WordDraft(word: "second"), toBook: book.id, now: t0)
        _ = try sync(a)
        let report = try sync(b)
        XCTAssertTrue(report.repaired)
        XCTAssertEqual(try b.words().map(\.word).sorted(), ["first", "second"])
    }

    func testAStoreThatLostItsOutboxIsRepairedAndPushesWhatItHas() throws {
        let a = try Store.open(folder: folder + "/a")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        try a.addWord(WordDraft(word: "kept"), toBook: book.id, now: t0)
        _ = try sync(a)
        try a.addWord(WordDraft(word: "unsent"), toBook: book.id, now: t0)
        // Damage: the record of what waits to be pushed is lost.
        try a.database.execute("DELETE FROM outbox; DELETE FROM outbox_word_ranges;")
        XCTAssertTrue(try sync(a).repaired)
        let b = try Store.open(folder: folder + "/b")
        _ = try sync(b)
        XCTAssertEqual(try b.words().map(\.word).sorted(), ["kept", "unsent"])
    }
}
