import Synchronization
import FoundationEssentials
import VocabCloudAPI
import VocabCore
import VocabSessions
import VocabWording
import VocabCatalog

/// Study: the next card with its buttons' intervals, a grade, the day's queue for the phone to
/// keep, and the reviews it made offline.
extension WebApp {
    /// The next card, with each rating's interval worded as the window's buttons word it, in
    /// the page's language (`wording`; English without).
    func nextCard(_ query: [String: String], wording: Wording?) throws -> NextCardAnswer {
        let words = wording ?? Wording(catalog: Catalog())
        let now = clock.now(), day = studyDay, clock = self.clock, dayStart = studyDayStart(at: now)
        let bookIds = try query["book"].map { [try uuid($0)] }
        return try pool.read { library -> NextCardAnswer in
            let peek = try StudyPeek(library: library, bookIds: bookIds, day: day, dayStart: dayStart, clock: clock)
            guard let card = peek.card else {
                switch try StudySession.nothingToStudy(library: library, bookIds: bookIds) {
                case .noWords: return NextCardAnswer(reason: "noWords")
                case .nothingDue(let next): return NextCardAnswer(reason: "nothingDue", nextReview: words.nextReview(next, from: now))
                }
            }
            // The interval each button shows, by the rule the window's buttons follow.
            let intervals = peek.choices.map { choice in
                IntervalRow(rating: choice.rating.name, due: choice.due.iso8601, interval: words.button(ButtonInterval(choice.due, from: now)))
            }
            return NextCardAnswer(card: WordRow(card.word, due: card.schedule?.due), dueCount: peek.dueCount,
                                  newCount: peek.newCount, intervals: intervals)
        }
    }

    /// When the study day of `time` began. Worked out with the calendar once and reused while
    /// `time` is less than 22 hours past it (a day is 23 to 25 hours long, so it is the same
    /// day): the calendar took a tenth of a card's time.
    func studyDayStart(at time: Timestamp) -> Timestamp {
        if let start = dayStartCache.withLock({ $0 }), start <= time, time.milliseconds - start.milliseconds < 22 * 3_600_000 {
            return start
        }
        let start = studyDay.start(of: time)
        dayStartCache.withLock { $0 = start }
        return start
    }

    /// The day's study queue (due, then new up to the day's limit), for the phone to keep:
    /// studying goes on with no network.
    func queue() throws -> StudyQueueAnswer {
        let day = studyDay, clock = self.clock
        return try pool.read { library -> StudyQueueAnswer in
            let session = try StudySession(library: library, bookIds: nil, day: day, clock: clock)
            return StudyQueueAnswer(cards: session.cards.map { WordRow($0.word, due: $0.schedule?.due) }, madeAt: clock.now().iso8601)
        }
    }

    /// Reviews made on the phone, sent when it is back online: `{"reviews": [{id, wordId,
    /// rating, at}]}`. Each keeps the time it was made and the id the phone gave it, so sending
    /// one twice changes nothing; schedules are derived from the log, as a sync does.
    func addReviews(_ request: ReviewsRequest) throws -> AddedAnswer {
        let items = request.reviews
        guard items.count <= WebMeta.reviewsPerRequest else {
            throw Refusal.tooManyReviews(most: WebMeta.reviewsPerRequest)
        }
        let now = clock.now()
        var byWord: [UUID: [ReviewRecord]] = [:]
        for item in items {
            guard let id = UUID(text: item.id), let wordId = UUID(text: item.wordId), let rating = Rating(name: item.rating),
                  let at = Timestamp(iso8601: item.at), ReviewRecording.accepts(at, now: now) else {
                throw Refusal.reviewNotWellFormed
            }
            byWord[wordId, default: []].append(ReviewRecord(id: id, wordId: wordId, reviewedAt: at, rating: rating, source: .study))
        }
        let added = try pool.write { library in try ReviewRecording.add(byWord, to: library) }
        return AddedAnswer(added: added)
    }
}
