import Foundation
import TestServices
import XCTest

/// The store keyed by integers (schema 11) from a store the Vocab before it left (schema 10,
/// built from its commit by scripts/test.sh): words, reviews, a deletion and edits, none of them
/// pushed yet (that Vocab reached the cloud through SQL, which the cloud no longer lets devices
/// do) — upgraded by this Vocab, signed in through a Vocab server, and synced both ways with
/// another device, ending equal.
final class UnmigratedDeviceSyncTests: CloudEndToEndTestCase {
    private var oldVocab = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        oldVocab = try requiredService("VOCAB_TEST_SCHEMA10_BINARY", "Vocab of schema 10")
    }

    /// Runs the previous Vocab as one device.
    private func onOld(_ device: String, _ arguments: [String], input: String = "",
                       file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try vocab.run(arguments, input: input, environment: self.device(device), binary: oldVocab)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    private func onNew(_ device: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try on(device, arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result
    }

    func testAStoreUpgradedToIntegerKeysSyncsEverythingItHadAndBothWays() throws {
        // What the previous Vocab leaves: words with reviews, a deletion and edits, all waiting to be pushed.
        _ = try onOld("upgraded", ["book", "add", "Fruit"])
        for word in ["apple", "pear", "plum"] { _ = try onOld("upgraded", ["word", "add", word, "--book", "Fruit"]) }
        _ = try onOld("upgraded", ["review", "apple", "--rating", "good"])
        _ = try onOld("upgraded", ["review", "apple", "--rating", "again"])
        _ = try onOld("upgraded", ["review", "pear", "--rating", "easy"])
        _ = try onOld("upgraded", ["word", "delete", "plum"])
        _ = try onOld("upgraded", ["word", "edit", "pear", "--definition", "배"])
        _ = try onOld("upgraded", ["review", "pear", "--rating", "good"])
        _ = try onOld("upgraded", ["word", "add", "fig", "--book", "Fruit"])
        _ = try onOld("upgraded", ["book", "add", "Colours"])
        _ = try onOld("upgraded", ["word", "add", "red", "--book", "Colours", "--definition", "빨강"])
        let before = try onOld("upgraded", ["word", "list", "--json"]).stdout
        let statsBefore = try onOld("upgraded", ["stats"]).stdout

        // This Vocab upgrades the store (backed up first) and keeps everything.
        let upgradedList = try onNew("upgraded", ["word", "list", "--json"]).stdout
        XCTAssertEqual(upgradedList, before, "every word as it was")
        XCTAssertTrue(try onNew("upgraded", ["backup", "list"]).stdout.contains("before-upgrade"))
        XCTAssertTrue(try onNew("upgraded", ["word", "show", "apple"]).stdout.contains("2 reviews"))
        XCTAssertTrue(try onNew("upgraded", ["word", "show", "pear"]).stdout.contains("2 reviews"))
        XCTAssertEqual(reviewLine(try onNew("upgraded", ["stats"]).stdout), reviewLine(statsBefore))
        let url = try setUpUser(devices: ["upgraded", "other"])
        _ = url
        _ = try onNew("upgraded", ["sync"])

        // Another device gets it all.
        _ = try onNew("other", ["sync"])
        XCTAssertEqual(try onNew("other", ["word", "list", "--json"]).stdout, before)
        XCTAssertTrue(try onNew("other", ["word", "show", "pear"]).stdout.contains("2 reviews"))
        XCTAssertEqual(reviewLine(try onNew("other", ["stats"]).stdout), "4 reviews logged")

        // It changes things in turn; the upgraded store takes them.
        _ = try onNew("other", ["word", "add", "kiwi", "--book", "Fruit", "--definition", "키위"])
        _ = try onNew("other", ["review", "kiwi", "--rating", "hard"])
        _ = try onNew("other", ["review", "fig", "--rating", "good"])
        _ = try onNew("other", ["word", "edit", "apple", "--definition", "사과"])
        _ = try onNew("other", ["word", "delete", "red"])
        _ = try onNew("other", ["sync"])
        _ = try onNew("upgraded", ["sync"])
        let after = try onNew("upgraded", ["word", "list", "--json"]).stdout
        XCTAssertTrue(after.contains("kiwi") && after.contains("사과") && !after.contains("\"red\""), after)
        XCTAssertTrue(try onNew("upgraded", ["word", "show", "kiwi"]).stdout.contains("1 review"))
        XCTAssertEqual(reviewLine(try onNew("upgraded", ["stats"]).stdout), "6 reviews logged")
        XCTAssertEqual(try onNew("other", ["word", "list", "--json"]).stdout, after)
    }

    private func onNew(_ device: String, _ arguments: [String], expectingFailure: Bool) throws -> RunResult {
        let result = try on(device, arguments)
        XCTAssertNotEqual(result.status, 0, "\(arguments) of a deleted word: \(result.stdout)")
        return result
    }

    /// The "N reviews logged" of `vocab stats`.
    private func reviewLine(_ stats: String) -> String {
        guard let range = stats.range(of: "[0-9]+ reviews? logged", options: .regularExpression) else { return stats }
        return String(stats[range])
    }
}
