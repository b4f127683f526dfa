import Foundation
import VocabCore

/// Review logs carried in from elsewhere in bulk (an Anki package's notes), written set-wise:
/// a statement per few hundred rows instead of one per review (each statement inside a long
/// transaction opens and closes a statement journal, which cost more than the row itself).
extension Store {
    /// Rows per multi-row statement (7 or 10 values each: well inside SQLite's variable limit).
    private static let chunk = 256

    /// Adds each word's log and re-derives its schedule, in the transaction already open (or
    /// one of its own). A word that had no reviews gets its schedule from its records as they
    /// are, without reading them back; the others (and every word of a batch whose records
    /// were partly there already) are replayed from the merged log. Returns how many reviews
    /// were new.
    @discardableResult
    public func addReviewLogs(_ logs: [(wordId: UUID, records: [ReviewRecord])], scheduler: FSRSScheduler) throws -> Int {
        let logs = logs.filter { !$0.records.isEmpty }
        guard !logs.isEmpty else { return 0 }
        let body = {
            let reviewed = try self.wordsWithReviews(logs.map(\.wordId))
            let records = logs.flatMap(\.records)
            let inserted = try self.insertReviews(records)
            var fresh: [(wordId: String, schedule: Schedule, first: Timestamp)] = []
            for log in logs {
                if inserted == records.count, !reviewed.contains(log.wordId),
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
        for start in stride(from: 0, to: records.count, by: Self.chunk) {
            let part = records[start..<min(start + Self.chunk, records.count)]
            var values: [SQLValue] = []
            values.reserveCapacity(part.count * 7)
            for record in part {
                values += [.text(record.id.storageText), .text(record.wordId.storageText), .integer(record.reviewedAt.milliseconds),
                           .integer(Int64(record.rating.rawValue)), record.durationMs.map { .integer($0) } ?? .null,
                           record.gameId.map { .text($0.storageText) } ?? .null, .text(record.source.rawValue)]
            }
            try database.run("""
                INSERT INTO reviews (id, word_id, reviewed_at, rating, duration_ms, game_id, source)
                VALUES \(Self.placeholders(rows: part.count, columns: 7)) ON CONFLICT (id) DO NOTHING
                """, values)
            inserted += database.changes
        }
        return inserted
    }

    func storeSchedules(_ rows: [(wordId: String, schedule: Schedule, first: Timestamp)]) throws {
        for start in stride(from: 0, to: rows.count, by: Self.chunk) {
            let part = rows[start..<min(start + Self.chunk, rows.count)]
            var values: [SQLValue] = []
            values.reserveCapacity(part.count * 10)
            for (wordId, schedule, first) in part {
                values += [.text(wordId), .integer(Int64(schedule.state.rawValue)), schedule.step.map { .integer(Int64($0)) } ?? .null,
                           .real(schedule.stability), .real(schedule.difficulty), .integer(schedule.due.milliseconds),
                           .integer(schedule.lastReview.milliseconds), .integer(Int64(schedule.reviews)),
                           .integer(Int64(schedule.lapses)), .integer(first.milliseconds)]
            }
            try database.run("""
                INSERT OR REPLACE INTO schedules (word_id, state, step, stability, difficulty, due, last_review,
                    reviews, lapses, first_review)
                VALUES \(Self.placeholders(rows: part.count, columns: 10))
                """, values)
        }
    }

    /// `(?, ?, …), (?, ?, …), …`: `rows` groups of `columns` marks.
    private static func placeholders(rows: Int, columns: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
