import XCTest
import VocabCore
@testable import VocabStore

final class StudyStoreTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    func testTheScheduleIsDerivedFromTheWholeLogInTimeOrder() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        var ids = TimeOrderedIDs()
        // Recorded out of order, as logs merged from two devices would be.
        try store.recordReview(wordId: word.id, rating: .good, at: t0.adding(seconds: 600), source: .study, ids: &ids)
        let schedule = try store.recordReview(wordId: word.id, rating: .good, at: t0, source: .study, ids: &ids)
        let expected = FSRSScheduler().replay([(.good, t0), (.good, t0.adding(seconds: 600))])
        XCTAssertEqual(schedule, expected)
        XCTAssertEqual(try store.schedule(wordId: word.id), expected)
    }

    func testLogsCarriedInBulkReDeriveOnlyTheWordsWhoseLogsGrew() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let (a, b, c) = try (store.addWord(WordDraft(word: "a"), toBook: book.id, now: t0),
                             store.addWord(WordDraft(word: "b"), toBook: book.id, now: t0),
                             store.addWord(WordDraft(word: "c"), toBook: book.id, now: t0))
        var ids = TimeOrderedIDs()
        func review(_ word: Word, _ rating: Rating, days: Int64) -> ReviewRecord {
            let at = t0.adding(seconds: Double(days) * 86_400)
            return ReviewRecord(id: ids.next(milliseconds: at.milliseconds), wordId: word.id, reviewedAt: at, rating: rating, source: .study)
        }
        func replayed(_ word: Word) throws -> Schedule? {
            FSRSScheduler().replay(try store.reviewLog(wordId: word.id).map { ($0.rating, $0.reviewedAt) })
        }
        let aLog = [review(a, .good, days: 0), review(a, .good, days: 1)], bLog = [review(b, .again, days: 0)]
        XCTAssertEqual(try store.addReviewLogs([(a.id, aLog), (b.id, bLog)], scheduler: FSRSScheduler()), 3)
        XCTAssertEqual(try store.schedule(wordId: a.id), try replayed(a))
        XCTAssertEqual(try store.schedule(wordId: b.id), try replayed(b))

        // The same package again with a review more for a and a first one for c: b's log did not
        // grow, so its schedule is left alone (marked here to tell).
        try store.database.run("UPDATE schedules SET due = 1 WHERE word = (SELECT key FROM words WHERE id = ?)", [.text(b.id.storageText)])
        let cLog = [review(c, .hard, days: 2)]
        XCTAssertEqual(try store.addReviewLogs([(a.id, aLog + [review(a, .good, days: 5)]), (b.id, bLog), (c.id, cLog)],
                                               scheduler: FSRSScheduler()), 2)
        XCTAssertEqual(try store.reviewLog(wordId: a.id).count, 3)
        XCTAssertEqual(try store.schedule(wordId: a.id), try replayed(a))
        XCTAssertEqual(try store.schedule(wordId: b.id)?.due, Timestamp(milliseconds: 1), "not re-derived")
        XCTAssertEqual(try store.schedule(wordId: c.id), try replayed(c))

        // One word twice in a batch (two notes that became the same word): both logs count,
        // for a word with reviews and for one without.
        let d = try store.addWord(WordDraft(word: "d"), toBook: book.id, now: t0)
        for word in [c, d] {
            let before = try store.reviewLog(wordId: word.id).count
            XCTAssertEqual(try store.addReviewLogs([(word.id, [review(word, .good, days: 3)]), (word.id, [review(word, .good, days: 9)])],
                                                   scheduler: FSRSScheduler()), 2)
            XCTAssertEqual(try store.reviewLog(wordId: word.id).count, before + 2)
            XCTAssertEqual(try store.schedule(wordId: word.id), try replayed(word))
        }
    }

    func testCountsFollowReviewsMemorisingAndSyncAndAFirstReviewPushesOnlyTheReview() throws {
        let store = try Store(path: ":memory:")
        _ = try store.syncToken(for: "server")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let words = try (0..<4).map { try store.addWord(WordDraft(word: "w\($0)"), toBook: book.id, now: t0) }
        let pushed = try store.outbox(limit: 100)
        try store.clearOutbox(pushed, token: 1)
        XCTAssertEqual(try store.newWordCount(inBooks: [book.id]), 4)
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: words[0].id, rating: .good, at: t0, source: .study, ids: &ids)
        XCTAssertEqual(try store.newWordCount(inBooks: nil), 3)
        XCTAssertEqual(try store.outbox(limit: 100).map(\.record.kind), ["review"], "the word itself did not change")
        _ = try store.updateWord(id: words[1].id, WordChanges(memorized: true), now: t0)
        XCTAssertEqual(try store.newWordCount(inBooks: [book.id]), 2)
        XCTAssertEqual(try store.bookSummary(id: book.id).memorizedCount, 1)
        XCTAssertEqual(try store.bookSummaries().map(\.wordCount), [4])
        // A review merged from another device schedules its word too.
        let merged = ReviewRecord(id: ids.next(milliseconds: t0.milliseconds), wordId: words[2].id, reviewedAt: t0, rating: .hard, source: .study)
        XCTAssertEqual(try store.mergeReviews([merged]), 1)
        XCTAssertEqual(try store.newWordCount(inBooks: [book.id]), 1)
        XCTAssertEqual(try store.newWords(inBooks: nil, limit: 10).map(\.word), ["w3"])
        try store.deleteWord(id: words[0].id, now: t0)
        XCTAssertEqual(try store.bookSummary(id: book.id).wordCount, 3)
        store.assertDerivedDataMatchesWords()
        _ = try store.deleteBook(id: book.id, now: t0)
        XCTAssertEqual(try store.newWordCount(inBooks: nil), 0)
        store.assertDerivedDataMatchesWords()
    }

    func testDueAndNewWordsComeFromTheStoreAsItIsNow() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let words = try (0..<5).map { try store.addWord(WordDraft(word: "w\($0)", date: t0.adding(seconds: Double($0))), toBook: book.id, now: t0) }
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: words[0].id, rating: .again, at: t0, source: .study, ids: &ids)
        XCTAssertEqual(try store.dueWords(inBooks: [book.id], at: t0.adding(seconds: 59), limit: 10).count, 0)
        XCTAssertEqual(try store.dueWords(inBooks: [book.id], at: t0.adding(seconds: 60), limit: 10).map(\.word.id), [words[0].id])
        XCTAssertEqual(try store.newWords(inBooks: [book.id], limit: 2).map(\.word), ["w1", "w2"])
        XCTAssertEqual(try store.wordsFirstReviewed(since: t0, inBooks: nil), 1)
        try store.updateWord(id: words[1].id, WordChanges(memorized: true), now: t0)
        XCTAssertEqual(try store.newWords(inBooks: nil, limit: 2).map(\.word), ["w2", "w3"], "memorised words are not new")
    }

    func testDueCountsComeTheSameWhicheverWayTheyAreRead() throws {
        // Two books (6 words and 2) and an empty third. Reviewed at t0, a word is due about a
        // day later; the time moves from none due, through few (read from the due words), to
        // all of them (read from every word by book).
        let store = try Store(path: ":memory:")
        let big = try store.addBook(BookDraft(name: "Big"), now: t0)
        let small = try store.addBook(BookDraft(name: "Small"), now: t0)
        let empty = try store.addBook(BookDraft(name: "Empty"), now: t0)
        var ids = TimeOrderedIDs()
        for (index, book) in [big, big, big, big, big, big, small, small].enumerated() {
            let word = try store.addWord(WordDraft(word: "w\(index)"), toBook: book.id, now: t0)
            // Each reviewed an hour after the one before: they come due in that order.
            try store.recordReview(wordId: word.id, rating: .again, at: t0.adding(seconds: Double(index) * 3600), source: .study, ids: &ids)
        }
        _ = try store.addWord(WordDraft(word: "never reviewed"), toBook: small.id, now: t0)
        let dues = try store.database.query("SELECT due FROM schedules ORDER BY due") { $0.int(0) }
        XCTAssertEqual(dues.count, 8)
        for seen in [0, 1, 2, 7, 8] {
            let time = Timestamp(milliseconds: seen == 0 ? dues[0] - 1 : dues[seen - 1])
            let byBook = try store.dueCountsByBook(at: time)
            for book in [big, small, empty] {
                XCTAssertEqual(byBook[book.id] ?? 0, try store.dueCount(inBooks: [book.id], at: time), "\(seen) due, book \(book.name)")
            }
            XCTAssertEqual(byBook.values.reduce(0, +), seen)
            XCTAssertEqual(try store.dueCount(inBooks: nil, at: time), seen)
            XCTAssertEqual(try store.dueCount(inBooks: nil, at: time, upTo: 2), min(seen, 2))
            XCTAssertEqual(try store.dueCount(inBooks: [big.id], at: time, upTo: 2), min(seen, 6, 2))
        }
    }

    func testRightStreakCountsTheLatestRightAnswers() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        var ids = TimeOrderedIDs()
        for (offset, rating) in [Rating.good, .again, .good, .easy, .good].enumerated() {
            try store.recordReview(wordId: word.id, rating: rating, at: t0.adding(seconds: Double(offset * 60)), source: .game, ids: &ids)
        }
        XCTAssertEqual(try store.rightStreak(wordId: word.id), 3)
    }

    func testDeletingAWordTakesItsReviewsAndSchedule() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: word.id, rating: .good, at: t0, source: .study, ids: &ids)
        try store.deleteWord(id: word.id, now: t0)
        XCTAssertEqual(try store.reviewCount(), 0)
        XCTAssertNil(try store.schedule(wordId: word.id))
    }

    func testAGameKeepsItsAnswersAndScore() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "w", definition: "d"), toBook: book.id, now: t0)
        let game = UUID.random()
        try store.startGame(id: game, mode: .spelling, books: ["B"], planned: 2, configJSON: "{}", at: t0)
        let question = Question(word: word, prompt: "d", hint: nil, options: [], expected: "w", correctOption: nil)
        var ids = TimeOrderedIDs()
        try store.recordGameAnswer(gameId: game, position: 0, question: question, given: "x", rating: .again, at: t0, ids: &ids)
        try store.finishGame(id: game, at: t0)
        let record = try XCTUnwrap(try store.recentGames(limit: 5).first)
        XCTAssertEqual(record.answered, 1)
        XCTAssertEqual(record.correct, 0)
        XCTAssertEqual(record.wrongWords, ["w"])
        XCTAssertEqual(try store.reviewCount(), 1)
    }
}

final class GameSamplingTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    func testLargeBooksAreSampledAndSmallOnesComeWhole() throws {
        let store = try Store(path: ":memory:")
        let big = try store.addBook(BookDraft(name: "Big"), now: t0)
        let small = try store.addBook(BookDraft(name: "Small"), now: t0)
        try store.transaction {
            for index in 0..<1000 { try store.addWord(WordDraft(word: "b\(index)", definition: "d\(index)"), toBook: big.id, now: t0) }
            for index in 0..<5 { try store.addWord(WordDraft(word: "s\(index)", definition: "d\(index)"), toBook: small.id, now: t0) }
        }
        let sample = try store.sampleWordsWithDue(inBooks: [big.id], limit: 50, seed: 1)
        XCTAssertEqual(sample.count, 50)
        XCTAssertEqual(Set(sample.map(\.word.id)).count, 50)
        XCTAssertTrue(sample.allSatisfy { $0.word.bookId == big.id })
        XCTAssertEqual(try store.sampleWordsWithDue(inBooks: [big.id], limit: 50, seed: 1).map(\.word.id), sample.map(\.word.id))
        XCTAssertEqual(try store.sampleWordsWithDue(inBooks: [small.id], limit: 50, seed: 1).count, 5)
    }

    func testInterleavedBooksSampleOnlyTheirOwnWords() throws {
        let store = try Store(path: ":memory:")
        let a = try store.addBook(BookDraft(name: "A"), now: t0)
        let b = try store.addBook(BookDraft(name: "B"), now: t0)
        let c = try store.addBook(BookDraft(name: "C"), now: t0)
        try store.transaction {
            for index in 0..<900 {
                let book = [a, b, c][index % 3]
                try store.addWord(WordDraft(word: "w\(index)", definition: "d\(index)"), toBook: book.id, now: t0)
            }
        }
        let sample = try store.sampleWordsWithDue(inBooks: [a.id, c.id], limit: 100, seed: 7)
        XCTAssertEqual(Set(sample.map(\.word.id)).count, sample.count)
        XCTAssertGreaterThanOrEqual(sample.count, 90, "gaps of one word cost few probes")
        XCTAssertTrue(sample.allSatisfy { $0.word.bookId == a.id || $0.word.bookId == c.id })
        XCTAssertTrue(sample.contains { $0.word.bookId == a.id } && sample.contains { $0.word.bookId == c.id })
    }

    func testOldestAndDueOrdersPickTheSameWordsAsPlanningOverTheWholeBook() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "Big"), now: t0)
        var ids = TimeOrderedIDs()
        try store.transaction {
            for index in 0..<700 {
                // Dates out of insertion order, some memorised, some without a definition.
                let word = try store.addWord(WordDraft(word: "w\(index)", definition: index % 11 == 0 ? "" : "d\(index)",
                                                       date: t0.adding(seconds: Double((index * 7919) % 700) * 60),
                                                       memorized: index % 13 == 0), toBook: book.id, now: t0)
                if index % 5 == 0 {
                    try store.recordReview(wordId: word.id, rating: Rating(rawValue: 1 + index % 4) ?? .good,
                                           at: t0.adding(seconds: Double(index)), source: .study, ids: &ids)
                }
            }
        }
        for order in [GameOrder.oldest, .due] {
            for mode in [GameMode.choice, .flashcard] {
                for includeMemorized in [false, true] {
                    let planner = GamePlanner(mode: mode, count: 12, order: order, includeMemorized: includeMemorized, seed: 3)
                    let fast = try store.planGame(planner, books: [book])
                    let whole = try planner.plan(words: try store.wordsWithDue(inBooks: [book.id]), bookNames: ["Big"])
                    XCTAssertEqual(fast.questions.map(\.word.word), whole.questions.map(\.word.word), "\(order) \(mode) \(includeMemorized)")
                }
            }
        }
    }

    func testAGameFindsTheFewPlayableWordsOfABigBook() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "Mostly known"), now: t0)
        try store.transaction {
            for index in 0..<600 {
                try store.addWord(WordDraft(word: "w\(index)", definition: "d\(index)", memorized: index >= 3), toBook: book.id, now: t0)
            }
        }
        let (questions, note) = try store.planGame(GamePlanner(mode: .choice, count: 3, seed: 9), books: [book])
        XCTAssertNil(note)
        XCTAssertEqual(Set(questions.map(\.word.word)), ["w0", "w1", "w2"])
    }
}
