import FoundationEssentials
import VocabCore

extension Store {
    // MARK: Reviews and schedules

    /// Appends a review to the log and re-derives the word's schedule from its whole log.
    @discardableResult
    public func recordReview(wordId: UUID, rating: Rating, at time: Timestamp, durationMs: Int64? = nil,
                             gameId: UUID? = nil, source: ReviewSource, scheduler: FSRSScheduler? = nil,
                             ids: inout TimeOrderedIDs) throws -> Schedule {
        try write {
            guard try word(id: wordId) != nil else { throw VocabError.wordNotFound(wordId.storageText, book: nil) }
            try insertReview(ReviewRecord(id: ids.next(milliseconds: time.milliseconds), wordId: wordId, reviewedAt: time,
                                          rating: rating, durationMs: durationMs, gameId: gameId, source: source))
            guard let schedule = try rebuildSchedule(wordId: wordId, scheduler: scheduler) else {
                throw StoreError.malformedRow(table: "reviews", column: "rating")
            }
            return schedule
        }
    }

    /// Replays a word's review log and stores the resulting schedule (removing it when the log
    /// is empty); returns it.
    @discardableResult
    public func rebuildSchedule(wordId: UUID, scheduler: FSRSScheduler? = nil) throws -> Schedule? {
        try write { try replaySchedule(wordId: wordId, scheduler: scheduler ?? self.scheduler()) }
    }

    /// `rebuildSchedule` inside a write already open (no savepoint of its own: a merge of
    /// thousands of logs would journal every page once per word).
    func replaySchedule(wordId: UUID, scheduler: FSRSScheduler) throws -> Schedule? {
        guard let key = try wordKey(id: wordId) else { return nil }
        return try replaySchedule(wordKey: key, scheduler: scheduler)
    }

    /// `replaySchedule` of the word kept under `wordKey`.
    func replaySchedule(wordKey: Int64, scheduler: FSRSScheduler) throws -> Schedule? {
        let log = try database.query("""
            SELECT rating, reviewed_at FROM reviews WHERE word = ? ORDER BY reviewed_at, id
            """, [.integer(wordKey)]) { row -> (rating: Rating, at: Timestamp)? in
            Rating(rawValue: Int(row.int(0))).map { ($0, row.timestamp(1)) }
        }.compactMap { $0 }
        guard let schedule = scheduler.replay(log), let first = log.first else {
            try database.run("DELETE FROM schedules WHERE word = ?", [.integer(wordKey)])
            return nil
        }
        try storeSchedules([(wordKey, schedule, first.at)])
        return schedule
    }

    /// The word's current schedule, or nil when it was never reviewed.
    public func schedule(wordId: UUID) throws -> Schedule? {
        try guarded {
            try database.first("SELECT \(Columns.schedule) FROM schedules s WHERE s.word = \(Columns.wordKey("?"))",
                                [.text(wordId.storageText)]) { try $0.decodeSchedule() }
        }
    }

    /// Reviewed words due at `time`, most overdue first. Walks `schedules_by_due` in order (the
    /// CROSS JOIN keeps SQLite from starting at the book's words and sorting them all), so the
    /// first pick costs the same in a book of any size.
    public func dueWords(inBooks bookIds: [UUID]?, at time: Timestamp, limit: Int) throws -> [ScheduledWord] {
        let (bookClause, arguments) = bookCondition(bookIds)
        return try guarded {
            try database.query("""
                SELECT \(Columns.word), \(Columns.schedule) FROM schedules s CROSS JOIN words w ON w.key = s.word
                WHERE s.due <= ?\(bookClause) ORDER BY s.due, s.word LIMIT ?
                """, [.integer(time.milliseconds)] + arguments + [.integer(Int64(limit))]) { row in
                ScheduledWord(word: try row.decodeWord(), schedule: try row.decodeSchedule(from: Columns.wordCount))
            }
        }
    }

    /// How many reviewed words are due at `time`. (Schedules first, by their due index: joined
    /// the other way, a book's count walked every word of the book.)
    /// `upTo`: counting stops there (what a study session shows at most), so a learner back
    /// after months, every word due, is counted as fast as one with a few.
    public func dueCount(inBooks bookIds: [UUID]?, at time: Timestamp, upTo limit: Int? = nil) throws -> Int {
        let (bookClause, arguments) = bookCondition(bookIds)
        // With no book named, the due index alone answers (every schedule has its word): the
        // join read a word row for each due one, 30 ms at 50,000 due.
        let due = bookClause.isEmpty ? "SELECT 1 FROM schedules s WHERE s.due <= ?"
                                     : "SELECT 1 FROM schedules s CROSS JOIN words w ON w.key = s.word WHERE s.due <= ?\(bookClause)"
        let limited = limit.map { " LIMIT \(max($0, 0))" } ?? ""
        return try guarded {
            Int(try database.integer("SELECT count(*) FROM (\(due)\(limited))", [.integer(time.milliseconds)] + arguments))
        }
    }

    /// Each book's words due at `time` (a book with none is not listed), in one pass for the
    /// whole shelf (a count per book read every due word once per book: 1.7 s for a shelf of
    /// ten at 91,000 due). The pass goes from the due words (a word row read each) while few
    /// are due, else from every word in the order of `words_by_book` (a schedule read each,
    /// about three times as fast a row as the word rows read at random).
    public func dueCountsByBook(at time: Timestamp) throws -> [UUID: Int] {
        try guarded {
            let words = try database.integer("""
                SELECT (SELECT coalesce(sum(words), 0) FROM book_counts)
                     + (SELECT count(*) FROM words WHERE rowid > (SELECT counted_through FROM word_marks))
                """)
            let third = words / 3 + 1
            let manyDue = try database.integer("SELECT count(*) FROM (SELECT 1 FROM schedules WHERE due <= ? LIMIT ?)",
                                               [.integer(time.milliseconds), .integer(third)]) >= third
            let perBook = manyDue
                ? "SELECT w.book, count(*) AS n FROM words w INDEXED BY words_by_book CROSS JOIN schedules s ON s.word = w.key WHERE s.due <= ? GROUP BY w.book"
                : "SELECT w.book, count(*) AS n FROM schedules s CROSS JOIN words w ON w.key = s.word WHERE s.due <= ? GROUP BY w.book"
            let rows = try database.query("SELECT b.id, d.n FROM (\(perBook)) d JOIN books b ON b.key = d.book",
                                          [.integer(time.milliseconds)]) { row in (try row.uuid(0, table: "books", name: "id"), Int(row.int(1))) }
            return Dictionary(rows, uniquingKeysWith: +)
        }
    }

    /// Words never reviewed and not memorised, oldest first.
    public func newWords(inBooks bookIds: [UUID]?, limit: Int) throws -> [Word] {
        let (bookClause, arguments) = bookCondition(bookIds)
        return try guarded {
            try database.query("""
                SELECT \(Columns.word) FROM words w
                WHERE w.memorized = 0 AND w.scheduled = 0\(bookClause)
                ORDER BY w.date, w.key LIMIT ?
                """, arguments + [.integer(Int64(limit))]) { try $0.decodeWord() }
        }
    }

    /// How many words were never reviewed and are not memorised (kept per book in
    /// `book_counts`, plus the words not counted yet: no word rows read).
    public func newWordCount(inBooks bookIds: [UUID]?) throws -> Int {
        var books = ""
        var arguments: [SQLValue] = []
        if let bookIds, !bookIds.isEmpty {
            books = " AND book IN \(Columns.bookKeys(Array(repeating: "?", count: bookIds.count).joined(separator: ", ")))"
            arguments = bookIds.map { .text($0.storageText) }
        }
        return try guarded {
            Int(try database.integer("""
                SELECT (SELECT coalesce(sum(fresh), 0) FROM book_counts WHERE 1\(books))
                     + (SELECT count(*) FROM words WHERE rowid > (SELECT counted_through FROM word_marks)
                        AND memorized = 0 AND scheduled = 0\(books))
                """, arguments + arguments))
        }
    }

    /// How many words had their first review at or after `time` (new words studied today).
    public func wordsFirstReviewed(since time: Timestamp, inBooks bookIds: [UUID]?) throws -> Int {
        let (bookClause, arguments) = bookCondition(bookIds)
        return try guarded {
            Int(try database.integer("""
                SELECT count(*) FROM schedules s CROSS JOIN words w ON w.key = s.word WHERE s.first_review >= ?\(bookClause)
                """, [.integer(time.milliseconds)] + arguments))
        }
    }

    /// How many of the word's latest reviews in a row were right (good or easy), up to 100.
    public func rightStreak(wordId: UUID) throws -> Int {
        let ratings = try guarded {
            try database.query("SELECT rating FROM reviews WHERE word = \(Columns.wordKey("?")) ORDER BY reviewed_at DESC, id DESC LIMIT 100",
                               [.text(wordId.storageText)]) { $0.int(0) }
        }
        return ratings.prefix { $0 >= Int64(Rating.good.rawValue) }.count
    }

    /// How many reviews the log holds.
    public func reviewCount() throws -> Int {
        try guarded { Int(try database.integer("SELECT n FROM review_tally")) }
    }

    func bookCondition(_ bookIds: [UUID]?) -> (String, [SQLValue]) {
        guard let bookIds, !bookIds.isEmpty else { return ("", []) }
        let marks = Array(repeating: "?", count: bookIds.count).joined(separator: ", ")
        return (" AND w.book IN \(Columns.bookKeys(marks))", bookIds.map { .text($0.storageText) })
    }
}

extension Columns {
    static let schedule = "s.state, s.step, s.stability, s.difficulty, s.due, s.last_review, s.reviews, s.lapses"
}

extension Row {
    func decodeSchedule(from start: Int32 = 0) throws -> Schedule {
        guard let state = MemoryState(rawValue: Int(int(start))) else {
            throw StoreError.malformedRow(table: "schedules", column: "state")
        }
        return Schedule(state: state, step: isNull(start + 1) ? nil : Int(int(start + 1)), stability: double(start + 2),
                        difficulty: double(start + 3), due: timestamp(start + 4), lastReview: timestamp(start + 5),
                        reviews: Int(int(start + 6)), lapses: Int(int(start + 7)))
    }
}

extension Store {
    /// Every word of the given books with its due time (nil when never reviewed).
    public func wordsWithDue(inBooks bookIds: [UUID]) throws -> [(word: Word, due: Timestamp?)] {
        let marks = Array(repeating: "?", count: max(bookIds.count, 1)).joined(separator: ", ")
        return try guarded {
            try database.query("""
                SELECT \(Columns.word), s.due FROM words w LEFT JOIN schedules s ON s.word = w.key
                WHERE w.book IN \(Columns.bookKeys(marks)) ORDER BY w.date, w.word, w.id
                """, bookIds.map { .text($0.storageText) }) { try $0.decodeWordWithDue() }
        }
    }
}


extension Row {
    /// The review in columns `id, reviewed_at, rating, duration_ms, game_id, source` (in that
    /// order, from the first) of word `wordId`'s log; nil for a row no review can be made of.
    func decodeReview(of wordId: UUID) -> ReviewRecord? {
        guard let id = uuidBytes(0), let rating = Rating(rawValue: Int(int(2))), let source = ReviewSource(rawValue: text(5)) else {
            return nil
        }
        return ReviewRecord(id: id, wordId: wordId, reviewedAt: timestamp(1), rating: rating, durationMs: isNull(3) ? nil : int(3),
                            gameId: isNull(4) ? nil : UUID(text: text(4)), source: source)
    }
}

extension Store {
    /// Adds one review to the log unless its id is there already; true when it was added
    /// (false too when its word is not here: a review is kept with its word).
    @discardableResult
    func insertReview(_ record: ReviewRecord) throws -> Bool {
        guard let key = try wordKey(id: record.wordId) else { return false }
        return try insertReviews([(key, record)]) == 1
    }

    /// A word's review log, oldest first.
    public func reviewLog(wordId: UUID) throws -> [ReviewRecord] {
        try guarded {
            try database.query("""
                SELECT id, reviewed_at, rating, duration_ms, game_id, source FROM reviews WHERE word = \(Columns.wordKey("?"))
                ORDER BY reviewed_at, id
                """, [.text(wordId.storageText)]) { $0.decodeReview(of: wordId) }.compactMap { $0 }
        }
    }

    /// Adds review records that are not in the log yet (the union of two logs) and re-derives
    /// the schedules of the words they touch, in one transaction. Returns how many were new.
    @discardableResult
    public func mergeReviews(_ records: [ReviewRecord], scheduler: FSRSScheduler? = nil) throws -> Int {
        let scheduler = try scheduler ?? self.scheduler()
        return try write {
            var touched = Set<UUID>()
            var inserted = 0
            for record in records where try insertReview(record) {
                inserted += 1
                touched.insert(record.wordId)
            }
            for wordId in touched where try wordExists(id: wordId) {
                _ = try replaySchedule(wordId: wordId, scheduler: scheduler)
            }
            return inserted
        }
    }
}

extension Store {
    /// About `limit` words of the given books picked at random (with their due times), in time
    /// that does not grow with the books' size: each pick is a random rowid between the books'
    /// first and last word, moved to the next word of one of the books with one seek per book
    /// in `words_by_book` (whose entries sort by rowid within a book). Books of at most `limit`
    /// words come back whole.
    public func sampleWordsWithDue(inBooks bookIds: [UUID], limit: Int, seed: UInt64) throws -> [(word: Word, due: Timestamp?)] {
        let marks = Array(repeating: "?", count: max(bookIds.count, 1)).joined(separator: ", ")
        let books = bookIds.map { SQLValue.text($0.storageText) }
        return try guarded {
            let atMostLimit = try database.integer("SELECT count(*) FROM (SELECT 1 FROM words WHERE book IN \(Columns.bookKeys(marks)) LIMIT ?)",
                                                   books + [.integer(Int64(limit) + 1)])
            guard atMostLimit > limit else { return try wordsWithDue(inBooks: bookIds) }
            // Each book's key, found once for the seeks below (NULL for a book not here: no words).
            let bookKeys = try books.map { try database.first("SELECT key FROM books WHERE id = ?", [$0]) { SQLValue.integer($0.int(0)) } ?? .null }
            var low = Int64.max, high = Int64.min
            for book in bookKeys {
                low = min(low, try database.integer("SELECT rowid FROM words WHERE book = ? ORDER BY rowid LIMIT 1", [book]))
                high = max(high, try database.integer("SELECT rowid FROM words WHERE book = ? ORDER BY rowid DESC LIMIT 1", [book]))
            }
            var random = SeededRandom(seed: seed)
            var seen = Set<Int64>()
            var sample: [(word: Word, due: Timestamp?)] = []
            let span = Int(high - low) + 1
            for _ in 0..<(limit * 3) where sample.count < limit {
                let start = low + Int64(random.below(span))
                var next: Int64?
                for book in bookKeys {
                    let found = try database.first("""
                        SELECT rowid FROM words WHERE book = ? AND rowid >= ? ORDER BY rowid LIMIT 1
                        """, [book, .integer(start)]) { $0.int(0) }
                    if let found, found < (next ?? .max) { next = found }
                }
                guard let rowid = next, seen.insert(rowid).inserted else { continue }
                let picked = try database.first("""
                    SELECT \(Columns.word), s.due FROM words w LEFT JOIN schedules s ON s.word = w.key WHERE w.rowid = ?
                    """, [.integer(rowid)]) { try $0.decodeWordWithDue() }
                if let picked { sample.append(picked) }
            }
            return sample
        }
    }
}
