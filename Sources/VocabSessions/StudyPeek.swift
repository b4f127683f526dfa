import FoundationEssentials
import VocabCore
import VocabStore

/// The card a study session would show now, with the day's counts and the due time each rating
/// would give — read without building the whole queue (a few indexed reads, whatever the store's
/// size): what a server answers at every card. The same rules as `StudySession`: the most
/// overdue word first, then new words, up to the day's limit.
public struct StudyPeek: Sendable {
    public var card: StudyCard?
    public var dueCount: Int
    public var newCount: Int
    /// For the card: when it would be due next after each rating.
    public var choices: [(rating: Rating, due: Timestamp)]

    /// `dayStart`: when the study day began, if the caller knows (else from `day`).
    public init(library: Library, bookIds: [UUID]?, newPerDay: Int = StudySession.defaultNewPerDay, day: StudyDay = StudyDay(), dayStart: Timestamp? = nil,
                clock: SessionClock, scheduler: FSRSScheduler? = nil) throws {
        let store = library.store
        let time = clock.now()
        let newLeft = try StudySession.newWordsLeft(store: store, bookIds: bookIds, newPerDay: newPerDay, dayStart: dayStart ?? day.start(of: time))
        dueCount = try store.dueCount(inBooks: bookIds, at: time, upTo: StudySession.dueLimit)
        newCount = newLeft == 0 ? 0 : min(newLeft, try store.newWordCount(inBooks: bookIds))
        if dueCount > 0, let due = try store.dueWords(inBooks: bookIds, at: time, limit: 1).first {
            card = StudyCard(word: due.word, schedule: due.schedule)
        } else if newCount > 0, let fresh = try store.newWords(inBooks: bookIds, limit: 1).first {
            card = StudyCard(word: fresh, schedule: nil)
        } else {
            card = nil
        }
        let scheduler = try scheduler ?? store.scheduler()
        choices = card.map { StudySession.nextDue(of: $0, scheduler: scheduler, at: time) } ?? []
    }
}
