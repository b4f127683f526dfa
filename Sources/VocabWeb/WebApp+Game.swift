import FoundationEssentials
import VocabCloudAPI
import VocabCore
import VocabSessions

/// The test game: set up (books, mode, count), then each answer judged by the game session on
/// the server (a tap is the option's place, typing is text, a flashcard is graded), then the
/// score and the words to review. The page gets the questions, never their answers.
extension WebApp {
    /// `{"books": [ids] (none: all), "mode": "choice"|"reverse"|"spelling"|"flashcard", "count": GamePlanner.countRange}`.
    func startGame(_ request: GameRequest, device: String) throws -> GameStarted {
        guard let mode = GameMode(rawValue: request.mode ?? "choice") else {
            throw Refusal.notAGameMode
        }
        let count = request.count ?? GamePlanner.defaultCount  // its bounds: GameSession's
        let bookTexts = request.books ?? []
        guard bookTexts.count <= 1_000 else {
            throw Refusal.notABookIdList
        }
        let bookIds = try bookTexts.map { try uuid($0) }
        let configuration = GameConfiguration(mode: mode, count: count)
        let clock = self.clock
        // Each step of the game runs inside a write, in the writer of that moment (the game keeps none).
        let game: GameSession
        do {
            game = try pool.write { library in try GameSession(library: library, bookIds: bookIds, configuration: configuration, clock: clock) }
        } catch let error as GameSetupError where error == .countOutOfRange(count, GamePlanner.countRange) {
            throw WebProblem(status: 422, cause: error, field: "count")  // the session's refusal, on the page's field
        }
        for dropped in games.add(game, device: device) { _ = try? pool.write { library in try dropped.finish(in: library) } }  // its answers are saved already
        return GameStarted(id: game.id.lowercaseText, mode: mode.rawValue, planned: game.questions.count, shorter: game.questions.count < count,
                           questions: game.questions.map { QuestionRow(prompt: $0.prompt, hint: $0.hint, options: $0.options) })
    }

    /// The game `id` of this device, or a refusal.
    private func game(_ id: UUID, device: String) throws -> GameSession {
        guard let game = games.game(id, device: device) else { throw Refusal.noSuchGame }
        return game
    }

    /// The score and the words to review (and to offer to mark memorised).
    func finishGame(_ id: UUID, device: String) throws -> GameScoreAnswer {
        let game = try game(id, device: device)
        let (summary, candidates) = try pool.write { library in (try game.finish(in: library), try game.memorizeCandidates(in: library)) }
        return GameScoreAnswer(answered: summary.answered, right: summary.right, planned: summary.planned, percent: summary.percent,
                               review: summary.wrongWords.map { WordRow($0, due: nil) }, memorize: candidates.map { WordRow($0, due: nil) })
    }

    /// Marks the words the game offers memorised, and ends it.
    func memorizeGame(_ id: UUID, device: String) throws -> MemorizedAnswer {
        let game = try game(id, device: device)
        let words = try pool.write { library in
            let words = try game.memorizeCandidates(in: library)
            try game.memorize(words, in: library)
            return words
        }
        games.remove(id)
        return MemorizedAnswer(memorized: words.count)
    }

    /// One answer: a tap (the option's place, from 0), typed text, or a flashcard's rating.
    func answerGame(_ id: UUID, _ given: GameAnswerRequest, device: String) throws -> GameVerdictAnswer {
        let game = try game(id, device: device)
        let verdict: GameVerdict? = try pool.write { library -> GameVerdict? in
            if let choice = given.choice { return try game.answer(.choice(choice), in: library) }
            if let typed = given.typed { return try game.answer(.typed(String(typed.prefix(200))), in: library) }
            if let name = given.rating, let rating = Rating(name: name) { return try game.grade(rating, in: library) }
            throw Refusal.notAGameAnswerForm
        }
        guard let verdict else {
            throw Refusal.notAPossibleAnswer
        }
        let answered = game.index
        game.advance()
        return GameVerdictAnswer(correct: verdict.correct, answer: verdict.answer, rating: verdict.rating.name, question: answered,
                                 correctOption: game.questions[answered].correctOption, done: game.current == nil)
    }
}
