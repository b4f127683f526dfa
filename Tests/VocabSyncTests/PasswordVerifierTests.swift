import XCTest
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// The cloud's password verifiers: Argon2id for every password kept from now on, and
/// PostgreSQL's own SCRAM-SHA-256 verifiers, checked here without PostgreSQL, so that an
/// upgrade from learner roles keeps every learner's password.
final class PasswordVerifierTests: XCTestCase {
    func testAnArgon2idVerifierTakesItsPasswordOnlyAndASaltOfItsOwn() throws {
        let kept = try PasswordVerifier.make("correct horse")
        XCTAssertTrue(kept.hasPrefix("$argon2id$"), kept)
        XCTAssertFalse(kept.contains("correct horse"))
        XCTAssertNotEqual(try PasswordVerifier.make("correct horse"), kept, "a new salt each time")
        XCTAssertEqual(try PasswordVerifier.check("correct horse", against: kept), .right(rehash: false))
        XCTAssertEqual(try PasswordVerifier.check("correct hors", against: kept), .wrong)
        XCTAssertEqual(try PasswordVerifier.check("", against: kept), .wrong)
        XCTAssertEqual(try PasswordVerifier.check("비밀번호", against: try PasswordVerifier.make("비밀번호")), .right(rehash: false))
    }

    func testAVerifierOfAnotherKindOrDamagedIsNeverRight() throws {
        for stored in ["", "md5abc", "plain", "SCRAM-SHA-256$4096:c2FsdA==$short", "SCRAM-SHA-256$0:c2FsdA==$AAAA:BBBB",
                       "$argon2i$v=19$m=65536,t=2,p=1$c2FsdHNhbHQ$aGFzaA"] {
            XCTAssertEqual(try PasswordVerifier.check("pw", against: stored), .wrong, stored)
        }
    }

    /// Verifiers PostgreSQL itself made (CREATE ROLE … PASSWORD, SCRAM-SHA-256), read from
    /// pg_authid: the right password passes (and asks to be kept as Argon2id), any other fails.
    func testPostgreSQLsOwnSCRAMVerifiersAreCheckedAsPostgreSQLChecksThem() throws {
        let postgres = try TestPostgres()
        for password in ["pw", "correct horse battery staple", "비밀번호123", "p@ss:w$rd\\\"'", String(repeating: "long", count: 64)] {
            let role = "scram_" + UUID().uuidString.prefix(8).lowercased()
            let quoted = password.replacingOccurrences(of: "'", with: "''")
            try postgres.admin.execute("SET password_encryption = 'scram-sha-256'; CREATE ROLE \(role) LOGIN PASSWORD '\(quoted)'")
            defer { _ = try? postgres.admin.execute("DROP ROLE \(role)") }
            let verifier = try XCTUnwrap(try postgres.admin.execute("SELECT rolpassword FROM pg_authid WHERE rolname = $1", [role]).first?.first ?? nil)
            XCTAssertTrue(verifier.hasPrefix("SCRAM-SHA-256$4096:"), verifier)
            XCTAssertEqual(try PasswordVerifier.check(password, against: verifier), .right(rehash: true), password)
            XCTAssertEqual(try PasswordVerifier.check(password + "x", against: verifier), .wrong, password)
            // And PostgreSQL agrees: the same password opens a session as that role.
            var address = postgres.adminLogin.address
            address.user = role
            XCTAssertNoThrow(try PostgresConnection(address, password: password), password)
        }
    }
}
