import XCTest
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// The cloud's schema and accounts against the real PostgreSQL that scripts/test.sh starts.
final class CloudServerTests: XCTestCase {
    var server: TestPostgres!
    var admin: PostgresConnection { server.admin }

    override func setUpWithError() throws {
        server = try TestPostgres()
    }

    private func user(_ name: String, password: String = "pw-\(UUID().uuidString)") throws -> TestLearner {
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

    func testALearnerIsARowWithAnArgon2idVerifierAndNoDatabaseRole() throws {
        let alice = try user(uniqueName("row"), password: "it's \"quoted\"; DROP TABLE vocab.records; --")
        XCTAssertTrue(try admin.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [alice.name]).isEmpty, "no role of hers")
        let verifier = try XCTUnwrap(try admin.execute("SELECT verifier FROM vocab.accounts WHERE owner = $1", [alice.name]).first?.first ?? nil)
        XCTAssertTrue(verifier.hasPrefix("$argon2id$"), verifier)
        XCTAssertFalse(verifier.contains("quoted"))
        var address = alice.address
        address.database = admin.address.database
        XCTAssertThrowsError(try PostgresConnection(address, password: alice.password), "her password opens no session")
        XCTAssertThrowsError(try CloudSchema.addUser("x\"; DROP ROLE postgres; --", password: "p", on: admin)) { error in
            guard case .invalidUserName = error as? CloudError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try CloudSchema.addUser("vd_0123", password: "p", on: admin), "device ids are not learners' names")
    }

    func testInjectionThroughTextIsStoredAsPlainText() throws {
        let alice = try user(uniqueName("quote"))
        let connection = try server.tier()
        let text = "'); DROP TABLE vocab.records; --"
        let id = UUID().uuidString
        try connection.execute("""
            SELECT vocab.push($3, $4, coalesce((SELECT latest FROM vocab.counts($3, $4)), 0),
                              jsonb_build_array(jsonb_build_object('k', 'book', 'i', $1::text, 'd', false, 'b', jsonb_build_object('name', $2::text)))::text, false)
            """, [id, text, alice.device.id, alice.device.secret])
        XCTAssertEqual(try connection.execute("SELECT body->>'name' FROM vocab.pull($2, $3, 0, 10000) WHERE id = $1::uuid",
                                              [id, alice.device.id, alice.device.secret]), [[text]])
    }

    func testURLsWithPasswordsAreRefused() {
        XCTAssertThrowsError(try ServerAddress(url: "postgresql://alice:secret@localhost/db"))
        XCTAssertThrowsError(try ServerAddress(url: "mysql://alice@localhost/db"))
        XCTAssertEqual(try ServerAddress(url: "postgresql://alice@db.example:6543/words").port, 6543)
    }

    /// A cloud with a standby: libpq's multi-host form, every node tried in order until one is
    /// the primary; anything libpq would take but Vocab does not pass on is refused, not ignored.
    func testAMultiHostAddressNamesEveryNodeAndWhichOneWillDo() throws {
        let address = try ServerAddress(url: "postgresql://vocab_server@db1:5433,db2,[::1]:6000/vocab?target_session_attrs=read-write")
        XCTAssertEqual(address.nodes, [.init(host: "db1", port: 5433), .init(host: "db2", port: 5432), .init(host: "::1", port: 6000)])
        XCTAssertEqual(address.user, "vocab_server")
        XCTAssertEqual(address.database, "vocab")
        XCTAssertEqual(address.targetSessionAttributes, "read-write")
        XCTAssertEqual(address.server, "db1:5433,db2:5432,[::1]:6000")
        XCTAssertEqual(try ServerAddress(url: address.url), address, "its URL reads back the same")
        XCTAssertEqual(try ServerAddress(url: "postgres://u@h/d").nodes, [.init(host: "h", port: 5432)])
        for refused in ["postgresql://u@db1,,db2/vocab", "postgresql://u@db1:x/vocab", "postgresql://u@db1:99999/vocab",
                        "postgresql://u@db1/vocab?sslmode=sometimes", "postgresql://u@db1/vocab?target_session_attrs=whatever",
                        "postgresql://u@db1/vocab?sslmode=require&sslmode=disable", "postgresql://u@db1/vocab?sslpassword=x",
                        "postgresql://u:pw@db1,db2/vocab", "postgresql://u@/vocab", "postgresql://u@db1/vo/cab"] {
            XCTAssertThrowsError(try ServerAddress(url: refused), refused)
        }
    }

    /// libpq's TLS parameters are taken (issue 71: `?sslmode=` was "not a PostgreSQL URL", so a
    /// server could not ask for TLS at all) and handed to libpq as given; the account's URL
    /// stays the same whatever protects the way to it.
    func testTheURLTakesLibpqsTLSParameters() throws {
        let address = try ServerAddress(url: "postgresql://vocab_server@db1,db2/vocab?target_session_attrs=read-write&sslmode=verify-full"
                                             + "&sslrootcert=%2Fetc%2Fvocab%2Froot.crt&sslcert=/etc/vocab/server.crt&sslkey=/etc/vocab/server.key")
        XCTAssertEqual(address.tls, ["sslmode": "verify-full", "sslrootcert": "/etc/vocab/root.crt", "sslcert": "/etc/vocab/server.crt",
                                     "sslkey": "/etc/vocab/server.key"])
        XCTAssertEqual(address.url, "postgresql://vocab_server@db1:5432,db2:5432/vocab?target_session_attrs=read-write")
        XCTAssertEqual(try ServerAddress(url: "postgresql://u@h/d?sslmode=disable").tls, ["sslmode": "disable"])
    }
}
