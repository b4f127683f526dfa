import Foundation
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
    @discardableResult
    public func addReviewLogs(_ logs: [(wordId: UUID, records: [ReviewRecord])], scheduler: FSRSScheduler) throws -> Int {
        // In the order of the log's word index (ids compare as their lowercase text does): each
        // insert lands beside the one before, on pages still in the processor's cache.
        let logs = logs.filter { !$0.records.isEmpty }.sorted { $0.wordId.orderKey < $1.wordId.orderKey }
        guard !logs.isEmpty else { return 0 }
        let body = {
            let reviewed = try self.wordsWithReviews(logs.map(\.wordId))
            let records = logs.flatMap(\.records)
            // Which words got new reviews: counted by the insert when some had reviews before
            // (a package imported again); else every word did when every record went in.
            let newPerWord: [UUID: Int], inserted: Int
            if reviewed.isEmpty {
                inserted = try self.insertReviews(records)
                // All in: each word's count is its log's. Some not: none is known, each is replayed.
                newPerWord = Dictionary(logs.map { ($0.wordId, inserted == records.count ? $0.records.count : 0) },
                                        uniquingKeysWith: +)
                guard inserted > 0 else { return 0 }
            } else {
                newPerWord = try self.insertReviewsCountingWords(records)
                inserted = newPerWord.values.reduce(0, +)
            }
            var fresh: [(wordId: String, schedule: Schedule, first: Timestamp)] = []
            for log in logs {
                guard let new = newPerWord[log.wordId] else { continue }  // its log as it was: so is its schedule
                if new == log.records.count, !reviewed.contains(log.wordId),
                   let schedule = scheduler.replay(log.records.map { (rating: $0.rating, at: $0.reviewedAt) }),
                   let first = log.records.map(\.reviewedAt).min() {
                    fresh.append((log.wordId.storageText, schedule, first))
                } else {
                    _ = try self.replaySchedule(wordId: log.wordId, scheduler: scheduler)
                }
            }
            try self.storeSchedules(fresh)
            return inserted
        }
        return database.isInTransaction ? try guarded(body) : try write(body)
    }

    /// Which of `wordIds` have a review already.
    private func wordsWithReviews(_ wordIds: [UUID]) throws -> Set<UUID> {
        var found = Set<UUID>()
        for start in stride(from: 0, to: wordIds.count, by: Self.chunk) {
            let part = wordIds[start..<min(start + Self.chunk, wordIds.count)]
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            try database.forEachRow("SELECT DISTINCT word_id FROM reviews WHERE word_id IN (\(marks))",
                                    part.map { .text($0.storageText) }) { row in
                if let id = UUID(text: row.text(0)) { found.insert(id) }
            }
        }
        return found
    }

    /// Inserts the reviews not in the log yet; returns how many were.
    func insertReviews(_ records: [ReviewRecord]) throws -> Int {
        var inserted = 0
        try forEachChunk(of: records, columns: 7, sql: { Self.reviewInsert($0, returning: "") }, bind: Self.bindReview,
                         eachRow: { _ in }, afterEach: { inserted += database.changes })
        return inserted
    }

    /// Inserts the reviews not in the log yet; returns how many went in, per word.
    private func insertReviewsCountingWords(_ records: [ReviewRecord]) throws -> [UUID: Int] {
        var newPerWord: [UUID: Int] = [:]
        try forEachChunk(of: records, columns: 7, sql: { Self.reviewInsert($0, returning: "RETURNING word_id") },
                         bind: Self.bindReview, eachRow: { row in
            if let wordId = UUID(text: row.text(0)) { newPerWord[wordId, default: 0] += 1 }
        }, afterEach: {})
        return newPerWord
    }

    private static func reviewInsert(_ values: String, returning: String) -> String {
        """
        INSERT INTO reviews (id, word_id, reviewed_at, rating, duration_ms, game_id, source)
        VALUES \(values) ON CONFLICT (id) DO NOTHING \(returning)
        """
    }

    private static func bindReview(_ statement: Statement, _ record: ReviewRecord, from first: Int32) throws {
        try statement.bind(idText: record.id, at: first)
        try statement.bind(idText: record.wordId, at: first + 1)
        try statement.bind(record.reviewedAt.milliseconds, at: first + 2)
        try statement.bind(Int64(record.rating.rawValue), at: first + 3)
        try statement.bind(record.durationMs, at: first + 4)
        if let game = record.gameId { try statement.bind(idText: game, at: first + 5) } else { try statement.bind(.null, at: first + 5) }
        try statement.bind(.text(record.source.rawValue), at: first + 6)
    }

    func storeSchedules(_ rows: [(wordId: String, schedule: Schedule, first: Timestamp)]) throws {
        try forEachChunk(of: rows, columns: 10, sql: { """
            INSERT OR REPLACE INTO schedules (word_id, state, step, stability, difficulty, due, last_review,
                reviews, lapses, first_review)
            VALUES \($0)
            """ }) { statement, row, first in
            let schedule = row.schedule
            try statement.bind(.text(row.wordId), at: first)
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

private extension UUID {
    /// The id's bytes as two big-endian numbers: sorts as its text form does.
    var orderKey: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { bytes in
            (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian,
             bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian)
        }
    }
}
