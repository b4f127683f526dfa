import FoundationEssentials
import VocabCore

extension Store {
    /// Saves the start of a game; answers are added one by one, so quitting keeps them.
    public func startGame(id: UUID, mode: GameMode, books: [String], planned: Int, configJSON: String,
                          at time: Timestamp) throws {
        try write {
            try database.run("""
                INSERT INTO games (id, started_at, mode, books, planned, config) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(id.storageText), .integer(time.milliseconds), .text(mode.rawValue),
                      .text(books.joined(separator: "\n")), .integer(Int64(planned)), .text(configJSON)])
        }
    }

    /// Saves one answer of a game and its review (right = good, wrong = again, or the
    /// flashcard's own grade), in one transaction; returns the word's new schedule.
    @discardableResult
    public func recordGameAnswer(gameId: UUID, position: Int, question: Question, given: String, rating: Rating,
                                 at time: Timestamp, ids: inout TimeOrderedIDs) throws -> Schedule {
        let correct = rating.rawValue >= Rating.good.rawValue
        return try write {
            try database.run("""
                INSERT INTO game_answers (game_id, position, word_id, word, expected, given, correct)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(gameId.storageText), .integer(Int64(position)), .text(question.word.id.storageText),
                      .text(question.word.word), .text(question.expected), .text(given), correct.sqlValue])
            try database.run("UPDATE games SET answered = answered + 1, correct = correct + ? WHERE id = ?",
                             [.integer(correct ? 1 : 0), .text(gameId.storageText)])
            return try recordReview(wordId: question.word.id, rating: rating, at: time, gameId: gameId, source: .game, ids: &ids)
        }
    }

    /// Marks a game finished.
    public func finishGame(id: UUID, at time: Timestamp) throws {
        try write {
            try database.run("UPDATE games SET finished_at = ? WHERE id = ?", [.integer(time.milliseconds), .text(id.storageText)])
        }
    }

    /// The latest games, newest first.
    public func recentGames(limit: Int) throws -> [GameRecord] {
        try guarded {
            let games = try database.query("""
                SELECT id, started_at, finished_at, mode, books, planned, answered, correct
                FROM games ORDER BY started_at DESC, id DESC LIMIT ?
                """, [.integer(Int64(limit))]) { row in
                GameRecord(id: try row.uuid(0, table: "games", name: "id"), startedAt: row.timestamp(1),
                           finishedAt: row.isNull(2) ? nil : row.timestamp(2), mode: row.text(3),
                           books: row.text(4).split(separator: "\n").map(String.init), planned: Int(row.int(5)),
                           answered: Int(row.int(6)), correct: Int(row.int(7)), wrongWords: [])
            }
            return try games.map { game in
                var game = game
                game.wrongWords = try database.query("""
                    SELECT word FROM game_answers WHERE game_id = ? AND correct = 0 ORDER BY position
                    """, [.text(game.id.storageText)]) { $0.text(0) }
                return game
            }
        }
    }

    /// Totals across every game.
    public func gameTotals() throws -> (games: Int, answered: Int, correct: Int) {
        try guarded {
            try database.first("SELECT count(*), coalesce(sum(answered), 0), coalesce(sum(correct), 0) FROM games") {
                (Int($0.int(0)), Int($0.int(1)), Int($0.int(2)))
            } ?? (0, 0, 0)
        }
    }
}

extension Store {
    /// Plans a game over the books as they are now, in time that does not grow with the books:
    /// over a random sample a few times larger than the game (the distractors' pool), joined
    /// for the oldest and due orders by the first playable words in that order (found by SQL,
    /// with a `LIMIT`). When that could not make the game the whole books could (too few
    /// words, all memorised, ...), it plans over the whole books, whose messages are exact.
    public func planGame(_ planner: GamePlanner, books: [Book]) throws -> (questions: [Question], note: String?) {
        let ids = books.map(\.id), names = books.map(\.name)
        var words = try sampleWordsWithDue(inBooks: ids, limit: max(200, planner.count * 8), seed: planner.seed)
        if planner.order != .random {
            var seen = Set(words.map(\.word.id))
            for first in try firstPlayableWords(planner, inBooks: ids) where seen.insert(first.word.id).inserted {
                words.append(first)
            }
        }
        // The quick plan from the words read so far; any reason it fails is met again, and thrown, below.
        if let planned = try? planner.plan(words: words, bookNames: names), planned.note == nil {
            return planned
        }
        return try planner.plan(words: wordsWithDue(inBooks: ids), bookNames: names)
    }

    /// The `planner.count` words that come first in the planner's order among the words it may
    /// ask: for due order the earliest due (walking the due index), then never-reviewed words
    /// by date; for oldest order by date.
    private func firstPlayableWords(_ planner: GamePlanner, inBooks bookIds: [UUID]) throws -> [(word: Word, due: Timestamp?)] {
        let marks = Array(repeating: "?", count: max(bookIds.count, 1)).joined(separator: ", ")
        var playable = " AND w.book IN \(Columns.bookKeys(marks))"
        if !planner.includeMemorized { playable += " AND w.memorized = 0" }
        if planner.mode != .flashcard { playable += " AND w.definition != ''" }
        let arguments = bookIds.map { SQLValue.text($0.storageText) } + [.integer(Int64(max(planner.count, 0)))]
        return try guarded {
            let byDate = """
                SELECT \(Columns.word), s.due FROM words w LEFT JOIN schedules s ON s.word = w.key
                WHERE 1\(playable)\(planner.order == .due ? " AND s.word IS NULL" : "") ORDER BY w.date, w.word LIMIT ?
                """
            guard planner.order == .due else { return try database.query(byDate, arguments) { try $0.decodeWordWithDue() } }
            let due = try database.query("""
                SELECT \(Columns.word), s.due FROM schedules s CROSS JOIN words w ON w.key = s.word
                WHERE 1\(playable) ORDER BY s.due, s.word LIMIT ?
                """, arguments) { try $0.decodeWordWithDue() }
            return due.count >= planner.count ? due : due + (try database.query(byDate, arguments) { try $0.decodeWordWithDue() })
        }
    }
}
