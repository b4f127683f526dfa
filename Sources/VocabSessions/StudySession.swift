import Foundation
import VocabCore
import VocabStore

/// One card of a study session.
public struct StudyCard: Sendable {
    public var word: Word
    /// Its schedule before this session (nil for a new word).
    public var schedule: Schedule?
    public var isDue: Bool { schedule != nil }
}

/// Spaced-repetition study (FSRS-6): the words due now, most overdue first, then new words up
/// to the daily limit. For the current card it tells the due time each rating would give (for
/// the buttons, as Anki shows them); `grade` saves the review and moves on.
public final class StudySession {
    public let cards: [StudyCard]
    public let dueCount: Int
    public let newCount: Int
    public private(set) var position = 0
    public private(set) var graded = 0

    private let store: Store
    private let clock: SessionClock
    private let scheduler: FSRSScheduler
    private var ids = TimeOrderedIDs()

    /// Builds the queue from the store as it is at the clock's time. `bookIds` nil: every book.
    public init(store: Store, bookIds: [UUID]?, newPerDay: Int = 20, clock: SessionClock,
                scheduler: FSRSScheduler? = nil) throws {
        self.store = store
        self.clock = clock
        self.scheduler = try scheduler ?? store.scheduler()
        let time = clock.now()
        let dayStart = Timestamp(milliseconds: time.milliseconds - ((time.milliseconds % 86_400_000) + 86_400_000) % 86_400_000)
        let newLeft = max(0, newPerDay - (try store.wordsFirstReviewed(since: dayStart, inBooks: bookIds)))
        let due = try store.dueWords(inBooks: bookIds, at: time, limit: 10_000)
        let fresh = try store.newWords(inBooks: bookIds, limit: newLeft)
        cards = due.map { StudyCard(word: $0.word, schedule: $0.schedule) } + fresh.map { StudyCard(word: $0, schedule: nil) }
        dueCount = due.count
        newCount = fresh.count
    }

    /// The card to study now; nil when the session is done.
    public var current: StudyCard? { position < cards.count ? cards[position] : nil }

    /// For the current card: when it would be due next after each rating, at the clock's time.
    public func nextDue() -> [(rating: Rating, due: Timestamp)] {
        guard let card = current else { return [] }
        let time = clock.now()
        return Rating.allCases.map { ($0, scheduler.review(card.schedule, rating: $0, at: time).due) }
    }

    /// Saves the rating of the current card and moves to the next; returns its new schedule.
    @discardableResult
    public func grade(_ rating: Rating) throws -> Schedule? {
        guard let card = current else { return nil }
        let schedule = try store.recordReview(wordId: card.word.id, rating: rating, at: clock.now(), source: .study,
                                              scheduler: scheduler, ids: &ids)
        graded += 1
        position += 1
        return schedule
    }

    /// Ends the session early; what was graded is kept.
    public func stop() {
        position = cards.count
    }

    /// Why there is nothing to study: no words at all, or when the next review is.
    public static func nothingToStudy(store: Store, bookIds: [UUID]?, at time: Timestamp) throws -> String {
        try store.wordCount() == 0
            ? "No words yet: add some with `vocab word add` or `vocab import`."
            : "Nothing to study now. \(try nextReview(store: store, bookIds: bookIds, after: time))"
    }

    /// "Next review in 3 days." or "No reviews scheduled."
    public static func nextReview(store: Store, bookIds: [UUID]?, after time: Timestamp) throws -> String {
        guard let next = try store.dueWords(inBooks: bookIds, at: Timestamp(milliseconds: .max), limit: 1).first?.schedule else {
            return "No reviews scheduled."
        }
        return "Next review \(DueText.describe(next.due, from: time))."
    }
}

/// Due times in words: "now", "in 10 minutes", "in 3 days".
public enum DueText {
    public static func describe(_ due: Timestamp, from time: Timestamp) -> String {
        let seconds = (due.milliseconds - time.milliseconds) / 1000
        if seconds <= 0 { return "now" }
        if seconds < 3600 { return "in \(Plural.count(Int((seconds + 59) / 60), "minute"))" }
        if seconds < 86_400 { return "in \(Plural.count(Int((seconds + 1799) / 3600), "hour"))" }
        return "in \(Plural.count(Int((seconds + 43_199) / 86_400), "day"))"
    }

    /// The interval alone, short, for a button: "1m", "10m", "3h", "4d", "2mo", "1.5y".
    public static func short(_ due: Timestamp, from time: Timestamp) -> String {
        let seconds = max(0, (due.milliseconds - time.milliseconds) / 1000)
        if seconds < 3600 { return "\(max(1, (seconds + 59) / 60))m" }
        if seconds < 86_400 { return "\((seconds + 1799) / 3600)h" }
        let days = (seconds + 43_199) / 86_400
        if days < 31 { return "\(days)d" }
        if days < 365 { return "\((days * 10 / 30 + 5) / 10)mo" }
        let tenths = (days * 10 + 182) / 365
        return tenths % 10 == 0 ? "\(tenths / 10)y" : "\(tenths / 10).\(tenths % 10)y"
    }
}

/// "1 word", "3 words".
public enum Plural {
    public static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
