import Foundation
import XCTest
import VocabCore
import VocabStore

/// `vocab optimize` as a user runs it, on a store that holds a synthetic learner's log.
final class OptimizeEndToEndTests: EndToEndTestCase {
    let start = Timestamp(iso8601: "2026-06-01T08:00:00Z")!

    /// Fills the runner's store with 300 words and their logs (written through the store, as
    /// months of `vocab study` would have).
    private func seedLearner() throws {
        let store = try Store.open(folder: vocab.home)
        let book = try store.addBook(BookDraft(name: "TOEIC"), now: start)
        var random = SeededRandom(seed: 11)
        let logs = SimulatedLearner.random(&random).reviewLogs(words: 300, newPerDay: 20, days: 150, start: start, random: &random)
        var ids = TimeOrderedIDs()
        var records: [ReviewRecord] = []
        for (index, log) in logs.enumerated() {
            let word = try store.addWord(WordDraft(word: "word\(index)", definition: "뜻 \(index)"), toBook: book.id, now: start)
            records += log.map { ReviewRecord(id: ids.next(milliseconds: $0.at.milliseconds), wordId: word.id, reviewedAt: $0.at,
                                              rating: $0.rating, source: .study) }
        }
        try store.mergeReviews(records)
    }

    func testFittedParametersAreSavedUsedByDueAndResetAgain() throws {
        try seedLearner()
        let dueBefore = try vocab.ok(["due", "--json", "--now", "2026-11-20T00:00:00Z"])
        let dry = try XCTUnwrap(try vocab.json(["optimize", "--dry-run", "--json"]) as? [String: Any])
        XCTAssertEqual(dry["outcome"] as? String, "better-not-saved")
        XCTAssertEqual(try vocab.ok(["due", "--json", "--now", "2026-11-20T00:00:00Z"]), dueBefore, "a dry run changes nothing")

        let output = try vocab.ok(["optimize", "--retention", "0.95"])
        XCTAssertTrue(output.contains("reviews of 300 words to learn from."), output)
        XCTAssertTrue(output.contains("defaults"), output)
        XCTAssertTrue(output.contains("fitted"), output)
        XCTAssertTrue(output.contains("Saved the fitted parameters"), output)
        XCTAssertTrue(output.contains("Desired retention 0.95; 300 words rescheduled."), output)
        XCTAssertNotEqual(try vocab.ok(["due", "--json", "--now", "2026-11-20T00:00:00Z"]), dueBefore, "the schedules changed")

        let again = try XCTUnwrap(try vocab.json(["optimize", "--json"]) as? [String: Any])
        XCTAssertEqual(again["outcome"] as? String, "not-better")
        let settings = try XCTUnwrap(again["settings"] as? [String: Any])
        XCTAssertEqual(settings["optimized"] as? Bool, true)
        XCTAssertEqual(settings["desiredRetention"] as? Double, 0.95)
        XCTAssertEqual((settings["parameters"] as? [Double])?.count, 21)
        let fitted = try XCTUnwrap(again["fitted"] as? [String: Any])
        XCTAssertLessThan(try XCTUnwrap(fitted["logLoss"] as? Double),
                          try XCTUnwrap((again["defaults"] as? [String: Any])?["logLoss"] as? Double))

        XCTAssertTrue(try vocab.ok(["optimize", "--reset"]).hasPrefix("Back to the default FSRS-6 parameters"))
        XCTAssertEqual(try vocab.ok(["due", "--json", "--now", "2026-11-20T00:00:00Z"]), dueBefore, "the defaults' schedules again")
    }

    func testTooFewReviewsSaySoAndBadInputChangesNothing() throws {
        _ = try vocab.ok(["book", "add", "TOEIC"])
        _ = try vocab.ok(["word", "add", "abandon", "--book", "TOEIC", "--definition", "버리다"])
        let output = try vocab.ok(["optimize"])
        XCTAssertTrue(output.contains("Too few reviews to fit on (0 of at least 400"), output)
        XCTAssertTrue(output.contains("the default parameters stay."), output)

        XCTAssertTrue(try vocab.fails(["optimize", "--retention", "1.5"], status: 2).contains("expected a number from 0.85 to 0.97"))
        try vocab.fails(["optimize", "--retention", "many"], status: 2)
        XCTAssertTrue(try vocab.fails(["optimize", "--reset", "--dry-run"], status: 2).contains("cannot be used together"))
        try vocab.fails(["optimize", "--book", "Nope"], status: 1)
        try vocab.fails(["optimize", "--sideways"], status: 2)
        let settings = try XCTUnwrap((try vocab.json(["optimize", "--dry-run", "--json"]) as? [String: Any])?["settings"] as? [String: Any])
        XCTAssertEqual(settings["optimized"] as? Bool, false)
        XCTAssertEqual(settings["desiredRetention"] as? Double, 0.9)
    }
}
