@testable import VocabCloud
import Foundation
import VocabSync
import VocabCloudAPI
import XCTest

/// The cloud's SQL files (`Sources/VocabCloud/SQL`, embedded at build time): every bound in
/// them is one of Swift's, put in; none is left out or unknown.
final class CloudSQLTests: XCTestCase {
    private func raw(_ name: String) throws -> String {
        let encoded = try XCTUnwrap(embeddedSQL[name], "\(name) is embedded")
        return String(decoding: try XCTUnwrap(Data(base64Encoded: encoded)), as: UTF8.self)
    }

    func testEveryBoundInTheSQLIsSwiftsAndEveryOneIsUsed() throws {
        let names = ["role.sql", "tables.sql", "upgrade-8.sql", "upgrade-9.sql", "upgrade-10.sql", "upgrade-11.sql", "upgrade-12.sql", "functions.sql", "sharing.sql"]
        XCTAssertEqual(Set(embeddedSQL.keys), Set(names))
        let files = try names.map(raw).joined()
        let named = Set(files.matches(of: #/\{\{([a-z_]+)\}\}/#).map { String($0.output.1) })
        XCTAssertEqual(named, Set(CloudSchema.boundsInSQL.keys))
        let installed = try CloudSchema.installSQL
        XCTAssertFalse(installed.contains("{{"))
        XCTAssertTrue(installed.contains("AND s.words > \(SharingBounds.wordsPerBook)) THEN"))
        XCTAssertTrue(try CloudSchema.tablesSQL.contains("('default_max_records', '\(CloudSchema.defaultMaxRecords)')"))
        for name in names { XCTAssertTrue(installed.contains(try CloudSchema.sql(name)), "\(name) is installed") }
    }

    /// A part of the schema a build lacks is refused, never installed as nothing (issue 69).
    func testAFileTheBuildLacksIsRefusedNotInstalledAsNothing() {
        XCTAssertThrowsError(try CloudSchema.sql("functions.sql", from: embeddedSQL.filter { $0.key != "functions.sql" })) { error in
            XCTAssertEqual((error as? MissingSchemaFile)?.name, "functions.sql")
        }
        XCTAssertThrowsError(try CloudSchema.sql("upgrade-13.sql"))
    }
}
