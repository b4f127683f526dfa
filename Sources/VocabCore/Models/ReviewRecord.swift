import FoundationEssentials

/// One entry of the review log, as it travels between devices.
public struct ReviewRecord: Sendable, Equatable {
    public var id: UUID
    public var wordId: UUID
    public var reviewedAt: Timestamp
    public var rating: Rating
    public var durationMs: Int64?
    public var gameId: UUID?
    public var source: ReviewSource

    public init(id: UUID, wordId: UUID, reviewedAt: Timestamp, rating: Rating, durationMs: Int64? = nil,
                gameId: UUID? = nil, source: ReviewSource) {
        self.id = id
        self.wordId = wordId
        self.reviewedAt = reviewedAt
        self.rating = rating
        self.durationMs = durationMs
        self.gameId = gameId
        self.source = source
    }
}

/// Where a review came from.
public enum ReviewSource: String, Sendable {
    case study, game, review
}

/// A word with its scheduling state (nil when never reviewed).
public struct ScheduledWord: Sendable {
    public var word: Word
    public var schedule: Schedule?

    public init(word: Word, schedule: Schedule?) {
        self.word = word
        self.schedule = schedule
    }
}
