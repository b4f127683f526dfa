import Foundation

/// How well a set of parameters predicts a review log, by the FSRS benchmark's two measures,
/// over every later-day review (each predicted from the reviews before it).
public struct FSRSEvaluation: Equatable, Sendable {
    /// The mean binary cross-entropy of the predicted recall (lower is better).
    public var logLoss: Double
    /// The root mean square difference between predicted and actual recall within bins of
    /// interval, review count and lapses, weighted by each bin's size (lower is better).
    public var rmseBins: Double
    /// How many reviews were predicted.
    public var reviews: Int

    /// Evaluates `parameters` on `sequences`.
    public init(parameters: [Double], sequences: [FSRSReviewSequence]) {
        let model = FSRSMemoryModel(parameters)
        var loss = 0.0, count = 0
        var bins: [Bin: (predicted: Double, actual: Double, count: Double)] = [:]
        for sequence in sequences {
            var memory: FSRSMemory<Double>?
            var longTerm = 0, lapses = 0
            for review in 0..<sequence.count {
                let rating = sequence.ratings[review], days = sequence.days[review]
                if sequence.isTarget(review), let memory {
                    let p = min(max(model.retrievability(days: days, stability: memory.stability), 1e-7), 1 - 1e-7)
                    let recalled = rating > 1
                    loss -= Foundation.log(recalled ? p : 1 - p)
                    count += 1
                    let bin = Bin(days: days, length: longTerm + 2, lapses: lapses)
                    bins[bin, default: (0, 0, 0)].predicted += p
                    bins[bin, default: (0, 0, 0)].actual += recalled ? 1 : 0
                    bins[bin, default: (0, 0, 0)].count += 1
                }
                if days >= 1 {
                    longTerm += 1
                    if rating == 1 { lapses += 1 }
                }
                memory = model.step(memory, rating: rating, days: days)
            }
        }
        logLoss = count == 0 ? 0 : loss / Double(count)
        let squares = bins.values.reduce(0.0) { total, bin in
            let difference = bin.predicted / bin.count - bin.actual / bin.count
            return total + difference * difference * bin.count
        }
        rmseBins = count == 0 ? 0 : (squares / Double(count)).squareRoot()
        reviews = count
    }

    /// The benchmark's bins: interval, number of later-day reviews (this one included, plus
    /// one) and lapses before, each on a logarithmic scale.
    private struct Bin: Hashable {
        var days: Int
        var length: Int
        var lapses: Int

        init(days: Double, length: Int, lapses: Int) {
            func scaled(_ value: Double, _ base: Double, _ scale: Double) -> Double {
                scale * Foundation.pow(base, (Foundation.log(value) / Foundation.log(base)).rounded(.down))
            }
            self.days = Int((scaled(days, 3.62, 2.48) * 100).rounded())
            self.length = Int(scaled(Double(length), 1.89, 1.99).rounded())
            self.lapses = lapses == 0 ? 0 : Int(scaled(Double(lapses), 1.73, 1.65).rounded())
        }
    }
}
