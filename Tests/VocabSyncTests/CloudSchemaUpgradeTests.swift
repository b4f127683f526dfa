import Foundation
import XCTest
@testable import VocabCloud
import VocabCloudAPI
import VocabSync

/// The cloud's numbered upgrade steps make what a fresh install makes: `pg_dump --schema-only`
/// of the vocab schema is the same for a database installed fresh and for ones holding an older
/// cloud (version 8 as it shipped; version 5, where learners were roles) upgraded in place, and
/// their rows come through. Each in a database of its own, dropped afterwards.
final class CloudSchemaUpgradeTests: XCTestCase {
    private var server: TestPostgres!
    private var databases: [String] = []

    override func setUpWithError() throws {
        server = try TestPostgres()
    }

    override func tearDown() {
        for name in databases { _ = try? server.admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        super.tearDown()
    }

    /// A new empty database, as its administrator reaches it.
    private func newDatabase() throws -> (name: String, admin: PostgresConnection) {
        let name = "schema_" + UUID().uuidString.prefix(8).lowercased()
        try server.admin.execute("CREATE DATABASE \(name)")
        databases.append(name)
        var address = server.adminLogin.address
        address.database = name
        return (name, try PostgresConnection(address, password: server.adminLogin.password ?? ""))
    }

    /// A fixture of this folder (an older cloud's whole SQL, as it was shipped).
    private func fixture(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
        return try String(contentsOf: folder.appending(path: name), encoding: .utf8)
    }

    /// The vocab schema of `database` as pg_dump prints it, without its comments and the
    /// random key of its `\restrict` lines.
    private func schemaDump(_ database: String) throws -> String {
        let address = server.adminLogin.address
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pg_dump", "--schema-only", "--schema=vocab", "--host", address.host, "--port", String(address.port),
                             "--username", address.user, "--dbname", database]
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = server.adminLogin.password
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, problems)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.hasPrefix("--") && !$0.hasPrefix("\\restrict") && !$0.hasPrefix("\\unrestrict") }
            .joined(separator: "\n")
    }

    private func value(_ sql: String, on connection: PostgresConnection, _ parameters: [String?] = []) throws -> String? {
        try connection.execute(sql, parameters).first?.first ?? nil
    }

    /// Fails naming the first line where `upgraded` and `fresh` part (the dumps are long).
    private func assertSameSchema(_ upgraded: String, _ fresh: String, _ message: String = "", line: UInt = #line) {
        let (a, b) = (upgraded.split(separator: "\n"), fresh.split(separator: "\n"))
        guard let index = a.indices.first(where: { $0 >= b.count || a[$0] != b[$0] }) ?? (a.count == b.count ? nil : a.count) else { return }
        let near = { (lines: [Substring]) in lines[index..<min(index + 3, lines.count)].joined(separator: " / ") }
        XCTFail("\(message) upgraded and fresh schemas part at line \(index + 1): upgraded \"\(near(a))\", fresh \"\(near(b))\"", line: line)
    }

    func testAVersion8CloudUpgradedIsAFreshOneWithItsRowsKept() throws {
        let fresh = try newDatabase()
        XCTAssertEqual(try CloudSchema.install(on: fresh.admin), .installed(version: CloudSchema.version))
        let expected = try schemaDump(fresh.name)
        XCTAssertTrue(expected.contains("CREATE TABLE vocab.devices"), expected)

        let old = try newDatabase()
        try old.admin.execute(try fixture("cloud-schema-8.sql"))
        XCTAssertEqual(try value("SELECT value FROM vocab.meta WHERE key = 'schema_version'", on: old.admin), "8")
        try old.admin.execute("""
            SELECT vocab.open_account('alice');
            INSERT INTO vocab.devices (role, owner, label, secret_sha256) VALUES ('vd_kept', 'alice', 'old phone', sha256('s3cret'::bytea));
            """)
        XCTAssertNotEqual(try schemaDump(old.name), expected, "version 8 differs from this version")

        XCTAssertEqual(try CloudSchema.install(on: old.admin), .upgraded(from: 8, to: CloudSchema.version))
        assertSameSchema(try schemaDump(old.name), expected)
        XCTAssertEqual(try value("SELECT value FROM vocab.meta WHERE key = 'schema_version'", on: old.admin), String(CloudSchema.version))
        XCTAssertEqual(try value("SELECT vocab.device_learner('vd_kept', 's3cret')", on: old.admin), "alice", "her device still signs in")
        XCTAssertEqual(try value("SELECT id || ' ' || label FROM vocab.my_devices('vd_kept', 's3cret')", on: old.admin), "vd_kept old phone")

        XCTAssertEqual(try CloudSchema.install(on: old.admin), .upToDate(version: CloudSchema.version))
        try old.admin.execute("UPDATE vocab.meta SET value = 'an older Vocab of this version' WHERE key = 'install_md5'")
        XCTAssertEqual(try CloudSchema.install(on: old.admin), .refreshed(version: CloudSchema.version))
        assertSameSchema(try schemaDump(old.name), expected, "installing again changes nothing:")
    }

    func testAVersion5CloudOfRolesUpgradedIsAFreshOne() throws {
        let fresh = try newDatabase()
        try CloudSchema.install(on: fresh.admin)
        let old = try newDatabase()
        try old.admin.execute(try fixture("../../VocabCLITests/Fixtures/cloud-schema-5.sql"))
        XCTAssertEqual(try value("SELECT value FROM vocab.meta WHERE key = 'schema_version'", on: old.admin), "5")
        try CloudSchema.install(on: old.admin)
        assertSameSchema(try schemaDump(old.name), try schemaDump(fresh.name))
    }

    func testAVersion2KindCheckIsWidenedOnce() throws {
        let old = try newDatabase()
        try old.admin.execute(try fixture("cloud-schema-8.sql"))
        // Version 2's check, as a cloud of then had it.
        try old.admin.execute("""
            ALTER TABLE vocab.records DROP CONSTRAINT records_kind_check;
            ALTER TABLE vocab.records ADD CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review'));
            UPDATE vocab.meta SET value = '2' WHERE key = 'schema_version'
            """)
        try CloudSchema.install(on: old.admin)
        let check = "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'records_kind_check'"
        XCTAssertTrue(try value(check, on: old.admin)?.contains("'mark'") == true)
    }

    func testANewerCloudIsRefusedAndLeftAsItIs() throws {
        let newer = try newDatabase()
        try CloudSchema.install(on: newer.admin)
        let later = String(CloudSchema.version + 1)
        try newer.admin.execute("UPDATE vocab.meta SET value = $1 WHERE key = 'schema_version'", [later])
        let before = try schemaDump(newer.name)
        XCTAssertThrowsError(try CloudSchema.install(on: newer.admin)) { error in
            guard case .schemaTooNew(_, let found, let known) = error as? CloudError else { return XCTFail("\(error)") }
            XCTAssertEqual(found, CloudSchema.version + 1)
            XCTAssertEqual(known, CloudSchema.version)
        }
        XCTAssertEqual(try value("SELECT value FROM vocab.meta WHERE key = 'schema_version'", on: newer.admin), later)
        XCTAssertEqual(try schemaDump(newer.name), before)
    }

    func testEveryVersionFromTheFirstNumberedStepHasItsStep() {
        for version in CloudSchema.firstNumberedStep...CloudSchema.version {
            XCTAssertNotNil(CloudSchema.upgradeSteps[version], "no step to version \(version)")
        }
        XCTAssertEqual(Set(CloudSchema.upgradeSteps.keys), Set(CloudSchema.firstNumberedStep...CloudSchema.version))
        XCTAssertEqual(try CloudSchema.tableSteps(from: nil), [try CloudSchema.tablesSQL])
        XCTAssertEqual(try CloudSchema.tableSteps(from: CloudSchema.version), [])
        XCTAssertEqual(try CloudSchema.tableSteps(from: 5).count, CloudSchema.version - CloudSchema.firstNumberedStep + 1)
    }
}
