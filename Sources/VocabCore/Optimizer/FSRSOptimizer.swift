import FoundationEssentials
import Glibc

/// How far an optimisation has come.
public struct FSRSOptimizerProgress: Sendable {
    public var epoch: Int
    public var epochs: Int
    /// Training items done in this epoch, of `items`.
    public var itemsDone: Int
    public var items: Int

    /// The share of the whole optimisation done, 0...1.
    public var fraction: Double {
        guard epochs > 0, items > 0 else { return 1 }
        return (Double(epoch - 1) + Double(itemsDone) / Double(items)) / Double(epochs)
    }
}

/// Why an optimisation gave no parameters.
public enum FSRSOptimizerError: Error, Equatable {
    case cancelled
}

/// Fits the 21 FSRS-6 parameters to review logs by the method of the reference optimiser
/// (fsrs-rs, which Anki's "Optimize" runs):
/// 1. the training set: every later-day review, outliers left out, recent ones weighted more
///    (`FSRSTrainingSet`);
/// 2. pre-training: the four first stabilities fitted on each word's first later-day review
///    (`FSRSPretraining`);
/// 3. Adam (β 0.9/0.999, ε 1e-8) on the weighted binary cross-entropy of the predicted
///    recall, plus an L2 pull towards the starting parameters scaled by each one's spread,
///    for a fixed number of epochs over shuffled batches, the learning rate on a cosine
///    schedule, the parameters clipped to their limits after every step; the epoch with the
///    lowest training loss wins, and its first stabilities are smoothed as in step 2.
///
/// Gradients are exact, by forward-mode automatic differentiation (`DualNumber`), and a
/// word's reviews are run through the model once per batch: each of its items reads the
/// memory its history left (the same loss and gradient as running every item on its own).
/// Deterministic: batches are shuffled by a seeded generator.
public struct FSRSOptimizer: Sendable {
    public var epochs = 5
    public var batchSize = 512
    public var learningRate = 0.04
    public var seed: UInt64 = 2023
    /// Items longer than this many reviews are not trained on.
    public var maximumLength = 256
    /// The strength of the pull towards the starting parameters.
    public var regularisation = 1.0
    /// Relearning steps of the scheduler (limits w17 and w18).
    public var relearningSteps = 1

    public init() {}

    /// The fitted parameters for `sequences`: the defaults when fewer than 8 items can be
    /// trained on, only the first stabilities fitted when fewer than 64.
    public func fit(_ sequences: [FSRSReviewSequence], progress: ((FSRSOptimizerProgress) -> Void)? = nil,
                    isCancelled: (() -> Bool)? = nil) throws -> [Double] {
        let training = FSRSTrainingSet(sequences, maximumLength: maximumLength)
        guard training.itemCount >= 8 else { return FSRSScheduler.defaultParameters }
        let (initial, counts) = FSRSPretraining.initialStabilities(training.firstIntervals, averageRecall: training.averageRecall)
        let start = initial + FSRSScheduler.defaultParameters[4...]
        guard training.itemCount >= 64 else { return start }

        var adam = AdamState(count: FSRSParameterBounds.count)
        var parameters = start
        var random = SeededRandom(seed: seed)
        let order = training.sequences.indices.filter { training.weights[$0].contains { $0 > 0 } }
        let iterations = (training.itemCount / batchSize + 1) * epochs
        var iteration = 0
        var best = (loss: Double.infinity, parameters: start)
        for epoch in 1...epochs {
            var shuffled = order
            random.shuffle(&shuffled)
            var done = 0
            for batch in batches(of: shuffled, training: training) {
                if isCancelled?() == true { throw FSRSOptimizerError.cancelled }
                iteration += 1
                var gradient = lossAndGradient(parameters, words: batch.words, training: training).gradient
                gradient += penaltyGradient(parameters, start: start, share: Double(batch.items) / Double(training.itemCount))
                let rate = learningRate * 0.5 * (1 + cos(Double.pi * Double(iteration % (iterations + 1)) / Double(iterations)))
                parameters = FSRSParameterBounds.clipped(adam.step(parameters, gradient: gradient, rate: rate),
                                                         relearningSteps: relearningSteps)
                done += batch.items
                progress?(FSRSOptimizerProgress(epoch: epoch, epochs: epochs, itemsDone: done, items: training.itemCount))
            }
            let loss = (trainingLoss(parameters, training: training) + penalty(parameters, start: start)) / Double(training.itemCount)
            if loss < best.loss { best = (loss, parameters) }
        }
        var fittedFirst: [Int: Double] = [:]
        for rating in 1...4 { fittedFirst[rating] = best.parameters[rating - 1] }
        let smoothed = FSRSPretraining.smoothAndFill(fittedFirst, counts: counts) ?? Array(best.parameters[0..<4])
        return smoothed + best.parameters[4...]
    }

    /// Groups of whole words holding about `batchSize` items each.
    private func batches(of words: [Int], training: FSRSTrainingSet) -> [(words: [Int], items: Int)] {
        var result: [(words: [Int], items: Int)] = []
        var current: [Int] = [], items = 0
        for word in words {
            current.append(word)
            items += training.weights[word].reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
            if items >= batchSize {
                result.append((current, items))
                current = []
                items = 0
            }
        }
        if !current.isEmpty { result.append((current, items)) }
        return result
    }

    /// The weighted cross-entropy of `words`' items and its gradient by each parameter.
    func lossAndGradient(_ parameters: [Double], words: [Int], training: FSRSTrainingSet) -> (loss: Double, gradient: Partials) {
        let model = FSRSMemoryModel(parameters.enumerated().map { DualNumber.parameter($1, index: $0) })
        var loss = 0.0
        var gradient = Partials.zero
        Self.forEachItem(model, words: words, training: training) { recall, p, weight, recalled in
            // d/dp of −[y·ln p + (1−y)·ln(1−p)] is −1/p when recalled, 1/(1−p) when not.
            if recalled {
                loss -= weight * Glibc.log(p)
                gradient -= recall.partials * (weight / p)
            } else {
                loss -= weight * Glibc.log(1 - p)
                gradient += recall.partials * (weight / (1 - p))
            }
        }
        return (loss, gradient)
    }

    /// The weighted cross-entropy of every training item (plain numbers: no gradient).
    private func trainingLoss(_ parameters: [Double], training: FSRSTrainingSet) -> Double {
        var loss = 0.0
        Self.forEachItem(FSRSMemoryModel(parameters), words: training.sequences.indices, training: training) { _, p, weight, recalled in
            loss -= weight * Glibc.log(recalled ? p : 1 - p)
        }
        return loss
    }

    /// Runs each of `words`' reviews through `model` and calls `body` for every training item
    /// with the predicted recall, the same kept inside (0, 1) as a probability, the item's
    /// weight and whether the word was recalled.
    private static func forEachItem<Number: FSRSNumber, Words: Sequence<Int>>(
        _ model: FSRSMemoryModel<Number>, words: Words, training: FSRSTrainingSet,
        _ body: (_ recall: Number, _ p: Double, _ weight: Double, _ recalled: Bool) -> Void
    ) {
        for word in words {
            let sequence = training.sequences[word], weights = training.weights[word]
            guard let last = weights.lastIndex(where: { $0 > 0 }) else { continue }
            var memory: FSRSMemory<Number>?
            for review in 0...last {
                let weight = weights[review]
                if weight > 0, let memory {
                    let recall = model.retrievability(days: sequence.days[review], stability: memory.stability)
                    body(recall, min(max(recall.value, 1e-7), 1 - 1e-7), weight, sequence.ratings[review] > 1)
                }
                memory = model.step(memory, rating: sequence.ratings[review], days: sequence.days[review])
            }
        }
    }

    /// The pull towards the starting parameters: γ · Σ ((wᵢ − startᵢ) / spreadᵢ)².
    private func penalty(_ parameters: [Double], start: [Double]) -> Double {
        regularisation * parameters.indices.reduce(0) { total, index in
            let distance = (parameters[index] - start[index]) / FSRSParameterBounds.spread[index]
            return total + distance * distance
        }
    }

    /// The penalty's gradient for a batch holding `share` of the items.
    private func penaltyGradient(_ parameters: [Double], start: [Double], share: Double) -> Partials {
        var gradient = Partials.zero
        for index in parameters.indices {
            let spread = FSRSParameterBounds.spread[index]
            gradient[index] = regularisation * share * 2 * (parameters[index] - start[index]) / (spread * spread)
        }
        return gradient
    }
}

/// Adam's running moments (Kingma & Ba), as the reference optimiser configures it.
struct AdamState {
    private var first: [Double]
    private var second: [Double]
    private var steps = 0
    private let beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8

    init(count: Int) {
        first = [Double](repeating: 0, count: count)
        second = [Double](repeating: 0, count: count)
    }

    mutating func step(_ parameters: [Double], gradient: Partials, rate: Double) -> [Double] {
        steps += 1
        let correction1 = 1 - Glibc.pow(beta1, Double(steps)), correction2 = 1 - Glibc.pow(beta2, Double(steps))
        return parameters.indices.map { index in
            let g = gradient[index]
            first[index] = beta1 * first[index] + (1 - beta1) * g
            second[index] = beta2 * second[index] + (1 - beta2) * g * g
            return parameters[index] - rate * (first[index] / correction1) / ((second[index] / correction2).squareRoot() + epsilon)
        }
    }
}
