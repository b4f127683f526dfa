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
        let names = ["role.sql", "tables.sql", "upgrade-8.sql", "upgrade-9.sql", "functions.sql", "sharing.sql"]
        XCTAssertEqual(Set(embeddedSQL.keys), Set(names))
        let files = try names.map(raw).joined()
        let named = Set(files.matches(of: #/\{\{([a-z_]+)\}\}/#).map { String($0.output.1) })
        XCTAssertEqual(named, Set(CloudSchema.boundsInSQL.keys))
        XCTAssertFalse(CloudSchema.installSQL.contains("{{"))
        XCTAssertTrue(CloudSchema.installSQL.contains("AND s.words > \(SharingBounds.wordsPerBook)) THEN"))
        XCTAssertTrue(CloudSchema.tablesSQL.contains("('default_max_records', '\(CloudSchema.defaultMaxRecords)')"))
        for name in names { XCTAssertTrue(CloudSchema.installSQL.contains(CloudSchema.sql(name)), "\(name) is installed") }
    }
}
