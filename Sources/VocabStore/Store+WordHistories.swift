import FoundationEssentials
import VocabCore

/// A word with its schedule (nil when never reviewed) and its review log, oldest first.
public struct WordHistory {
    public var word: Word
    public var schedule: Schedule?
    public var log: [ReviewRecord]

    public init(word: Word, schedule: Schedule?, log: [ReviewRecord]) {
        self.word = word
        self.schedule = schedule
        self.log = log
    }
}

extension Store {
    /// Calls `body` with every word, in the order words were added, with its schedule and log:
    /// two passes in key order, merged (the words with their schedules, and the reviews, which
    /// are kept by word already), so a pass over every word costs no look-up per word.
    public func forEachWordHistory(_ body: (WordHistory) throws -> Void) throws {
        try guarded {
            let reviews = try database.statement("""
                SELECT word, id, reviewed_at, rating, duration_ms, game_id, source FROM reviews ORDER BY word, reviewed_at, id
                """)
            defer { reviews.reset() }
            try reviews.bind([])
            var pending = try reviews.step()
            try database.forEachRow("""
                SELECT \(Columns.wordJoined), \(Columns.schedule), w.key FROM words w \(Columns.bookOfWord)
                LEFT JOIN schedules s ON s.word = w.key ORDER BY w.key
                """) { row in
                let word = try row.decodeWord()
                let schedule = row.isNull(Columns.wordCount) ? nil : try row.decodeSchedule(from: Columns.wordCount)
                let key = row.int(Columns.wordCount + 8)
                var log: [ReviewRecord] = []
                while pending, reviews.row.int(0) <= key {
                    let review = reviews.row
                    if review.int(0) == key, let id = review.uuidBytes(1), let rating = Rating(rawValue: Int(review.int(3))),
                       let source = ReviewSource(rawValue: review.text(6)) {
                        log.append(ReviewRecord(id: id, wordId: word.id, reviewedAt: review.timestamp(2), rating: rating,
                                                durationMs: review.isNull(4) ? nil : review.int(4),
                                                gameId: review.isNull(5) ? nil : UUID(text: review.text(5)), source: source))
                    }
                    pending = try reviews.step()
                }
                try body(WordHistory(word: word, schedule: schedule, log: log))
            }
        }
    }
}
