import FoundationEssentials

/// A saved game, for the statistics.
public struct GameRecord: Sendable {
    public var id: UUID
    public var startedAt: Timestamp
    public var finishedAt: Timestamp?
    public var mode: String
    public var books: [String]
    public var planned: Int
    public var answered: Int
    public var correct: Int
    public var wrongWords: [String]

    public init(id: UUID, startedAt: Timestamp, finishedAt: Timestamp?, mode: String, books: [String], planned: Int,
                answered: Int, correct: Int, wrongWords: [String]) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.mode = mode
        self.books = books
        self.planned = planned
        self.answered = answered
        self.correct = correct
        self.wrongWords = wrongWords
    }
}
