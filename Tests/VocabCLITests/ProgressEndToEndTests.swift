import Foundation
import XCTest

/// `vocab stats` grows the progress report: text with bars and a calendar, `--json` with the
/// whole report, `--book` and `--days`, in the learner's study days.
final class ProgressEndToEndTests: EndToEndTestCase {
    private let seoul = ["TZ": "Asia/Seoul"]

    private func study(at time: String, grades: String) throws {
        let result = try vocab.run(["study", "--now", time, "--new", "5"], input: grades, environment: seoul)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    private func stats(_ arguments: [String]) throws -> [String: Any] {
        let result = try vocab.run(["stats", "--json"] + arguments, environment: seoul)
        XCTAssertEqual(result.status, 0, result.stderr)
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap(all["progress"] as? [String: Any])
    }

    func testStatsShowsTheProgressReportInTextAndJSON() throws {
        try vocab.ok(["book", "add", "TOEIC"])
        try vocab.ok(["book", "add", "Other"])
        try vocab.ok(["word", "add", "apple", "--definition", "사과", "--book", "TOEIC"])
        try vocab.ok(["word", "add", "pear", "--definition", "배", "--book", "TOEIC"])
        try vocab.ok(["word", "add", "plum", "--definition", "자두", "--book", "Other"])
        // 08:00 KST on 1 December: three new words, each good; 03:59 KST on 3 December is
        // still the 2nd's study day; 04:00 KST a new one.
        try study(at: "2026-11-30T23:00:00Z", grades: "3\n3\n3\n")
        try study(at: "2026-12-02T18:59:00Z", grades: "3\n3\n3\n")
        let review = try vocab.run(["review", "apple", "--rating", "again", "--now", "2026-12-02T19:00:00Z"], environment: seoul)
        XCTAssertEqual(review.status, 0, review.stderr)

        let progress = try stats(["--days", "7", "--now", "2026-12-03T03:00:00Z"])
        XCTAssertEqual(progress["days"] as? Int, 7)
        // The report declares its charts' spans and marks: the page draws them, as the window and the terminal do.
        let charts = try XCTUnwrap(progress["charts"] as? [String: Any])
        XCTAssertEqual(charts["spans"] as? [Int], [30, 90, 365])
        XCTAssertEqual(charts["dueDayMarks"] as? [Int], [0, 7, 14, 21, 29])
        XCTAssertEqual(charts["calendarWeeks"] as? Int, 53)
        XCTAssertEqual(progress["todayStart"] as? String, "2026-12-02T19:00:00Z")
        let calendar = try XCTUnwrap(progress["calendar"] as? [String: Any])
        XCTAssertEqual(calendar["reviews"] as? [Int], [0, 0, 0, 0, 3, 3, 1])
        XCTAssertEqual(calendar["studiedDays"] as? Int, 3)
        XCTAssertEqual(calendar["currentStreak"] as? Int, 3)
        let standing = try XCTUnwrap(progress["standing"] as? [String: Any])
        XCTAssertEqual(standing["total"] as? Int, 3)
        XCTAssertEqual(standing["new"] as? Int, 0)
        let books = try XCTUnwrap(progress["books"] as? [[String: Any]])
        XCTAssertEqual(books.map { $0["name"] as? String }, ["Other", "TOEIC"])
        for key in ["dueAhead", "retention", "added", "hours", "buttons", "memory"] {
            XCTAssertNotNil(progress[key], "stats --json has \(key)")
        }
        let due = try XCTUnwrap(progress["dueAhead"] as? [String: Any])
        XCTAssertEqual((due["days"] as? [Int])?.count, 30)
        XCTAssertEqual((due["weeks"] as? [Int])?.count, 52)
        XCTAssertEqual(((progress["hours"] as? [Any])?.count), 24)

        let toeic = try stats(["--days", "7", "--now", "2026-12-03T03:00:00Z", "--book", "TOEIC"])
        XCTAssertEqual((toeic["calendar"] as? [String: Any])?["reviews"] as? [Int], [0, 0, 0, 0, 2, 2, 1])
        XCTAssertEqual((toeic["books"] as? [[String: Any]])?.map { $0["name"] as? String }, ["TOEIC"])

        let text = try vocab.run(["stats", "--days", "14", "--now", "2026-12-03T03:00:00Z"], environment: seoul)
        XCTAssertEqual(text.status, 0, text.stderr)
        for part in ["Due", "Studied", "3 of the last 14 days", "True retention", "Words", "Memory", "streak 3 days"] {
            XCTAssertTrue(text.stdout.contains(part), "text has \(part): \(text.stdout)")
        }
    }

    func testBadStatsOptionsAreRefusedClearly() throws {
        try vocab.ok(["book", "add", "TOEIC"])
        // The span's bounds are the session's: the page is refused in the same sentence (issue 69).
        let zero = try vocab.fails(["stats", "--days", "0"], status: 1)
        XCTAssertTrue(zero.contains("A progress report covers 1 to 3650 study days, not 0.") && zero.contains("--days"), zero)
        XCTAssertTrue(try vocab.fails(["stats", "--days", "4000"], status: 1).contains("A progress report covers 1 to 3650 study days, not 4000."))
        XCTAssertTrue(try vocab.fails(["stats", "--days", "many"], status: 2).contains("--days"))
        XCTAssertTrue(try vocab.fails(["stats", "--book", "Nope"], status: 1).contains("Nope"))
    }
}
