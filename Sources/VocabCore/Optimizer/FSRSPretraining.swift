import FoundationEssentials
import Glibc

/// The first stability of each first rating, fitted before the rest ("pre-training", as the
/// reference optimiser does): for the words that began with a rating, how often their first
/// later-day review was recalled after each interval, smoothed towards the average recall,
/// gives the stability whose forgetting curve fits best (a ternary search, lightly pulled
/// towards the default). Ratings no word began with are filled in from the others.
enum FSRSPretraining {
    /// The four first stabilities, and how many words began with each rating.
    static func initialStabilities(_ firstIntervals: [Int: [(days: Double, recalled: Bool)]],
                                   averageRecall: Double) -> (stabilities: [Double], counts: [Int: Int]) {
        var fitted: [Int: Double] = [:]
        var counts: [Int: Int] = [:]
        for (rating, intervals) in firstIntervals where (1...4).contains(rating) && !intervals.isEmpty {
            counts[rating] = intervals.count
            fitted[rating] = search(intervals, averageRecall: averageRecall, around: FSRSScheduler.defaultParameters[rating - 1])
        }
        return (smoothAndFill(fitted, counts: counts) ?? Array(FSRSScheduler.defaultParameters[0..<4]), counts)
    }

    private static func search(_ intervals: [(days: Double, recalled: Bool)], averageRecall: Double, around prior: Double) -> Double {
        var groups: [Double: (recalled: Double, count: Double)] = [:]
        for interval in intervals {
            groups[interval.days, default: (0, 0)].recalled += interval.recalled ? 1 : 0
            groups[interval.days, default: (0, 0)].count += 1
        }
        let points = groups.sorted { $0.key < $1.key }.map { days, group in
            // Laplace smoothing towards the average recall: (recalled + average) / (count + 1).
            (days: days, recall: (group.recalled + averageRecall) / (group.count + 1), count: group.count)
        }
        let decay = -FSRSScheduler.defaultParameters[20]
        let factor = Glibc.pow(0.9, 1 / decay) - 1
        func loss(_ stability: Double) -> Double {
            var total = abs(stability - prior) / 16
            for point in points {
                let predicted = Glibc.pow(point.days / stability * factor + 1, decay)
                total -= (point.recall * Glibc.log(predicted) + (1 - point.recall) * Glibc.log(1 - predicted)) * point.count
            }
            return total
        }
        var low = FSRSParameterBounds.minimumStability, high = FSRSParameterBounds.maximumInitialStability
        var best = prior
        for _ in 0..<1000 where high - low > Double.ulpOfOne {
            let third1 = low + (high - low) / 3, third2 = high - (high - low) / 3
            if loss(third1) < loss(third2) { high = third2 } else { low = third1 }
            best = (low + high) / 2
        }
        return best
    }

    /// Makes the first stabilities grow with the rating (where two disagree, the rating more
    /// words began with wins) and fills in missing ratings from the known ones by the
    /// reference's geometric rules; nil when no rating is known.
    static func smoothAndFill(_ fitted: [Int: Double], counts: [Int: Int]) -> [Double]? {
        var known = fitted.filter { counts[$0.key] != nil }
        for (small, big) in [(1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)] {
            guard let smallValue = known[small], let bigValue = known[big], smallValue > bigValue else { continue }
            if (counts[small] ?? 0) > (counts[big] ?? 0) { known[big] = smallValue } else { known[small] = bigValue }
        }
        let w1 = 0.41, w2 = 0.54
        func p(_ base: Double, _ exponent: Double) -> Double { Glibc.pow(base, exponent) }
        var s: [Double?] = [nil, known[1], known[2], known[3], known[4]]
        switch known.count {
        case 0:
            return nil
        case 1:
            guard let (rating, value) = known.first else { return nil }
            let scale = value / FSRSScheduler.defaultParameters[rating - 1]
            s = [nil] + FSRSScheduler.defaultParameters[0..<4].map { $0 * scale }.sorted()
        case 2:
            switch (s[1], s[2], s[3], s[4]) {
            case (nil, nil, let r3?, let r4?):
                let r2 = p(r3, 1 / (1 - w2)) * p(r4, 1 - 1 / (1 - w2))
                s[2] = r2
                s[1] = p(r2, 1 / w1) * p(r3, 1 - 1 / w1)
            case (nil, let r2?, nil, let r4?):
                let r3 = p(r2, 1 - w2) * p(r4, w2)
                s[3] = r3
                s[1] = p(r2, 1 / w1) * p(r3, 1 - 1 / w1)
            case (nil, let r2?, let r3?, nil):
                s[4] = p(r2, 1 - 1 / w2) * p(r3, 1 / w2)
                s[1] = p(r2, 1 / w1) * p(r3, 1 - 1 / w1)
            case (let r1?, nil, nil, let r4?):
                let mix = w1 + w2 - w1 * w2
                s[2] = p(r1, w1 / mix) * p(r4, 1 - w1 / mix)
                s[3] = p(r1, 1 - w2 / mix) * p(r4, w2 / mix)
            case (let r1?, nil, let r3?, nil):
                let r2 = p(r1, w1) * p(r3, 1 - w1)
                s[2] = r2
                s[4] = p(r2, 1 - 1 / w2) * p(r3, 1 / w2)
            case (let r1?, let r2?, nil, nil):
                let r3 = p(r1, 1 - 1 / (1 - w1)) * p(r2, 1 / (1 - w1))
                s[3] = r3
                s[4] = p(r2, 1 - 1 / w2) * p(r3, 1 / w2)
            default:
                break
            }
        case 3:
            switch (s[1], s[2], s[3], s[4]) {
            case (nil, let r2?, let r3?, _): s[1] = p(r2, 1 / w1) * p(r3, 1 - 1 / w1)
            case (let r1?, nil, let r3?, _): s[2] = p(r1, w1) * p(r3, 1 - w1)
            case (_, let r2?, nil, let r4?): s[3] = p(r2, 1 - w2) * p(r4, w2)
            case (_, let r2?, let r3?, nil): s[4] = p(r2, 1 - 1 / w2) * p(r3, 1 / w2)
            default: break
            }
        default:
            break
        }
        let filled = s.compactMap { $0 }
        guard filled.count == 4 else { return nil }
        return filled.map { min(max($0, FSRSParameterBounds.minimumStability), FSRSParameterBounds.maximumInitialStability) }
    }
}
