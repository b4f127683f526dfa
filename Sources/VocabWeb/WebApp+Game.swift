import FoundationEssentials
import VocabCore
import VocabSessions
import VocabStore

/// The test game: set up (books, mode, count), then each answer judged by the game session on
/// the server (a tap is the option's place, typing is text, a flashcard is graded), then the
/// score and the words to review. The page gets the questions, never their answers.
extension WebApp {
    /// `{"books": [ids] (none: all), "mode": "choice"|"reverse"|"spelling"|"flashcard", "count": 3...100}`.
    func startGame(_ object: [String: Any], device: String) throws -> [String: Any] {
        guard let mode = GameMode(rawValue: (object["mode"] as? String) ?? "choice") else {
            throw WebProblem(status: 422, message: "The mode must be choice, reverse, spelling or flashcard.", field: "mode")
        }
        let count = (object["count"] as? Int) ?? 10
        guard (1...100).contains(count) else { throw WebProblem(status: 422, message: "A game has 1 to 100 questions.", field: "count") }
        guard let bookTexts = (object["books"] ?? [String]()) as? [String], bookTexts.count <= 1_000 else {
            throw WebProblem(status: 422, message: "\"books\" must be a list of book ids.", field: "books")
        }
        let bookIds = try bookTexts.map { try uuid($0) }
        let configuration = GameConfiguration(mode: mode, count: count)
        let clock = self.clock
        // The game keeps the writer's store: each of its answers runs inside a write, as the window's do on its worker.
        let game = try pool.write { store -> GameSession in
            try GameSession(store: store, bookIds: bookIds, configuration: configuration, clock: clock)
        }.value
        for dropped in games.add(game, device: device) { _ = try? pool.write { _ in try dropped.finish() } }  // its answers are saved already
        return ["id": game.id.lowercaseText, "mode": mode.rawValue, "planned": game.questions.count,
                "shorter": game.questions.count < count,
                "questions": game.questions.map { question -> [String: Any] in
                    ["prompt": question.prompt, "hint": question.hint ?? JSONValue.null, "options": question.options]
                }]
    }

    /// `answer` (`{"choice": n}` from 0, `{"typed": text}`, or `{"rating": name}` for a flashcard),
    /// `finish` (the score and the words to review), `memorize` (mark the offered words memorised).
    func playGame(_ id: UUID, step: String, _ object: [String: Any], device: String) throws -> [String: Any] {
        guard let game = games.game(id, device: device) else { throw WebProblem(status: 404, message: "That game is over or was never started here.") }
        switch step {
        case "answer": return try answer(game, object)
        case "finish":
            let summary = try pool.write { _ in try game.finish() }.value
            let candidates = try pool.write { _ in try game.memorizeCandidates() }.value
            return ["answered": summary.answered, "right": summary.right, "planned": summary.planned, "percent": summary.percent,
                    "review": summary.wrongWords.map { Self.word($0, due: nil) }, "memorize": candidates.map { Self.word($0, due: nil) }]
        case "memorize":
            let words = try pool.write { _ in try game.memorizeCandidates() }.value
            try pool.write { _ in try game.memorize(words) }
            games.remove(id)
            return ["memorized": words.count]
        default:
            throw WebProblem(status: 404, message: "A game has no step \"\(step)\".")
        }
    }

    private func answer(_ game: GameSession, _ object: [String: Any]) throws -> [String: Any] {
        let verdict: GameVerdict? = try pool.write { _ -> GameVerdict? in
            if let choice = object["choice"] as? Int { return try game.answer(.choice(choice)) }
            if let typed = object["typed"] as? String { return try game.answer(.typed(String(typed.prefix(200)))) }
            if let name = object["rating"] as? String, let rating = Rating(name: name) { return try game.grade(rating) }
            throw WebProblem(status: 422, message: "An answer is a choice, typed text or a rating.", field: "answer")
        }.value
        guard let verdict else {
            throw WebProblem(status: 422, message: "That is not one of the possible answers.", field: "answer")
        }
        let answered = game.index
        game.advance()
        return ["correct": verdict.correct, "answer": verdict.answer, "rating": verdict.rating.name, "question": answered,
                "correctOption": game.questions[answered].correctOption ?? JSONValue.null, "done": game.current == nil]
    }
}
