import Foundation
import XCTest
import VocabCore
@testable import VocabStore
@testable import VocabSessions

/// The progress report's every figure over a made review log with a fixed clock, for a
/// learner in Seoul (whose study day turns at 04:00 KST, 19:00 UTC) and the same log in UTC.
final class ProgressReportTests: XCTestCase {
    private var savedZone: String?
    private func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
    /// 12:00 on 10 December in Seoul: today began at 04:00 KST (19:00 UTC on the 9th).
    private lazy var now = at("2026-12-10T03:00:00Z")

    override func setUp() {
        savedZone = ProcessInfo.processInfo.environment["TZ"]
        living(in: "Asia/Seoul")
    }

    override func tearDown() {
        if let savedZone { setenv("TZ", savedZone, 1) } else { unsetenv("TZ") }
        tzset()
    }

    private func living(in zone: String) {
        setenv("TZ", zone, 1)
        tzset()
    }

    private struct Made {
        let store: Store
        let a: Book, b: Book
        let words: [String: Word]
    }

    /// Book A: a1 (reviewed 1 Nov, 30 Nov, today), a2 (03:59 and 04:00 KST either side of
    /// today's start), a3 (new). Book B: b1 (memorised), b2 (reviewed 3 and 8 Dec).
    private func made(path: String = ":memory:") throws -> Made {
        let store = try Store(path: path)
        let a = try store.addBook(BookDraft(name: "A"), now: at("2026-10-01T00:00:00Z"))
        let b = try store.addBook(BookDraft(name: "B"), now: at("2026-10-01T00:00:00Z"))
        var words: [String: Word] = [:]
        for (name, book, date, memorized) in [("a1", a, "2026-11-01T00:00:00Z", false), ("a2", a, "2026-12-09T18:59:00Z", false),
                                              ("a3", a, "2026-12-10T01:00:00Z", false), ("b1", b, "2026-12-10T02:00:00Z", true),
                                              ("b2", b, "2026-12-03T00:00:00Z", false)] {
            words[name] = try store.addWord(WordDraft(word: name, date: at(date), memorized: memorized), toBook: book.id, now: at(date))
        }
        var ids = TimeOrderedIDs()
        for (name, time, rating) in [("a1", "2026-11-01T01:00:00Z", Rating.good), ("a1", "2026-11-30T01:00:00Z", .good),
                                     ("a1", "2026-12-10T02:00:00Z", .again), ("a2", "2026-12-09T18:59:00Z", .good),
                                     ("a2", "2026-12-09T19:00:00Z", .good), ("b2", "2026-12-03T01:00:00Z", .hard),
                                     ("b2", "2026-12-08T01:00:00Z", .good)] {
            try store.recordReview(wordId: words[name]!.id, rating: rating, at: at(time), source: .study, ids: &ids)
        }
        return Made(store: store, a: a, b: b, words: words)
    }

    func testEveryFigureForASeoulLearnerOverAWeek() throws {
        let made = try made()
        let report = try ProgressService.report(in: Library(made.store), books: nil, days: 7, now: now, studyDay: StudyDay())
        XCTAssertEqual(report.todayStart, at("2026-12-09T19:00:00Z"))
        // Today: a1's again (11:00 KST) and a2's 04:00; yesterday a2's 03:59; two days back b2's.
        XCTAssertEqual(report.calendar.reviews, [0, 0, 0, 0, 1, 1, 2])
        XCTAssertEqual(report.calendar.studiedDays, 3)
        XCTAssertEqual(report.calendar.currentStreak, 3)
        XCTAssertEqual(report.calendar.longestStreak, 3)
        XCTAssertEqual(report.calendar.averagePerStudiedDay, 4.0 / 3, accuracy: 1e-9)
        // True retention: only reviews a day or more after the one before.
        let retention = Dictionary(uniqueKeysWithValues: report.retention.map { ($0.period, $0) })
        XCTAssertEqual(retention[.today], RetentionSpan(period: .today, young: PassTally(passed: 0, failed: 1)))
        XCTAssertEqual(retention[.yesterday], RetentionSpan(period: .yesterday))
        XCTAssertEqual(retention[.week], RetentionSpan(period: .week, young: PassTally(passed: 1, failed: 1)))
        XCTAssertEqual(retention[.month], RetentionSpan(period: .month, young: PassTally(passed: 1, failed: 1),
                                                        mature: PassTally(passed: 1, failed: 0)))
        XCTAssertEqual(retention[.year], retention[.month].map { RetentionSpan(period: .year, young: $0.young, mature: $0.mature) })
        XCTAssertEqual(report.desiredRetention, 0.9)
        XCTAssertEqual(report.buttons, [ButtonTally(kind: .learning, counts: [0, 0, 2, 0]),
                                        ButtonTally(kind: .young, counts: [1, 0, 1, 0]),
                                        ButtonTally(kind: .mature, counts: [0, 0, 0, 0])])
        var hours = [PassTally](repeating: PassTally(), count: 24)
        hours[3] = PassTally(passed: 1)   // 03:59 KST
        hours[4] = PassTally(passed: 1)   // 04:00 KST
        hours[10] = PassTally(passed: 1)  // 10:00 KST on 8 Dec
        hours[11] = PassTally(failed: 1)  // 11:00 KST today
        XCTAssertEqual(report.hours, hours)
        // Added: a2 yesterday (03:59 KST), a3 and b1 today; b2 (3 Dec) is eight days back.
        XCTAssertEqual(report.added, [0, 0, 0, 0, 0, 1, 2])

        // Where words stand and what is due, from each word's own schedule.
        var expected: [String: WordStanding] = ["A": WordStanding(new: 1), "B": WordStanding(memorized: 1)]
        var dueDays = [Int](repeating: 0, count: 30), backlog = 0
        for name in ["a1", "a2", "b2"] {
            let schedule = try XCTUnwrap(try made.store.schedule(wordId: made.words[name]!.id))
            let book = name.hasPrefix("a") ? "A" : "B"
            if schedule.state != .review { expected[book]!.learning += 1 }
            else if schedule.due.milliseconds - schedule.lastReview.milliseconds < 21 * 86_400_000 { expected[book]!.young += 1 }
            else { expected[book]!.mature += 1 }
            let dueDay = StudyDay().start(of: schedule.due)
            if dueDay < report.todayStart { backlog += 1 } else {
                let day = Int((dueDay.milliseconds - report.todayStart.milliseconds) / 86_400_000)
                if day < 30 { dueDays[day] += 1 }
            }
        }
        XCTAssertEqual(report.books.map(\.name), ["A", "B"])
        XCTAssertEqual(report.books.map(\.standing), [expected["A"]!, expected["B"]!])
        XCTAssertEqual(report.standing, expected["A"]! + expected["B"]!)
        XCTAssertEqual(report.standing.total, 5)
        XCTAssertEqual(report.dueAhead.backlog, backlog)
        XCTAssertEqual(report.dueAhead.days, dueDays)
        XCTAssertEqual(report.dueAhead.weeks.reduce(0, +), dueDays.reduce(0, +), "every word due within 30 days is in the weeks too")
        XCTAssertEqual(report.memory.stability.reduce(0, +), 3)
        XCTAssertEqual(report.memory.difficulty.reduce(0, +), 3)
        XCTAssertEqual(report.memory.retrievability.reduce(0, +), 3)
    }

    func testOneBooksReportHoldsOnlyItsWords() throws {
        let made = try made()
        let report = try ProgressService.report(in: Library(made.store), books: [made.b.id], days: 7, now: now, studyDay: StudyDay())
        XCTAssertEqual(report.books.map(\.name), ["B"])
        XCTAssertEqual(report.calendar.reviews, [0, 0, 0, 0, 1, 0, 0])
        XCTAssertEqual(report.standing.memorized, 1)
        XCTAssertEqual(report.standing.total, 2)
        XCTAssertEqual(report.added, [0, 0, 0, 0, 0, 0, 1])
        XCTAssertEqual(report.retention.first { $0.period == .week }?.young, PassTally(passed: 1, failed: 0))
    }

    /// The same log in UTC: today began at 04:00 UTC on the 9th, so a2's two reviews and a1's
    /// again fall on one study day, and b2's 01:00 UTC review on the 7th.
    func testTheSameLogInUTCFallsOnOtherDays() throws {
        living(in: "UTC")
        let made = try made()
        let report = try ProgressService.report(in: Library(made.store), books: nil, days: 7, now: now, studyDay: StudyDay())
        XCTAssertEqual(report.todayStart, at("2026-12-09T04:00:00Z"))
        XCTAssertEqual(report.calendar.reviews, [0, 0, 0, 0, 1, 0, 3])
        XCTAssertEqual(report.calendar.currentStreak, 1)
    }

    /// A long log is read in two halves on two connections; the report is the same as one read.
    func testALogReadInTwoHalvesGivesTheSameReport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try made(path: folder + "/vocab.sqlite")
        let summaries = try made.store.bookSummaries()
        func tally(splitFrom: Int64) throws -> ProgressReport {
            var tally = ProgressTally(now: now, studyDay: StudyDay(), days: 60, scheduler: FSRSScheduler(), bookCount: summaries.count)
            try made.store.tallyProgress(&tally, books: summaries.map(\.book.id), onlyThese: false, splitFrom: splitFrom)
            return tally.report(books: summaries.map { ($0.book.id, $0.book.name, $0.wordCount, $0.memorizedCount) })
        }
        let whole = try tally(splitFrom: .max), halves = try tally(splitFrom: 1)
        XCTAssertEqual(whole, halves)
        XCTAssertEqual(halves.calendar.total, 7, "all seven reviews are within 60 days")
    }
}
