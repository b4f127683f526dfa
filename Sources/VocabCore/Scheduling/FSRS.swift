import FoundationEssentials
import Glibc

/// How well a word was recalled: FSRS's four grades. Game answers map wrong → again, right → good.
public enum Rating: Int, CaseIterable, Sendable {
    case again = 1, hard, good, easy

    public init?(name: String) {
        switch name.lowercased() {
        case "again", "1": self = .again
        case "hard", "2": self = .hard
        case "good", "3": self = .good
        case "easy", "4": self = .easy
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .again: return "again"
        case .hard: return "hard"
        case .good: return "good"
        case .easy: return "easy"
        }
    }
}

/// Where a word stands in FSRS: still learning, in long-term review, or relearning after a lapse.
public enum MemoryState: Int, Sendable {
    case learning = 1, review, relearning

    public var name: String {
        switch self {
        case .learning: return "learning"
        case .review: return "review"
        case .relearning: return "relearning"
        }
    }
}

/// The scheduling state of a reviewed word: what FSRS knows after its review log.
public struct Schedule: Equatable, Sendable {
    public var state: MemoryState
    /// The learning or relearning step; nil in review.
    public var step: Int?
    public var stability: Double
    public var difficulty: Double
    public var due: Timestamp
    public var lastReview: Timestamp
    public var reviews: Int
    public var lapses: Int

    public init(state: MemoryState, step: Int?, stability: Double, difficulty: Double, due: Timestamp,
                lastReview: Timestamp, reviews: Int, lapses: Int) {
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.lastReview = lastReview
        self.reviews = reviews
        self.lapses = lapses
    }
}

/// The FSRS-6 scheduler with the published default parameters, matching PyPI's `fsrs` 6.x
/// `Scheduler(enable_fuzzing=False)` step for step (see Tests/VocabCoreTests/Data/fsrs-cases.json).
///
/// Pure: time comes in as an argument. No fuzz, so every device that replays the same review
/// log derives the same schedule (which is what lets logs merge by union).
public struct FSRSScheduler: Sendable {
    public static let defaultParameters: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]
    static let minimumStability = 0.001
    static let minimumDifficulty = 1.0
    static let maximumDifficulty = 10.0
    static let e = M_E

    public let parameters: [Double]
    public let desiredRetention: Double
    /// Learning steps in seconds (default 1 min, 10 min).
    public let learningSteps: [Int64]
    /// Relearning steps in seconds (default 10 min).
    public let relearningSteps: [Int64]
    /// The longest interval in days.
    public let maximumInterval: Int

    private let decay: Double
    private let factor: Double

    public init(parameters: [Double] = FSRSScheduler.defaultParameters, desiredRetention: Double = 0.9,
                learningSteps: [Int64] = [60, 600], relearningSteps: [Int64] = [600], maximumInterval: Int = 36_500) {
        self.parameters = parameters.count == 21 ? parameters : FSRSScheduler.defaultParameters
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
        decay = -self.parameters[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    /// The schedule after replaying `reviews` (any order; sorted by time here) from a new card.
    public func replay(_ reviews: [(rating: Rating, at: Timestamp)]) -> Schedule? {
        var schedule: Schedule?
        for review in reviews.sorted(by: { $0.at < $1.at }) {
            schedule = self.review(schedule, rating: review.rating, at: review.at)
        }
        return schedule
    }

    /// The probability of recalling the word at `time`.
    public func retrievability(_ schedule: Schedule, at time: Timestamp) -> Double {
        let days = max(0, wholeDays(from: schedule.lastReview, to: time))
        return pow(1 + factor * Double(days) / schedule.stability, decay)
    }

    /// The schedule after one review; `current` nil means a word never reviewed.
    public func review(_ current: Schedule?, rating: Rating, at time: Timestamp) -> Schedule {
        guard let current else { return firstReview(rating: rating, at: time) }
        var next = current
        next.reviews += 1
        let sameDay = wholeDays(from: current.lastReview, to: time) < 1
        let interval: Int64  // seconds

        switch current.state {
        case .learning, .relearning:
            let steps = current.state == .learning ? learningSteps : relearningSteps
            if sameDay {
                next.stability = shortTermStability(current.stability, rating)
            } else {
                next.stability = nextStability(current, rating, retrievability(current, at: time))
            }
            next.difficulty = nextDifficulty(current.difficulty, rating)
            interval = advanceSteps(&next, steps: steps, rating: rating)
        case .review:
            if sameDay {
                next.stability = shortTermStability(current.stability, rating)
            } else {
                next.stability = nextStability(current, rating, retrievability(current, at: time))
            }
            next.difficulty = nextDifficulty(current.difficulty, rating)
            if rating == .again {
                next.lapses += 1
                if relearningSteps.isEmpty {
                    interval = days(nextIntervalDays(next.stability))
                } else {
                    next.state = .relearning
                    next.step = 0
                    interval = relearningSteps[0]
                }
            } else {
                interval = days(nextIntervalDays(next.stability))
            }
        }
        next.due = time.adding(seconds: Double(interval))
        next.lastReview = time
        return next
    }

    private func firstReview(rating: Rating, at time: Timestamp) -> Schedule {
        var schedule = Schedule(state: .learning, step: 0, stability: initialStability(rating),
                                difficulty: clampDifficulty(initialDifficulty(rating)), due: time,
                                lastReview: time, reviews: 1, lapses: 0)
        let interval = advanceSteps(&schedule, steps: learningSteps, rating: rating)
        schedule.due = time.adding(seconds: Double(interval))
        return schedule
    }

    /// Moves through (re)learning steps; returns the next interval in seconds.
    private func advanceSteps(_ schedule: inout Schedule, steps: [Int64], rating: Rating) -> Int64 {
        let step = schedule.step ?? 0
        if steps.isEmpty || (step >= steps.count && rating != .again) {
            return graduate(&schedule)
        }
        switch rating {
        case .again:
            schedule.step = 0
            return steps[0]
        case .hard:
            if step == 0 && steps.count == 1 { return steps[0] * 3 / 2 }
            if step == 0 { return (steps[0] + steps[1]) / 2 }
            return steps[step]
        case .good:
            if step + 1 == steps.count { return graduate(&schedule) }
            schedule.step = step + 1
            return steps[step + 1]
        case .easy:
            return graduate(&schedule)
        }
    }

    private func graduate(_ schedule: inout Schedule) -> Int64 {
        schedule.state = .review
        schedule.step = nil
        return days(nextIntervalDays(schedule.stability))
    }

    private func days(_ count: Int) -> Int64 { Int64(count) * 86_400 }

    private func wholeDays(from start: Timestamp, to end: Timestamp) -> Int64 {
        Self.wholeDays(from: start, to: end)
    }

    /// Whole days between two times, floored like Python's `timedelta.days`.
    static func wholeDays(from start: Timestamp, to end: Timestamp) -> Int64 {
        let milliseconds = end.milliseconds - start.milliseconds
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    // MARK: The FSRS-6 formulas

    private func clampStability(_ value: Double) -> Double { max(value, FSRSScheduler.minimumStability) }

    private func clampDifficulty(_ value: Double) -> Double {
        min(max(value, FSRSScheduler.minimumDifficulty), FSRSScheduler.maximumDifficulty)
    }

    private func initialStability(_ rating: Rating) -> Double {
        clampStability(parameters[rating.rawValue - 1])
    }

    private func initialDifficulty(_ rating: Rating) -> Double {
        parameters[4] - pow(FSRSScheduler.e, parameters[5] * Double(rating.rawValue - 1)) + 1
    }

    private func nextIntervalDays(_ stability: Double) -> Int {
        let raw = (stability / factor) * (pow(desiredRetention, 1 / decay) - 1)
        let rounded = Int(raw.rounded(.toNearestOrEven))  // Python's round()
        return min(max(rounded, 1), maximumInterval)
    }

    private func shortTermStability(_ stability: Double, _ rating: Rating) -> Double {
        var increase = pow(FSRSScheduler.e, parameters[17] * (Double(rating.rawValue) - 3 + parameters[18]))
            * pow(stability, -parameters[19])
        if rating != .again { increase = max(increase, 1.0) }
        return clampStability(stability * increase)
    }

    private func nextDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        let easyDifficulty = initialDifficulty(.easy)
        let delta = -(parameters[6] * (Double(rating.rawValue) - 3))
        let damped = difficulty + (10.0 - difficulty) * delta / 9.0
        return clampDifficulty(parameters[7] * easyDifficulty + (1 - parameters[7]) * damped)
    }

    private func nextStability(_ schedule: Schedule, _ rating: Rating, _ retrievability: Double) -> Double {
        let d = schedule.difficulty, s = schedule.stability
        if rating == .again {
            let longTerm = parameters[11] * pow(d, -parameters[12]) * (pow(s + 1, parameters[13]) - 1)
                * pow(FSRSScheduler.e, (1 - retrievability) * parameters[14])
            let shortTerm = s / pow(FSRSScheduler.e, parameters[17] * parameters[18])
            return clampStability(min(longTerm, shortTerm))
        }
        let hardPenalty = rating == .hard ? parameters[15] : 1
        let easyBonus = rating == .easy ? parameters[16] : 1
        return clampStability(s * (1 + pow(FSRSScheduler.e, parameters[8]) * (11 - d) * pow(s, -parameters[9])
            * (pow(FSRSScheduler.e, (1 - retrievability) * parameters[10]) - 1) * hardPenalty * easyBonus))
    }
}
