import FoundationEssentials
import Glibc

/// A synthetic learner for testing the optimiser on data no one tuned to: their memory follows
/// the FSRS-6 model with parameters of their own, while they study with Vocab's scheduler on
/// the default parameters, as a new user does. Each word is learnt on its day, reviewed when
/// due (often late: a day or a few), and recalled with the probability their own memory gives.
public struct SimulatedLearner: Sendable {
    /// The learner's true parameters.
    public let parameters: [Double]

    public init(parameters: [Double]) {
        self.parameters = parameters
    }

    /// A learner drawn around the defaults: each parameter moved by a normal draw of its
    /// published spread (first stabilities on a log scale, kept in order), inside its limits.
    public static func random(_ random: inout SeededRandom) -> SimulatedLearner {
        let defaults = FSRSScheduler.defaultParameters
        var drawn = defaults.indices.map { index -> Double in
            index < 4 ? defaults[index] * Glibc.exp(0.8 * random.normal())
                      : defaults[index] + 0.6 * FSRSParameterBounds.spread[index] * random.normal()
        }
        drawn.replaceSubrange(0..<4, with: drawn[0..<4].sorted())
        return SimulatedLearner(parameters: FSRSParameterBounds.clipped(drawn))
    }

    /// The review logs of `words` words, `newPerDay` learnt each day from `start`, reviewed
    /// until `days` days after the start.
    public func reviewLogs(words: Int, newPerDay: Int, days: Int, start: Timestamp,
                           random: inout SeededRandom) -> [[(rating: Rating, at: Timestamp)]] {
        let scheduler = FSRSScheduler()
        let truth = FSRSMemoryModel(parameters)
        let end = start.adding(seconds: Double(days) * 86_400)
        return (0..<words).map { word in
            var time = start.adding(seconds: Double(word / max(newPerDay, 1)) * 86_400 + random.uniform() * 43_200)
            var log: [(rating: Rating, at: Timestamp)] = []
            var schedule: Schedule?
            var memory: FSRSMemory<Double>?
            while time < end {
                let rating: Rating
                if let memory, let last = log.last {
                    let elapsed = Double(time.milliseconds - last.at.milliseconds) / 86_400_000
                    let recalled = random.uniform() < truth.retrievability(days: elapsed, stability: memory.stability)
                    rating = recalled ? Self.pick([(.hard, 0.15), (.good, 0.75), (.easy, 0.10)], &random) : .again
                } else {
                    rating = Self.pick([(.again, 0.2), (.hard, 0.15), (.good, 0.55), (.easy, 0.10)], &random)
                }
                let days = log.last.map { Double(max(0, FSRSScheduler.wholeDays(from: $0.at, to: time))) } ?? 0
                memory = truth.step(memory, rating: rating.rawValue, days: days)
                log.append((rating, time))
                let next = scheduler.review(schedule, rating: rating, at: time)
                schedule = next
                time = next.due
                // Reviews of long intervals come late, often by a day or more.
                if next.state == .review {
                    let draw = random.uniform()
                    time = time.adding(seconds: draw < 0.6 ? random.uniform() * 7200 : (1 + random.uniform() * 4) * 86_400)
                }
            }
            return log
        }
    }

    private static func pick(_ choices: [(Rating, Double)], _ random: inout SeededRandom) -> Rating {
        var draw = random.uniform()
        for (rating, share) in choices {
            if draw < share { return rating }
            draw -= share
        }
        return choices.last?.0 ?? .good
    }
}

extension SeededRandom {
    /// A number in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A standard normal draw (Box–Muller).
    public mutating func normal() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * Glibc.log(u)).squareRoot() * Glibc.cos(2 * Double.pi * v)
    }
}
