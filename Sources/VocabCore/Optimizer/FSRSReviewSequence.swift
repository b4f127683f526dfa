import FoundationEssentials

/// One word's review log as FSRS reads it: each review's rating and the whole days since the
/// review before (0 for the first, and for a review on the same day as the one before).
public struct FSRSReviewSequence: Sendable {
    public var ratings: [Int]
    public var days: [Double]
    /// When each review happened (milliseconds), to weigh recent reviews more in training.
    public var times: [Int64]

    public init(ratings: [Int], days: [Double], times: [Int64]) {
        self.ratings = ratings
        self.days = days
        self.times = times
    }

    /// A word's log (any order; sorted by time here), days counted as the scheduler counts
    /// them (whole periods of 24 hours).
    public init(log: [(rating: Rating, at: Timestamp)]) {
        let sorted = log.sorted { $0.at < $1.at }
        ratings = sorted.map { $0.rating.rawValue }
        times = sorted.map(\.at.milliseconds)
        days = sorted.indices.map { index in
            index == 0 ? 0 : Double(max(0, FSRSScheduler.wholeDays(from: sorted[index - 1].at, to: sorted[index].at)))
        }
    }

    public var count: Int { ratings.count }

    /// Whether review `index` is one FSRS predicts: a later day's review (not the first, not
    /// a same-day one).
    func isTarget(_ index: Int) -> Bool { index > 0 && days[index] >= 1 }

    /// The index of the first later-day review, if any.
    var firstLongTermIndex: Int? { days.indices.first { days[$0] >= 1 } }

    /// The reviews FSRS can predict in all of `sequences`: what the optimiser trains on.
    public static func targetCount(_ sequences: [FSRSReviewSequence]) -> Int {
        sequences.reduce(0) { total, sequence in total + sequence.days.indices.filter(sequence.isTarget).count }
    }
}
