import FoundationEssentials
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
/// Not safe to use from two threads at once; a front end may hand it from thread to thread
/// (a window grades on its store worker), one step at a time.
public final class StudySession: @unchecked Sendable {
    /// The most due words one session takes.
    public static let dueLimit = 10_000
    public let cards: [StudyCard]
    public let dueCount: Int
    public let newCount: Int
    public private(set) var position = 0
    public private(set) var graded = 0

    private let store: Store
    private let clock: SessionClock
    private let scheduler: FSRSScheduler
    private var ids = TimeOrderedIDs()

    /// New words a day when the learner says nothing else (every front end's default).
    public static let defaultNewPerDay = 20

    /// Builds the queue from the store as it is at the clock's time. `bookIds` nil: every book.
    /// New words: `newPerDay` in each study day (`day`: from 4 a.m. where the learner is).
    public init(library: Library, bookIds: [UUID]?, newPerDay: Int = StudySession.defaultNewPerDay, day: StudyDay = StudyDay(), clock: SessionClock,
                scheduler: FSRSScheduler? = nil) throws {
        let store = library.store
        self.store = store
        self.clock = clock
        self.scheduler = try scheduler ?? store.scheduler()
        let time = clock.now()
        let newLeft = try Self.newWordsLeft(store: store, bookIds: bookIds, newPerDay: newPerDay, dayStart: day.start(of: time))
        let due = try store.dueWords(inBooks: bookIds, at: time, limit: Self.dueLimit)
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
        return Self.nextDue(of: card, scheduler: scheduler, at: clock.now())
    }

    /// When `card` would be due next after each rating given at `time`.
    static func nextDue(of card: StudyCard, scheduler: FSRSScheduler, at time: Timestamp) -> [(rating: Rating, due: Timestamp)] {
        Rating.allCases.map { ($0, scheduler.review(card.schedule, rating: $0, at: time).due) }
    }

    /// The new words a study day still takes: `newPerDay`, less the words first reviewed since it began.
    static func newWordsLeft(store: Store, bookIds: [UUID]?, newPerDay: Int, dayStart: Timestamp) throws -> Int {
        max(0, newPerDay - (try store.wordsFirstReviewed(since: dayStart, inBooks: bookIds)))
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

    /// Why there is nothing to study: no words at all, or nothing due (and when the next review is).
    public static func nothingToStudy(library: Library, bookIds: [UUID]?) throws -> NothingToStudy {
        try library.store.wordCount() == 0 ? .noWords : .nothingDue(nextReview: try nextReview(library: library, bookIds: bookIds))
    }

    /// When the next review of any word (in `bookIds`) is due; nil when none is scheduled.
    public static func nextReview(library: Library, bookIds: [UUID]?) throws -> Timestamp? {
        try library.dueWords(inBooks: bookIds, at: Timestamp(milliseconds: .max), limit: 1).first?.schedule?.due
    }
}

/// Why a study session has no card to show.
public enum NothingToStudy: Sendable, Equatable {
    /// The store holds no words at all.
    case noWords
    /// Words, but none due or new now; the next review, if one is scheduled.
    case nothingDue(nextReview: Timestamp?)
}

/// How far away a due time is, rounded as people say it: now, or whole minutes, hours or days.
public enum DueInterval: Sendable, Equatable {
    case now
    case minutes(Int)
    case hours(Int)
    case days(Int)

    public init(_ due: Timestamp, from time: Timestamp) {
        let seconds = (due.milliseconds - time.milliseconds) / 1000
        if seconds <= 0 {
            self = .now
        } else if seconds < 3600 {
            self = .minutes(Int((seconds + 59) / 60))
        } else if seconds < 86_400 {
            self = .hours(Int((seconds + 1799) / 3600))
        } else {
            self = .days(Int((seconds + 43_199) / 86_400))
        }
    }
}

/// The interval a rating button shows, coarser as it grows: minutes, hours, days, then months
/// and years in tenths (1.5 years is `years(tenths: 15)`).
public enum ButtonInterval: Sendable, Equatable {
    case minutes(Int)
    case hours(Int)
    case days(Int)
    case months(Int)
    case years(tenths: Int)

    public init(_ due: Timestamp, from time: Timestamp) {
        let seconds = Int(max(0, (due.milliseconds - time.milliseconds) / 1000))
        let days = (seconds + 43_199) / 86_400
        if seconds < 3600 {
            self = .minutes(max(1, (seconds + 59) / 60))
        } else if seconds < 86_400 {
            self = .hours((seconds + 1799) / 3600)
        } else if days < 31 {
            self = .days(days)
        } else if days < 365 {
            self = .months((days * 10 / 30 + 5) / 10)
        } else {
            self = .years(tenths: (days * 10 + 182) / 365)
        }
    }
}
