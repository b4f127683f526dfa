import Foundation
import TestServices
import XCTest

/// The progress report against plain SQL over the same store (`scripts/progress_check.py`,
/// which `vocab-bench progress` runs too): a year of reviews made by Anki's own package and
/// imported, then `vocab stats --json`'s calendar, due-ahead days and true retention recomputed
/// by SQLite's own date functions and a window function. Every figure must agree; a figure
/// changed by one must be caught.
final class ProgressCrossCheckEndToEndTests: EndToEndTestCase {
    private var scripts: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts")
    }

    private func check(_ report: String) throws -> (status: Int32, output: String) {
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        run.arguments = [scripts.appendingPathComponent("progress_check.py").path, vocab.home + "/vocab.sqlite", report]
        let output = Pipe()
        run.standardOutput = output
        try run.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        run.waitUntilExit()
        return (run.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testTheReportAgreesWithPlainSQLOverAYearOfReviews() throws {
        let python = try requiredService("VOCAB_TEST_ANKI_PYTHON", "Python with Anki's package")
        let package = vocab.file("progress.apkg")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: python)
        make.arguments = [scripts.appendingPathComponent("bench_progress.py").path, "make", package, "400"]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0, "Anki made the package")
        try vocab.ok(["import", package])

        let stats = try vocab.ok(["stats", "--json"])
        let report = vocab.file("report.json")
        try Data(stats.utf8).write(to: URL(fileURLWithPath: report))
        let agreed = try check(report)
        XCTAssertEqual(agreed.status, 0, agreed.output)
        XCTAssertTrue(agreed.output.contains("365 calendar days, the backlog and 30 days due ahead, true retention over 5 spans: all agree"),
                      agreed.output)
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        let progress = try XCTUnwrap(parsed["progress"] as? [String: Any])
        let calendar = try XCTUnwrap((progress["calendar"] as? [String: Any])?["reviews"] as? [Int])
        XCTAssertEqual(calendar.reduce(0, +), 4_000, "the year's 4,000 reviews are all in the calendar")

        // The check tells a wrong figure: one review moved a day is caught.
        var moved = calendar
        let busy = try XCTUnwrap(moved.firstIndex { $0 > 0 })
        moved[busy] -= 1
        moved[busy == 0 ? 1 : busy - 1] += 1
        var changed = progress
        changed["calendar"] = ["reviews": moved]
        try JSONSerialization.data(withJSONObject: changed).write(to: URL(fileURLWithPath: report))
        let caught = try check(report)
        XCTAssertEqual(caught.status, 1, caught.output)
        XCTAssertTrue(caught.output.contains("2 disagree"), caught.output)
    }
}
