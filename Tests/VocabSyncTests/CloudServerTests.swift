import XCTest
@testable import VocabSync

/// The server schema, accounts and row-level security against the real PostgreSQL that
/// scripts/test.sh starts.
final class CloudServerTests: XCTestCase {
    var server: TestPostgres!
    var admin: PostgresConnection { server.admin }

    override func setUpWithError() throws {
        server = try TestPostgres()
    }

    private func user(_ name: String, password: String = "pw-\(UUID().uuidString)") throws -> CloudLogin {
        try server.addUser(name, password: password)
    }

    private func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.prefix(8).lowercased()
    }

    func testInstallingTheSchemaTwiceChangesNothing() throws {
        try CloudSchema.install(on: admin)
        let version = try admin.execute("SELECT value FROM vocab.meta WHERE key = 'schema_version'")
        XCTAssertEqual(version, [[String(CloudSchema.version)]])
    }

    func testAVersion2KindCheckIsWidenedOnceForTheSettings() throws {
        let check = "SELECT oid::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'records_kind_check'"
        try admin.execute("""
            ALTER TABLE vocab.records DROP CONSTRAINT records_kind_check;
            ALTER TABLE vocab.records ADD CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review'));
            UPDATE vocab.meta SET value = '2' WHERE key = 'schema_version'
            """)
        try CloudSchema.install(on: admin)
        let widened = try admin.execute(check)
        XCTAssertEqual(widened.count, 1)
        XCTAssertTrue(widened.first?[1]?.contains("settings") == true, "\(widened)")
        try CloudSchema.install(on: admin)
        XCTAssertEqual(try admin.execute(check), widened, "an init that finds the widened check leaves it be")
    }

    func testAccountStatusCoversTheFourCases() throws {
        let login = try user(uniqueName("status"))
        XCTAssertEqual(AccountStatus.check(login), .available(login.address))
        XCTAssertEqual(AccountStatus.check(nil), .notLoggedIn)
        var wrong = login
        wrong.password = "not-it"
        guard case .accessDenied = AccountStatus.check(wrong) else { return XCTFail("wrong password must be access denied") }
        var away = login
        away.address.port = 1
        guard case .cannotReachServer = AccountStatus.check(away) else { return XCTFail("a closed port cannot be reached") }
        let database = uniqueName("empty")
        try admin.execute("CREATE DATABASE \(database)")
        var bare = login
        bare.address.database = database
        XCTAssertEqual(AccountStatus.check(bare), .accessDenied(.schemaMissing(server: login.address.server)))
    }

    func testAUserSeesAndChangesOnlyTheirOwnRows() throws {
        let alice = try user(uniqueName("alice")), bob = try user(uniqueName("bob"))
        let asAlice = try PostgresConnection(alice.address, password: alice.password)
        let asBob = try PostgresConnection(bob.address, password: bob.password)
        let id = UUID().uuidString
        try push(#"[{"k":"word","i":"\#(id)","d":false,"b":{"word":"secret"}}]"#, on: asAlice)
        XCTAssertEqual(try asAlice.execute("SELECT body->>'word' FROM vocab.pull(0, 10000) WHERE id = $1::uuid", [id]), [["secret"]])
        XCTAssertEqual(try asBob.execute("SELECT count(*) FROM vocab.pull(0, 10000) WHERE id = $1::uuid", [id]), [["0"]])
        // Users write only through vocab.push, which acts on the caller's own rows.
        for statement in ["UPDATE vocab.records SET body = '{}' WHERE id = $1", "DELETE FROM vocab.records WHERE id = $1",
                          "INSERT INTO vocab.records (owner, kind, id, seq, body) VALUES ('x', 'word', $1, 1, '{}')"] {
            XCTAssertThrowsError(try asBob.execute(statement, [id]), statement)
        }
        try push(#"[{"k":"word","i":"\#(id)","d":false,"b":{"word":"bob's"}}]"#, on: asBob)
        XCTAssertEqual(try asAlice.execute("SELECT body->>'word' FROM vocab.pull(0, 10000) WHERE id = $1::uuid", [id]), [["secret"]])
        XCTAssertEqual(try asBob.execute("SELECT body->>'word' FROM vocab.pull(0, 10000) WHERE id = $1::uuid", [id]), [["bob's"]])
        XCTAssertThrowsError(try asBob.execute("SELECT * FROM pg_catalog.pg_authid"))
        XCTAssertThrowsError(try asBob.execute("SELECT * FROM vocab.accounts"), "accounts are for the push function only")
        XCTAssertThrowsError(try asBob.execute("SELECT * FROM vocab.records"), "records are read through vocab.pull only")
    }

    func testInjectionThroughTextIsStoredAsPlainText() throws {
        let alice = try user(uniqueName("quote"), password: "it's \"quoted\"; DROP TABLE vocab.records; --")
        let connection = try PostgresConnection(alice.address, password: alice.password)
        let text = "'); DROP TABLE vocab.records; --"
        let id = UUID().uuidString
        try connection.execute("SELECT vocab.push(coalesce((SELECT latest FROM vocab.counts()), 0), jsonb_build_array(jsonb_build_object('k', 'book', 'i', $1::text, 'd', false, 'b', jsonb_build_object('name', $2::text)))::text, false)", [id, text])
        XCTAssertEqual(try connection.execute("SELECT body->>'name' FROM vocab.pull(0, 10000) WHERE id = $1::uuid", [id]), [[text]])
        XCTAssertThrowsError(try CloudSchema.addUser("x\"; DROP ROLE postgres; --", password: "p", on: admin)) { error in
            guard case .invalidRoleName = error as? CloudError else { return XCTFail("\(error)") }
        }
    }

    /// Pushes a batch as the connection's user, expecting the user's latest seq not to move.
    private func push(_ batch: String, on connection: PostgresConnection) throws {
        let latest = try connection.execute("SELECT coalesce((SELECT latest FROM vocab.counts()), 0)::text").first?.first ?? nil
        let pushed = try connection.execute("SELECT vocab.push($1::bigint, $2::text, false)::text", [latest, batch])
        XCTAssertNotNil(pushed.first?.first ?? nil, "the push was applied")
    }

    func testURLsWithPasswordsAreRefused() {
        XCTAssertThrowsError(try ServerAddress(url: "postgresql://alice:secret@localhost/db"))
        XCTAssertThrowsError(try ServerAddress(url: "mysql://alice@localhost/db"))
        XCTAssertEqual(try ServerAddress(url: "postgresql://alice@db.example:6543/words").port, 6543)
    }
}
