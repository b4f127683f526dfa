import XCTest
import VocabCore
import VocabStore
@testable import VocabSessions

/// `vocab optimize`'s workflow on a real SQLite store holding a synthetic learner's log.
final class LearningOptimizationTests: XCTestCase {
    let start = Timestamp(iso8601: "2026-06-01T08:00:00Z")!
    let later = Timestamp(iso8601: "2026-12-01T08:00:00Z")!

    /// A store whose words carry the review logs of one synthetic learner.
    private func storeWithLearner(words: Int, days: Int = 150, seed: UInt64 = 11) throws -> (Store, [Word]) {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "Learner"), now: start)
        var random = SeededRandom(seed: seed)
        let logs = SimulatedLearner.random(&random).reviewLogs(words: words, newPerDay: 20, days: days, start: start, random: &random)
        var ids = TimeOrderedIDs()
        var added: [Word] = []
        var records: [ReviewRecord] = []
        for (index, log) in logs.enumerated() {
            let word = try store.addWord(WordDraft(word: "word\(index)"), toBook: book.id, now: start)
            added.append(word)
            records += log.map { ReviewRecord(id: ids.next(milliseconds: $0.at.milliseconds), wordId: word.id, reviewedAt: $0.at,
                                              rating: $0.rating, source: .study) }
        }
        try store.mergeReviews(records)
        return (store, added)
    }

    func testBetterParametersAreSavedAndEveryScheduleIsReDerivedWithThem() throws {
        let (store, words) = try storeWithLearner(words: 300)
        let before = try XCTUnwrap(store.schedule(wordId: words[0].id))
        var shares: [Double] = []
        let report = try LearningOptimization.run(library: Library(store), bookIds: nil, retention: nil, dryRun: false, now: later,
                                                  progress: { shares.append($0) })
        XCTAssertEqual(report.outcome, .saved)
        XCTAssertGreaterThanOrEqual(report.reviews, LearningOptimization.minimumReviews)
        let fitted = try XCTUnwrap(report.fittedParameters)
        XCTAssertLessThan(try XCTUnwrap(report.fitted).logLoss, report.defaults.logLoss)
        XCTAssertEqual(try store.learningSettings().parameters, fitted)
        XCTAssertEqual(try store.learningSettings().changedAt, later)
        XCTAssertEqual(shares.last ?? 0, 1, accuracy: 1e-9)
        // Each word's schedule is its log replayed with the fitted parameters.
        let scheduler = FSRSScheduler(parameters: fitted)
        for word in words.prefix(20) {
            let log = try store.reviewLog(wordId: word.id).map { (rating: $0.rating, at: $0.reviewedAt) }
            XCTAssertEqual(try store.schedule(wordId: word.id), scheduler.replay(log))
        }
        XCTAssertNotEqual(try store.schedule(wordId: words[0].id), before)
        // New reviews and the study buttons use them too.
        var ids = TimeOrderedIDs()
        let next = try store.recordReview(wordId: words[1].id, rating: .good, at: later, source: .review, ids: &ids)
        let log = try store.reviewLog(wordId: words[1].id).map { (rating: $0.rating, at: $0.reviewedAt) }
        XCTAssertEqual(next, scheduler.replay(log))
        XCTAssertEqual(try StudySession(library: Library(store), bookIds: nil, clock: FixedClock(later)).nextDue().count, 4)
    }

    func testADryRunSavesNothingAndTheSameFitIsNotSavedTwice() throws {
        let (store, words) = try storeWithLearner(words: 300)
        let schedule = try store.schedule(wordId: words[0].id)
        let dry = try LearningOptimization.run(library: Library(store), bookIds: nil, retention: 0.95, dryRun: true, now: later)
        XCTAssertEqual(dry.outcome, .betterNotSaved)
        XCTAssertEqual(try store.learningSettings(), LearningSettings())
        XCTAssertEqual(try store.schedule(wordId: words[0].id), schedule)
        XCTAssertEqual(try LearningOptimization.run(library: Library(store), bookIds: nil, retention: nil, dryRun: false, now: later).outcome, .saved)
        let again = try LearningOptimization.run(library: Library(store), bookIds: nil, retention: nil, dryRun: false, now: later)
        XCTAssertEqual(again.outcome, .notBetter, "the same fit is no better than itself")
        XCTAssertNotNil(again.previous)
        XCTAssertEqual(again.rescheduled, 0)
    }

    func testTooFewReviewsKeepTheDefaultsButTheRetentionStillChangesTheIntervals() throws {
        let (store, words) = try storeWithLearner(words: 12, days: 60)
        let report = try LearningOptimization.run(library: Library(store), bookIds: nil, retention: 0.85, dryRun: false, now: later)
        XCTAssertEqual(report.outcome, .tooFewReviews(minimum: 400))
        XCTAssertNil(report.fittedParameters)
        XCTAssertNil(try store.learningSettings().parameters)
        XCTAssertEqual(try store.learningSettings().desiredRetention, 0.85)
        let log = try store.reviewLog(wordId: words[0].id).map { (rating: $0.rating, at: $0.reviewedAt) }
        XCTAssertEqual(try store.schedule(wordId: words[0].id), FSRSScheduler(desiredRetention: 0.85).replay(log))
        // A lower retention means longer intervals than the default 0.9 gives a word in review.
        let reviewed = try words.compactMap { try store.schedule(wordId: $0.id) }.filter { $0.state == .review }
        let word = try XCTUnwrap(words.first { try store.schedule(wordId: $0.id)?.state == .review })
        let wordLog = try store.reviewLog(wordId: word.id).map { (rating: $0.rating, at: $0.reviewedAt) }
        XCTAssertFalse(reviewed.isEmpty)
        XCTAssertGreaterThan(try XCTUnwrap(store.schedule(wordId: word.id)).due, try XCTUnwrap(FSRSScheduler().replay(wordLog)).due)

        XCTAssertEqual(try LearningOptimization.reset(library: Library(store), now: later), words.count { !((try? store.reviewLog(wordId: $0.id))?.isEmpty ?? true) })
        XCTAssertEqual(try store.learningSettings().desiredRetention, 0.9)
        XCTAssertEqual(try store.schedule(wordId: words[0].id), FSRSScheduler().replay(log))
    }

    func testTheRetentionAloneChangesKeepingTheParametersAndRefusesValuesOutsideItsRange() throws {
        let (store, words) = try storeWithLearner(words: 150)
        _ = try LearningOptimization.run(library: Library(store), bookIds: nil, retention: nil, dryRun: false, now: later)
        let fitted = try XCTUnwrap(try store.learningSettings().parameters)
        let reviewed = try words.count { !(try store.reviewLog(wordId: $0.id)).isEmpty }

        XCTAssertEqual(try LearningOptimization.setRetention(0.95, library: Library(store), now: later), reviewed)
        XCTAssertEqual(try store.learningSettings().parameters, fitted)
        XCTAssertEqual(try store.learningSettings().desiredRetention, 0.95)
        let log = try store.reviewLog(wordId: words[0].id).map { (rating: $0.rating, at: $0.reviewedAt) }
        XCTAssertEqual(try store.schedule(wordId: words[0].id), FSRSScheduler(parameters: fitted, desiredRetention: 0.95).replay(log))
        XCTAssertNil(try LearningOptimization.setRetention(0.95, library: Library(store), now: later), "the same value changes nothing")

        for wrong in [0.84, 0.98, .nan] {
            XCTAssertThrowsError(try LearningOptimization.setRetention(wrong, library: Library(store), now: later)) { error in
                XCTAssertTrue(error is VocabError, "\(error)")
            }
            XCTAssertThrowsError(try LearningOptimization.run(library: Library(store), bookIds: nil, retention: wrong, dryRun: false, now: later)) { error in
                XCTAssertTrue(error is VocabError, "\(error)")
            }
        }
        XCTAssertEqual(try store.learningSettings().desiredRetention, 0.95)
    }

    func testCancellingLeavesEverythingAsItWas() throws {
        let (store, words) = try storeWithLearner(words: 300)
        let schedule = try store.schedule(wordId: words[0].id)
        XCTAssertThrowsError(try LearningOptimization.run(library: Library(store), bookIds: nil, retention: 0.95, dryRun: false, now: later,
                                                          isCancelled: { true })) { error in
            XCTAssertEqual(error as? FSRSOptimizerError, .cancelled)
        }
        XCTAssertEqual(try store.learningSettings(), LearningSettings())
        XCTAssertEqual(try store.schedule(wordId: words[0].id), schedule)
    }

    func testOnlyTheNamedBooksReviewsAreFittedOn() throws {
        let (store, _) = try storeWithLearner(words: 300)
        let other = try store.addBook(BookDraft(name: "Other"), now: start)
        XCTAssertEqual(try LearningOptimization.run(library: Library(store), bookIds: [other.id], retention: nil, dryRun: true, now: later).reviews, 0)
        XCTAssertEqual(try store.reviewSequences(inBooks: [other.id]).count, 0)
        XCTAssertGreaterThan(try store.reviewSequences(inBooks: nil).count, 200)
    }
}
