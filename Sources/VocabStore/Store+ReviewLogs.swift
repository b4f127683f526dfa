import FoundationEssentials
import VocabCore

/// Review logs carried in from elsewhere in bulk (an Anki package's notes), written set-wise:
/// a statement per few hundred rows instead of one per review (each statement inside a long
/// transaction opens and closes a statement journal, which cost more than the row itself).
extension Store {
    /// Rows per multi-row statement (7 or 10 values each: well inside SQLite's variable limit).
    private static let chunk = 256

    /// Adds each word's log and re-derives its schedule, in the transaction already open (or
    /// one of its own). A word that had no reviews, and whose records all went in, gets its
    /// schedule from its records as they are, without reading them back; one that had reviews
    /// and got new ones is replayed from the merged log; one that got none keeps its schedule
    /// (a package imported again re-derives only the words whose logs grew). Returns how many
    /// reviews were new.
    /// `knownKeys`: the keys of words the caller knows (those it just inserted); others are
    /// looked up.
    @discardableResult
    public func addReviewLogs(_ logs: [(wordId: UUID, records: [ReviewRecord])], scheduler: FSRSScheduler,
                              knownKeys: [UUID: Int64] = [:]) throws -> Int {
        let body = {
            // Reviews refer to their word by its key: a log of a word that is not here is left out.
            var keys = try self.wordKeys(logs.lazy.filter { !$0.records.isEmpty && knownKeys[$0.wordId] == nil }.map(\.wordId))
            for log in logs { if let key = knownKeys[log.wordId] { keys[log.wordId] = key } }
            // In the order of the words' keys (the reviews' index by word): each insert lands
            // beside the one before, on pages still in the processor's cache.
            let logs = logs.compactMap { log in keys[log.wordId].map { (key: $0, wordId: log.wordId, records: log.records) } }
                .filter { !$0.records.isEmpty }.sorted { $0.key < $1.key }
            guard !logs.isEmpty else { return 0 }
            let reviewed = try self.wordsWithReviews(logs.map(\.key))
            let records = logs.flatMap { log in log.records.map { (log.key, $0) } }
            // Which words got new reviews: counted by the insert when some had reviews before
            // (a package imported again); else every word did when every record went in.
            let newPerWord: [Int64: Int], inserted: Int
            if reviewed.isEmpty {
                inserted = try self.insertReviews(records)
                // All in: each word's count is its log's. Some not: none is known, each is replayed.
                newPerWord = Dictionary(logs.map { ($0.key, inserted == records.count ? $0.records.count : 0) },
                                        uniquingKeysWith: +)
                guard inserted > 0 else { return 0 }
            } else {
                newPerWord = try self.insertReviewsCountingWords(records)
                inserted = newPerWord.values.reduce(0, +)
            }
            var fresh: [(word: Int64, schedule: Schedule, first: Timestamp)] = []
            for log in logs {
                guard let new = newPerWord[log.key] else { continue }  // its log as it was: so is its schedule
                if new == log.records.count, !reviewed.contains(log.key),
                   let schedule = scheduler.replay(log.records.map { (rating: $0.rating, at: $0.reviewedAt) }),
                   let first = log.records.map(\.reviewedAt).min() {
                    fresh.append((log.key, schedule, first))
                } else {
                    _ = try self.replaySchedule(wordKey: log.key, scheduler: scheduler)
                }
            }
            try self.storeSchedules(fresh)
            return inserted
        }
        return database.isInTransaction ? try guarded(body) : try write(body)
    }

    /// The keys of those of `wordIds` that are words here.
    func wordKeys(_ wordIds: some Sequence<UUID>) throws -> [UUID: Int64] {
        var keys: [UUID: Int64] = [:]
        let ids = Array(wordIds)
        for start in stride(from: 0, to: ids.count, by: Self.chunk) {
            let part = ids[start..<min(start + Self.chunk, ids.count)]
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            try database.forEachRow("SELECT id, key FROM words WHERE id IN (\(marks))", part.map { .text($0.storageText) }) { row in
                if let id = UUID(text: row.text(0)) { keys[id] = row.int(1) }
            }
        }
        return keys
    }

    /// Which of the words keyed `wordKeys` have a review already.
    private func wordsWithReviews(_ wordKeys: [Int64]) throws -> Set<Int64> {
        var found = Set<Int64>()
        for start in stride(from: 0, to: wordKeys.count, by: Self.chunk) {
            let part = wordKeys[start..<min(start + Self.chunk, wordKeys.count)]
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            try database.forEachRow("SELECT DISTINCT word FROM reviews WHERE word IN (\(marks))", part.map { .integer($0) }) { row in
                found.insert(row.int(0))
            }
        }
        return found
    }

    /// Inserts the reviews (each with its word's key) not in the log yet; returns how many were.
    func insertReviews(_ records: [(word: Int64, record: ReviewRecord)]) throws -> Int {
        var inserted = 0
        try forEachChunk(of: records, columns: 7, sql: { Self.reviewInsert($0, returning: "") }, bind: Self.bindReview,
                         eachRow: { _ in }, afterEach: { inserted += database.changes })
        return inserted
    }

    /// Inserts the reviews not in the log yet; returns how many went in, per word key.
    private func insertReviewsCountingWords(_ records: [(word: Int64, record: ReviewRecord)]) throws -> [Int64: Int] {
        var newPerWord: [Int64: Int] = [:]
        try forEachChunk(of: records, columns: 7, sql: { Self.reviewInsert($0, returning: "RETURNING word") },
                         bind: Self.bindReview, eachRow: { row in newPerWord[row.int(0), default: 0] += 1 }, afterEach: {})
        return newPerWord
    }

    private static func reviewInsert(_ values: String, returning: String) -> String {
        """
        INSERT INTO reviews (id, word, reviewed_at, rating, duration_ms, game_id, source)
        VALUES \(values) ON CONFLICT DO NOTHING \(returning)
        """
    }

    private static func bindReview(_ statement: Statement, _ row: (word: Int64, record: ReviewRecord), from first: Int32) throws {
        let record = row.record
        try statement.bind(idBytes: record.id, at: first)
        try statement.bind(row.word, at: first + 1)
        try statement.bind(record.reviewedAt.milliseconds, at: first + 2)
        try statement.bind(Int64(record.rating.rawValue), at: first + 3)
        try statement.bind(record.durationMs, at: first + 4)
        if let game = record.gameId { try statement.bind(idText: game, at: first + 5) } else { try statement.bind(.null, at: first + 5) }
        try statement.bind(.text(record.source.rawValue), at: first + 6)
    }

    func storeSchedules(_ rows: [(word: Int64, schedule: Schedule, first: Timestamp)]) throws {
        try forEachChunk(of: rows, columns: 10, sql: { """
            INSERT OR REPLACE INTO schedules (word, state, step, stability, difficulty, due, last_review,
                reviews, lapses, first_review)
            VALUES \($0)
            """ }) { statement, row, first in
            let schedule = row.schedule
            try statement.bind(row.word, at: first)
            try statement.bind(Int64(schedule.state.rawValue), at: first + 1)
            try statement.bind(schedule.step.map(Int64.init), at: first + 2)
            try statement.bind(.real(schedule.stability), at: first + 3)
            try statement.bind(.real(schedule.difficulty), at: first + 4)
            try statement.bind(schedule.due.milliseconds, at: first + 5)
            try statement.bind(schedule.lastReview.milliseconds, at: first + 6)
            try statement.bind(Int64(schedule.reviews), at: first + 7)
            try statement.bind(Int64(schedule.lapses), at: first + 8)
            try statement.bind(row.first.milliseconds, at: first + 9)
        } eachRow: { _ in } afterEach: {}
    }

    /// Runs a multi-row statement per `chunk` rows of `rows` (the last one shorter), binding
    /// values straight into it (no arrays of values or strings of ids): `sql` gets the
    /// `(?, …), …` list, `bind` binds one row from its first parameter on, `eachRow` gets each
    /// row a statement returns, `afterEach` runs after each statement. The statements are
    /// prepared once and kept.
    private func forEachChunk<Element>(of rows: [Element], columns: Int, sql: (String) -> String,
                                       bind: (Statement, Element, Int32) throws -> Void,
                                       eachRow: (Row) -> Void, afterEach: () -> Void) throws {
        for start in stride(from: 0, to: rows.count, by: Self.chunk) {
            let part = rows[start..<min(start + Self.chunk, rows.count)]
            let statement = try database.statement(sql(Self.placeholders(rows: part.count, columns: columns)))
            statement.reset()
            for (offset, row) in part.enumerated() {
                try bind(statement, row, Int32(offset * columns + 1))
            }
            while try statement.step() { eachRow(statement.row) }
            afterEach()
        }
    }

    /// `(?, ?, …), (?, ?, …), …`: `rows` groups of `columns` marks.
    private static func placeholders(rows: Int, columns: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
