import FoundationEssentials
import Glibc

/// A word's memory in the FSRS-6 model: how long it lasts (stability, days) and how hard it is.
struct FSRSMemory<Number: FSRSNumber> {
    var stability: Number
    var difficulty: Number
}

/// The FSRS-6 memory model in the form the reference optimiser trains (fsrs-rs' `Model`):
/// reviews are (rating, whole days since the previous review); a review on the same day as
/// the previous one changes only the short-term stability. Generic over the number type, so
/// the same formulas predict (`Double`) and train (`DualNumber`).
struct FSRSMemoryModel<Number: FSRSNumber> {
    let w: [Number]
    private let decay: Number
    private let factor: Number

    init(_ parameters: [Number]) {
        w = parameters
        decay = 0 - parameters[20]
        factor = (Number(Glibc.log(0.9)) / decay).exponential() - 1
    }

    /// The probability of recall `days` after the last review.
    func retrievability(days: Double, stability: Number) -> Number {
        (factor * days / stability + 1).power(decay)
    }

    /// The memory after a review with `rating` (1–4) `days` after the previous one (nil: the
    /// first review).
    func step(_ memory: FSRSMemory<Number>?, rating: Int, days: Double) -> FSRSMemory<Number> {
        guard let memory else {
            return FSRSMemory(stability: w[rating - 1].clamped(FSRSParameterBounds.minimumStability, FSRSParameterBounds.maximumStability),
                              difficulty: initialDifficulty(Double(rating)).clamped(1, 10))
        }
        let s = memory.stability, d = memory.difficulty
        let stability: Number
        if days == 0 {
            stability = shortTermStability(s, rating: rating)
        } else {
            let r = retrievability(days: days, stability: s)
            stability = rating == 1 ? stabilityAfterLapse(s, d, r) : stabilityAfterRecall(s, d, r, rating: rating)
        }
        return FSRSMemory(stability: stability.clamped(FSRSParameterBounds.minimumStability, FSRSParameterBounds.maximumStability),
                          difficulty: nextDifficulty(d, rating: rating))
    }

    private func initialDifficulty(_ rating: Double) -> Number {
        w[4] - (w[5] * (rating - 1)).exponential() + 1
    }

    private func nextDifficulty(_ difficulty: Number, rating: Int) -> Number {
        let delta = w[6] * Double(3 - rating)
        let damped = difficulty + (10 - difficulty) * delta / Number(9)
        return (w[7] * initialDifficulty(4) + (1 - w[7]) * damped).clamped(1, 10)
    }

    private func shortTermStability(_ s: Number, rating: Int) -> Number {
        var increase = (w[17] * (w[18] + Double(rating - 3))).exponential() * s.power(0 - w[19])
        if rating >= 2, increase.value < 1 { increase = Number(1) }
        return s * increase
    }

    private func stabilityAfterRecall(_ s: Number, _ d: Number, _ r: Number, rating: Int) -> Number {
        var growth = w[8].exponential() * (11 - d) * s.power(0 - w[9]) * (((1 - r) * w[10]).exponential() - 1)
        if rating == 2 { growth = growth * w[15] }
        if rating == 4 { growth = growth * w[16] }
        return s * (growth + 1)
    }

    private func stabilityAfterLapse(_ s: Number, _ d: Number, _ r: Number) -> Number {
        let longTerm = w[11] * d.power(0 - w[12]) * ((s + 1).power(w[13]) - 1) * ((1 - r) * w[14]).exponential()
        let shortTerm = s / (w[17] * w[18]).exponential()
        return longTerm.value < shortTerm.value ? longTerm : shortTerm
    }
}
