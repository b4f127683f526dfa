import XCTest
import VocabCore
@testable import VocabStore
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

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

    private func user(_ prefix: String) throws -> TestLearner {
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

    private func sync(_ store: Store, as login: TestLearner, statementSeconds: Int = 10) throws -> SyncReport {
        let timeouts = CloudTimeouts(connectSeconds: 5, statementSeconds: statementSeconds, lockSeconds: 2)
        return try SyncEngine(store: store, connection: try server.tier(timeouts: timeouts), device: login.device, account: login.address,
                              batchSize: 50).run()
    }

    func testALearnerWhoseAccountIsBusyWaitsAlone() throws {
        let alice = try user("alice"), bob = try user("bob")
        // One of bob's requests holds his account row (a push in a transaction left open).
        let asServer = try server.tier()
        try asServer.execute("BEGIN")
        try asServer.execute("SELECT vocab.push($1, $2, 0, '[]', false)", [bob.device.id, bob.device.secret])
        defer { _ = try? asServer.execute("ROLLBACK") }
        // Alice's sync goes through; bob's own waits its bounded lock time, then says busy.
        let store = try storeWithWords("alice", count: 120)
        let report = try sync(store, as: alice, statementSeconds: 10)
        XCTAssertEqual(report.pushed, 121)
        XCTAssertEqual(try store.outboxCount(), 0)
        let bobs = try storeWithWords("bob", count: 3)
        XCTAssertThrowsError(try sync(bobs, as: bob, statementSeconds: 10)) { error in
            guard case .lockNotAvailable? = error as? CloudError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try bobs.outboxCount(), 4, "nothing of his was lost")
    }

    /// A pull's page ends once its bodies pass `PullBounds.pageBytes` (once it was 2,000 records
    /// of up to 512 KiB each, and three pulls of a full account took a server to 2 GiB): five
    /// words of 300 KiB come four to a page, then one; a store syncs them all.
    func testAPullsPageIsBoundedInBytesAndASyncStillGetsEverything() throws {
        let alice = try user("alice")
        let asServer = try server.tier()
        let filler = String(repeating: "x", count: 300 << 10)
        let batch = "[" + (0..<5).map { _ in #"{"k":"word","i":"\#(UUID().uuidString.lowercased())","d":false,"b":{"word":"big","definition":"\#(filler)"}}"# }
            .joined(separator: ",") + "]"
        XCTAssertNotNil(try asServer.execute("SELECT vocab.push($1, $2, 0, $3, false)::text", [alice.device.id, alice.device.secret, batch]).first?.first ?? nil)
        let first = try asServer.execute("SELECT seq::text FROM vocab.pull($1, $2, 0, 2000)", [alice.device.id, alice.device.secret])
        XCTAssertEqual(first.count, 4, "a page stops past \(PullBounds.pageBytes) bytes")
        let rest = try asServer.execute("SELECT seq::text FROM vocab.pull($1, $2, $3, 2000)",
                                        [alice.device.id, alice.device.secret, first.last?.first??.description ?? "0"])
        XCTAssertEqual(rest.count, 1)
        let store = try Store.open(folder: folder + "/pages")
        XCTAssertEqual(try sync(store, as: alice).pulled, 5, "every record pulled, page after page")
    }

    func testADeviceProvesItselfInEveryFunctionAndNeverActsForAnother() throws {
        let alice = try user("alice"), bob = try user("bob")
        let asServer = try server.tier()
        let id = UUID().uuidString
        let batch = #"[{"k":"word","i":"\#(id)","d":false,"b":{"word":"secret"}}]"#
        XCTAssertNotNil(try asServer.execute("SELECT vocab.push($1, $2, 0, $3, false)::text", [alice.device.id, alice.device.secret, batch]).first?.first ?? nil)
        XCTAssertEqual(try asServer.execute("SELECT body->>'word' FROM vocab.pull($1, $2, 0, 100)", [alice.device.id, alice.device.secret]), [["secret"]])
        XCTAssertEqual(try asServer.execute("SELECT count(*)::text FROM vocab.pull($1, $2, 0, 100)", [bob.device.id, bob.device.secret]), [["0"]])
        // Bob's id with a guessed secret, alice's id with bob's secret: refused in every function.
        for (device, secret) in [(alice.device.id, bob.device.secret), (alice.device.id, String(repeating: "0", count: 64)), ("vd_nobody", alice.device.secret)] {
            for statement in ["SELECT * FROM vocab.pull($1, $2, 0, 100)", "SELECT * FROM vocab.counts($1, $2)", "SELECT * FROM vocab.my_devices($1, $2)",
                              "SELECT vocab.sign_out($1, $2, NULL)", "SELECT vocab.push($1, $2, 1, '[]', false)"] {
                XCTAssertThrowsError(try asServer.execute(statement, [device, secret]), statement) { error in
                    guard case .accessDenied? = error as? CloudError else { return XCTFail("\(statement): \(error)") }
                }
            }
        }
        // The server tier reads no table itself: only the functions, which act for a device proved.
        for statement in ["SELECT * FROM vocab.records", "SELECT * FROM vocab.accounts", "SELECT * FROM vocab.devices",
                          "UPDATE vocab.records SET body = '{}'", "SELECT * FROM pg_catalog.pg_authid",
                          // Nor the shared books' inner functions, which take an owner, not a device.
                          "SELECT * FROM vocab.book_records('\(alice.name)', gen_random_uuid(), 0, 10)",
                          "SELECT * FROM vocab.followed_books('\(alice.name)')", "SELECT * FROM vocab.shares"] {
            XCTAssertThrowsError(try asServer.execute(statement), statement)
        }
        // Only the secret's SHA-256 is kept.
        let kept = try server.admin.execute("SELECT encode(secret_sha256, 'hex') FROM vocab.devices WHERE id = $1", [alice.device.id])
        XCTAssertEqual(kept, [[SHA256.hex(Array(alice.device.secret.utf8))]])
        XCTAssertTrue(try server.admin.execute("SELECT 1 FROM vocab.devices WHERE secret_sha256::text LIKE '%' || $1 || '%'", [alice.device.secret]).isEmpty)
        // A device signed out is refused at its next call; the learner's others go on.
        let second = try server.newDevice(of: alice.name, password: alice.password)
        XCTAssertEqual(try CloudDevices.signOut(alice.device.id, by: second, on: asServer), 1)
        XCTAssertThrowsError(try CloudDevices.learner(of: alice.device, on: asServer))
        XCTAssertEqual(try CloudDevices.learner(of: second, on: asServer), alice.name)
        // A wrong password makes no device.
        XCTAssertNil(try CloudDevices.signIn(user: alice.name, password: "wrong", label: "x", on: asServer))
        XCTAssertNil(try CloudDevices.signIn(user: "nobody_\(UUID().uuidString.prefix(6))", password: "pw", label: "x", on: asServer))
        // A server lends its connection for each step only: none is held while the password is
        // checked (a connection lent, given back, then lent again for the new device).
        var lent = 0, holding = false
        let lending = { (step: (PostgresConnection) throws -> Void) throws in
            XCTAssertFalse(holding)
            holding = true
            defer { holding = false }
            lent += 1
            try step(asServer)
        }
        XCTAssertNotNil(try CloudDevices.signIn(user: alice.name, password: alice.password, label: "lent", lending: lending))
        XCTAssertEqual(lent, 2, "the verifier read, then the device made")
        lent = 0
        XCTAssertNil(try CloudDevices.signIn(user: alice.name, password: "wrong", label: "lent", lending: lending))
        XCTAssertEqual(lent, 1, "a wrong password: the verifier read, nothing else")
    }

    func testASyncThatCannotFinishStopsInTimeLosesNothingAndTheNextOneResumes() throws {
        let alice = try user("slow")
        let store = try storeWithWords("slow", count: 30)
        // Maintenance (or a stuck server): the administrator holds the records table.
        let maintenance = try PostgresConnection(server.adminLogin.address, password: server.adminLogin.password)
        try maintenance.execute("BEGIN")
        try maintenance.execute("LOCK TABLE vocab.records IN ACCESS EXCLUSIVE MODE")
        // The wait is bounded by the statement's own bound: the sync says it timed out after 2 s.
        XCTAssertThrowsError(try sync(store, as: alice, statementSeconds: 2)) { error in
            guard case .timedOut(_, let seconds)? = error as? CloudError else { return XCTFail("\(error)") }
            XCTAssertEqual(seconds, 2)
            XCTAssertEqual((error as? CloudError)?.category, .cloudUnavailable)
        }
        XCTAssertEqual(try store.outboxCount(), 31, "nothing was lost")
        try maintenance.execute("ROLLBACK")
        XCTAssertEqual(try sync(store, as: alice).pushed, 31)
        XCTAssertEqual(try store.outboxCount(), 0)
    }

    func testTheServerRefusesAPushPastTheAdministratorsCapAndNothingLocalIsLost() throws {
        let alice = try user("capped")
        try CloudSchema.setRecordLimit(alice.name, to: 10, on: server.admin)
        let store = try storeWithWords("capped", count: 20)
        XCTAssertThrowsError(try sync(store, as: alice)) { error in
            guard case .quotaExceeded(let limit)? = error as? CloudError else { return XCTFail("\(error)") }
            guard case .records(most: 10, _) = limit else { return XCTFail("\(limit)") }
        }
        XCTAssertEqual(try store.wordCount(), 20)
        XCTAssertEqual(try store.outboxCount(), 21, "everything still waits to be pushed")
        try CloudSchema.setRecordLimit(alice.name, to: nil, on: server.admin)
        XCTAssertEqual(try sync(store, as: alice).pushed, 21)
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
    var login: TestLearner!
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
        try SyncEngine(store: store, connection: try server.tier(), device: login.device, account: login.address).run()
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
        // account, the rest as upserts) are what its records add up to: their bodies measured
        // here again as the cloud counts them (jsonb, parsed afresh: uncompressed).
        let kept = try server.admin.execute("""
            SELECT concat_ws(' ', live_books, live_words, live_reviews, total_records, total_bytes)
            FROM vocab.accounts WHERE owner = $1
            """, [login.name]).first?.first ?? nil
        let counted = try server.admin.execute("""
            SELECT concat_ws(' ', count(*) FILTER (WHERE kind = 'book' AND NOT deleted), count(*) FILTER (WHERE kind = 'word' AND NOT deleted),
                             count(*) FILTER (WHERE kind = 'review' AND NOT deleted), count(*), sum(pg_column_size(body::text::jsonb)))
            FROM vocab.records WHERE owner = $1
            """, [login.name]).first?.first ?? nil
        XCTAssertEqual(kept, counted)
        XCTAssertEqual(kept, "1 4 1 7 \(try XCTUnwrap(counted?.split(separator: " ").last))", "a book, four live words, a review; seven records")
    }

    /// A record written before `vocab.records.size` counts its body as text, as it was counted
    /// then: changed or deleted later, it takes away what it added, and the account's bytes stay
    /// what its records add up to.
    func testRecordsWrittenBeforeTheSizeColumnKeepTheAccountsBytesTrue() throws {
        let a = try Store.open(folder: folder + "/a")
        let book = try a.addBook(BookDraft(name: "B"), now: t0)
        let words = try (0..<3).map { try a.addWord(WordDraft(word: "w\($0)"), toBook: book.id, now: t0) }
        _ = try sync(a)
        // As a cloud of before the column holds them: no size, the bytes counted as text.
        try server.admin.execute("UPDATE vocab.records SET size = NULL WHERE owner = $1", [login.name])
        try server.admin.execute("""
            UPDATE vocab.accounts SET total_bytes = (SELECT sum(octet_length(body::text)) FROM vocab.records WHERE owner = $1) WHERE owner = $1
            """, [login.name])
        _ = try a.updateWord(id: words[0].id, WordChanges(detail: String(repeating: "longer ", count: 40)), now: t0.adding(seconds: 60))
        try a.deleteWord(id: words[1].id, now: t0.adding(seconds: 60))
        _ = try sync(a)
        let row = try server.admin.execute("""
            SELECT a.total_bytes::text, (SELECT sum(coalesce(r.size, octet_length(r.body::text)))::text FROM vocab.records r WHERE r.owner = $1),
                   (SELECT count(*)::text FROM vocab.records r WHERE r.owner = $1 AND r.size IS NULL)
            FROM vocab.accounts a WHERE a.owner = $1
            """, [login.name]).first ?? []
        XCTAssertEqual(row.count, 3)
        XCTAssertEqual(row.first ?? nil, row.dropFirst().first ?? nil, "the kept bytes are what the records add up to")
        XCTAssertEqual(row.last ?? nil, "2", "the book and the word left alone keep their old measure; the changed two are measured anew")
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
