import Foundation
import XCTest
@testable import VocabCore

/// The optimiser's parts against the reference optimiser (fsrs-rs, through PyPI's
/// fsrs-rs-python: Data/fsrs-optimizer-cases.json, made by scripts/fsrs_optimizer_reference.py),
/// its gradients against finite differences, and its fits on synthetic learners.
final class FSRSOptimizerTests: XCTestCase {
    private struct Cases: Decodable {
        struct Memory: Decodable {
            var parameters: [Double]
            var reviews: [[Double]]
            var stability: Double
            var difficulty: Double
        }
        struct Evaluation: Decodable {
            var parameters: [Double]
            var words: [[[Double]]]
            var logLoss: Double
            var rmseBins: Double
        }
        struct Pretraining: Decodable {
            var words: [[[Double]]]
            var parameters: [Double]
        }
        var memory: [Memory]
        var evaluations: [Evaluation]
        var pretraining: Pretraining
    }

    private func cases() throws -> Cases {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/fsrs-optimizer-cases.json")
        return try JSONDecoder().decode(Cases.self, from: Data(contentsOf: url))
    }

    /// A word's [rating, days] pairs as a sequence (a day apart in time per day counted).
    private func sequence(_ reviews: [[Double]]) -> FSRSReviewSequence {
        var time: Int64 = 0
        let times = reviews.map { review -> Int64 in
            time += Int64(review[1] * 86_400_000) + 60_000
            return time
        }
        return FSRSReviewSequence(ratings: reviews.map { Int($0[0]) }, days: reviews.map { $0[1] }, times: times)
    }

    func testTheMemoryModelMatchesTheReferenceAfterAnySequence() throws {
        for item in try cases().memory {
            let model = FSRSMemoryModel(item.parameters)
            var memory: FSRSMemory<Double>?
            for review in item.reviews { memory = model.step(memory, rating: Int(review[0]), days: review[1]) }
            let result = try XCTUnwrap(memory)
            XCTAssertEqual(result.stability, item.stability, accuracy: 2e-4 * max(1, item.stability), "\(item.reviews)")
            XCTAssertEqual(result.difficulty, item.difficulty, accuracy: 2e-4 * item.difficulty, "\(item.reviews)")
        }
    }

    func testLogLossAndBinnedRMSEAreTheReferencesOnTheSameReviews() throws {
        for evaluation in try cases().evaluations {
            let result = FSRSEvaluation(parameters: evaluation.parameters, sequences: evaluation.words.map(sequence))
            XCTAssertEqual(result.logLoss, evaluation.logLoss, accuracy: 1e-4)
            XCTAssertEqual(result.rmseBins, evaluation.rmseBins, accuracy: 1e-4)
        }
    }

    func testPretrainingFitsTheFirstStabilitiesAsTheReferenceDoes() throws {
        let pretraining = try cases().pretraining
        let fitted = try FSRSOptimizer().fit(pretraining.words.map(sequence))
        for index in 0..<FSRSParameterBounds.count {
            XCTAssertEqual(fitted[index], pretraining.parameters[index], accuracy: 1e-3 * max(1, pretraining.parameters[index]),
                           "parameter \(index)")
        }
    }

    func testSmoothingFillsMissingFirstStabilitiesGeometrically() throws {
        // fsrs-rs' own cases (parameter_initialization.rs).
        let filled = try XCTUnwrap(FSRSPretraining.smoothAndFill([1: 0.4, 3: 2.3, 4: 10.9], counts: [1: 1, 2: 1, 3: 1, 4: 1]))
        XCTAssertEqual(filled[0], 0.4, accuracy: 1e-9)
        XCTAssertEqual(filled[1], 1.122_700_8, accuracy: 1e-6)
        XCTAssertEqual(filled[3], 10.9, accuracy: 1e-9)
        let scaled = try XCTUnwrap(FSRSPretraining.smoothAndFill([2: 0.35], counts: [2: 1]))
        for (value, expected) in zip(scaled, [0.057_381_48, 0.35, 0.624_294_3, 2.245_348_2]) {
            XCTAssertEqual(value, expected, accuracy: 1e-6)
        }
        // Out of order: the rating more words began with wins.
        let ordered = try XCTUnwrap(FSRSPretraining.smoothAndFill([1: 3, 2: 1, 3: 4, 4: 9], counts: [1: 10, 2: 2, 3: 5, 4: 5]))
        XCTAssertEqual(ordered, [3, 3, 4, 9])
        XCTAssertNil(FSRSPretraining.smoothAndFill([:], counts: [:]))
    }

    func testTheFirstStabilitySearchFindsTheReferencesValue() {
        // fsrs-rs' own case: recall after 1 to 5 days of the words first rated Again.
        var intervals: [(days: Double, recalled: Bool)] = []
        for (days, recalled, count) in [(1.0, 377, 435), (2, 88, 97), (3, 46, 63), (4, 29, 38), (5, 19, 28)] {
            intervals += (0..<count).map { (days, $0 < recalled) }
        }
        let (stabilities, counts) = FSRSPretraining.initialStabilities([1: intervals], averageRecall: 0.943_028_57)
        XCTAssertEqual(stabilities[0], 0.735_508_9, accuracy: 1e-5)
        XCTAssertEqual(counts, [1: 661])
    }

    func testEveryPartialDerivativeAgreesWithFiniteDifferences() throws {
        var random = SeededRandom(seed: 7)
        let learner = SimulatedLearner.random(&random)
        let logs = learner.reviewLogs(words: 60, newPerDay: 10, days: 120, start: Timestamp(milliseconds: 1_767_225_600_000),
                                      random: &random)
        let training = FSRSTrainingSet(logs.map(FSRSReviewSequence.init(log:)), maximumLength: 256)
        let words = Array(training.sequences.indices)
        let optimizer = FSRSOptimizer()
        // Away from every clamp, so that each parameter moves the loss smoothly.
        var parameters = FSRSScheduler.defaultParameters
        parameters[7] = 0.05
        let (_, gradient) = optimizer.lossAndGradient(parameters, words: words, training: training)
        for index in 0..<FSRSParameterBounds.count {
            let step = 1e-6 * max(1, abs(parameters[index]))
            var up = parameters, down = parameters
            up[index] += step
            down[index] -= step
            let numeric = (optimizer.lossAndGradient(up, words: words, training: training).loss
                - optimizer.lossAndGradient(down, words: words, training: training).loss) / (2 * step)
            XCTAssertEqual(gradient[index], numeric, accuracy: 1e-4 * max(1, abs(numeric)), "∂loss/∂w\(index)")
        }
    }

    func testFittingOnEightyPercentOfEachSyntheticLearnersWordsPredictsTheRestBetterThanTheDefaults() throws {
        var random = SeededRandom(seed: 20_261_201)
        var better = 0
        let learners = 6
        for _ in 0..<learners {
            let learner = SimulatedLearner.random(&random)
            var logs = learner.reviewLogs(words: 400, newPerDay: 20, days: 180, start: Timestamp(milliseconds: 1_767_225_600_000),
                                          random: &random)
            random.shuffle(&logs)
            let sequences = logs.map(FSRSReviewSequence.init(log:))
            let split = sequences.count * 4 / 5
            let fitted = try FSRSOptimizer().fit(Array(sequences[..<split]))
            let heldOut = Array(sequences[split...])
            let fittedLoss = FSRSEvaluation(parameters: fitted, sequences: heldOut).logLoss
            let defaultLoss = FSRSEvaluation(parameters: FSRSScheduler.defaultParameters, sequences: heldOut).logLoss
            XCTAssertTrue(FSRSParameterBounds.areValid(fitted), "\(fitted)")
            if fittedLoss < defaultLoss { better += 1 }
        }
        XCTAssertGreaterThanOrEqual(better, learners - 1, "fitted parameters predicted held-out reviews better for \(better) of \(learners) learners")
    }

    func testTheSameLogGivesTheSameParametersAndCancellingStops() throws {
        var random = SeededRandom(seed: 3)
        let logs = SimulatedLearner.random(&random).reviewLogs(words: 150, newPerDay: 15, days: 90,
                                                               start: Timestamp(milliseconds: 1_767_225_600_000), random: &random)
        let sequences = logs.map(FSRSReviewSequence.init(log:))
        var updates: [FSRSOptimizerProgress] = []
        let first = try FSRSOptimizer().fit(sequences, progress: { updates.append($0) })
        XCTAssertEqual(first, try FSRSOptimizer().fit(sequences))
        XCTAssertEqual(updates.last?.fraction ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(updates.map(\.fraction), updates.map(\.fraction).sorted())
        XCTAssertThrowsError(try FSRSOptimizer().fit(sequences, isCancelled: { true })) { error in
            XCTAssertEqual(error as? FSRSOptimizerError, .cancelled)
        }
    }

    /// Two synthetic learners (Data/fsrs-heldout-cases.json, over 5,000 reviews, made by
    /// `scripts/fsrs_optimizer_reference.py heldout`): fsrs-rs fitted 80% of each one's words and
    /// scored its fit and the defaults on the other 20% with its own `evaluate`.
    private struct HeldOutCases: Decodable {
        struct Word: Decodable {
            var start: Int64
            var reviews: [[Double]]
        }
        struct Score: Decodable {
            var logLoss: Double
            var rmseBins: Double
        }
        struct Learner: Decodable {
            var fit: [Word]
            var heldOut: [Word]
            var parameters: [Double]
            var evaluations: [String: Score]
            var reviews: Int
        }
        var learners: [Learner]
    }

    private func heldOutCases() throws -> HeldOutCases {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/fsrs-heldout-cases.json")
        return try JSONDecoder().decode(HeldOutCases.self, from: Data(contentsOf: url))
    }

    /// A word of the fixture, every review at the start of its day (the fixture's time order).
    private func timedSequence(_ word: HeldOutCases.Word) -> FSRSReviewSequence {
        var day = word.start
        let times = word.reviews.map { review -> Int64 in
            day += Int64(review[1])
            return day * 86_400_000
        }
        return FSRSReviewSequence(ratings: word.reviews.map { Int($0[0]) }, days: word.reviews.map { $0[1] }, times: times)
    }

    func testTheRecencyWeightedEvaluationIsFsrsRsOwn() throws {
        for learner in try heldOutCases().learners {
            let heldOut = learner.heldOut.map(timedSequence)
            for (name, parameters) in [("fitted", learner.parameters), ("defaults", FSRSScheduler.defaultParameters)] {
                let reference = try XCTUnwrap(learner.evaluations[name])
                let ours = FSRSEvaluation(parameters: parameters, sequences: heldOut, weighting: .recency)
                // fsrs-rs computes in 32-bit floats.
                XCTAssertEqual(ours.logLoss, reference.logLoss, accuracy: 1e-5, name)
                XCTAssertEqual(ours.rmseBins, reference.rmseBins, accuracy: 1e-5, name)
            }
        }
    }

    /// The whole optimiser (pre-training, Adam, batches, the learning-rate schedule, the
    /// penalty, the best epoch) against fsrs-rs: fitted on the same 80%, Vocab's parameters
    /// predict the held-out 20% within 1% of fsrs-rs' own, by fsrs-rs' measure.
    func testFittedOnTwoLearnersVocabPredictsHeldOutReviewsWithinOnePercentOfFsrsRs() throws {
        let cases = try heldOutCases()
        XCTAssertGreaterThanOrEqual(cases.learners.reduce(0) { $0 + $1.reviews }, 5_000)
        for (index, learner) in cases.learners.enumerated() {
            let fitted = try FSRSOptimizer().fit(learner.fit.map(timedSequence))
            let ours = FSRSEvaluation(parameters: fitted, sequences: learner.heldOut.map(timedSequence), weighting: .recency).logLoss
            let theirs = try XCTUnwrap(learner.evaluations["fitted"]).logLoss
            // The bound means something only where the defaults miss it: they do, by 2-5%.
            XCTAssertGreaterThan(try XCTUnwrap(learner.evaluations["defaults"]).logLoss, theirs * 1.015)
            print("learner \(index + 1): held-out log loss, fsrs-rs' evaluate: Vocab's fit \(ours), fsrs-rs' fit \(theirs)")
            XCTAssertLessThanOrEqual(abs(ours - theirs) / theirs, 0.01,
                                     "learner \(index + 1): Vocab's held-out log loss \(ours), fsrs-rs' \(theirs); fitted \(fitted)")
        }
    }

    func testParameterLimitsRejectWhatTheSchedulerMustNotUse() {
        XCTAssertTrue(FSRSParameterBounds.areValid(FSRSScheduler.defaultParameters))
        XCTAssertFalse(FSRSParameterBounds.areValid(Array(FSRSScheduler.defaultParameters.prefix(19))))
        var wild = FSRSScheduler.defaultParameters
        wild[20] = 2
        XCTAssertFalse(FSRSParameterBounds.areValid(wild))
        XCTAssertEqual(FSRSParameterBounds.clipped(wild)[20], 0.8)
        wild[3] = .nan
        XCTAssertEqual(FSRSParameterBounds.clipped(wild)[3], FSRSScheduler.defaultParameters[3])
    }
}
