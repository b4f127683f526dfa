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
                SELECT id, reviewed_at, rating, duration_ms, game_id, source, word FROM reviews ORDER BY word, reviewed_at, id
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
                while pending, reviews.row.int(6) <= key {
                    if reviews.row.int(6) == key, let review = reviews.row.decodeReview(of: word.id) { log.append(review) }
                    pending = try reviews.step()
                }
                try body(WordHistory(word: word, schedule: schedule, log: log))
            }
        }
    }
}
