import FoundationEssentials
import Glibc

/// How well a set of parameters predicts a review log, by the FSRS benchmark's two measures,
/// over every later-day review (each predicted from the reviews before it).
public struct FSRSEvaluation: Equatable, Sendable {
    /// How much each predicted review counts.
    public enum Weighting: Sendable {
        /// Every review the same (the FSRS benchmark's measure).
        case equal
        /// Recent reviews more, as fsrs-rs' own `evaluate` (what Anki's "Evaluate" shows):
        /// items in time order, the i-th of n weighing 0.25 + 0.75 · (i / (n − 1))³; a bin's
        /// squared error counts by its items' weights.
        case recency
    }

    /// The mean binary cross-entropy of the predicted recall (lower is better).
    public var logLoss: Double
    /// The root mean square difference between predicted and actual recall within bins of
    /// interval, review count and lapses, weighted by each bin's size (lower is better).
    public var rmseBins: Double
    /// How many reviews were predicted.
    public var reviews: Int

    /// Evaluates `parameters` on `sequences`.
    public init(parameters: [Double], sequences: [FSRSReviewSequence], weighting: Weighting = .equal) {
        let items = Self.predictions(FSRSMemoryModel(parameters), sequences)
        var weights = [Double](repeating: 1, count: items.count)
        if weighting == .recency {
            let order = items.indices.sorted { (items[$0].time, $0) < (items[$1].time, $1) }
            let last = Double(max(items.count - 1, 1))
            for (rank, index) in order.enumerated() { weights[index] = 0.25 + 0.75 * Glibc.pow(Double(rank) / last, 3) }
        }
        var loss = 0.0, totalWeight = 0.0
        var bins: [Bin: (predicted: Double, actual: Double, count: Double, weight: Double)] = [:]
        for (item, weight) in zip(items, weights) {
            loss -= weight * Glibc.log(item.recalled ? item.p : 1 - item.p)
            totalWeight += weight
            bins[item.bin, default: (0, 0, 0, 0)].predicted += item.p
            bins[item.bin, default: (0, 0, 0, 0)].actual += item.recalled ? 1 : 0
            bins[item.bin, default: (0, 0, 0, 0)].count += 1
            bins[item.bin, default: (0, 0, 0, 0)].weight += weight
        }
        logLoss = items.isEmpty ? 0 : loss / totalWeight
        let squares = bins.values.reduce(0.0) { total, bin in
            let difference = bin.predicted / bin.count - bin.actual / bin.count
            return total + difference * difference * bin.weight
        }
        rmseBins = items.isEmpty ? 0 : (squares / totalWeight).squareRoot()
        reviews = items.count
    }

    /// One predicted review: the recall predicted, whether it came, its bin, and its time
    /// (ties keep the order of the sequences and their reviews).
    private struct Prediction {
        var p: Double
        var recalled: Bool
        var bin: Bin
        var time: Int64
    }

    /// Every later-day review of `sequences`, each predicted from the reviews before it.
    private static func predictions(_ model: FSRSMemoryModel<Double>, _ sequences: [FSRSReviewSequence]) -> [Prediction] {
        var items: [Prediction] = []
        for sequence in sequences {
            var memory: FSRSMemory<Double>?
            var longTerm = 0, lapses = 0
            for review in 0..<sequence.count {
                let rating = sequence.ratings[review], days = sequence.days[review]
                if sequence.isTarget(review), let memory {
                    let p = min(max(model.retrievability(days: days, stability: memory.stability), 1e-7), 1 - 1e-7)
                    items.append(Prediction(p: p, recalled: rating > 1, bin: Bin(days: days, length: longTerm + 2, lapses: lapses),
                                            time: review < sequence.times.count ? sequence.times[review] : 0))
                }
                if days >= 1 {
                    longTerm += 1
                    if rating == 1 { lapses += 1 }
                }
                memory = model.step(memory, rating: rating, days: days)
            }
        }
        return items
    }

    /// The benchmark's bins: interval, number of later-day reviews (this one included, plus
    /// one) and lapses before, each on a logarithmic scale.
    private struct Bin: Hashable {
        var days: Int
        var length: Int
        var lapses: Int

        init(days: Double, length: Int, lapses: Int) {
            func scaled(_ value: Double, _ base: Double, _ scale: Double) -> Double {
                scale * Glibc.pow(base, (Glibc.log(value) / Glibc.log(base)).rounded(.down))
            }
            self.days = Int((scaled(days, 3.62, 2.48) * 100).rounded())
            self.length = Int(scaled(Double(length), 1.89, 1.99).rounded())
            self.lapses = lapses == 0 ? 0 : Int(scaled(Double(lapses), 1.73, 1.65).rounded())
        }
    }
}
