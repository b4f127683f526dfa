import FoundationEssentials
import VocabCore
import VocabStore

/// What an optimisation found, and what it did with it.
public struct OptimizationReport: Sendable {
    public enum Outcome: Equatable, Sendable {
        /// The fitted parameters predicted the reviews better and are now in force.
        case saved
        /// They were better, but nothing was saved (a dry run).
        case betterNotSaved
        /// They were no better than the parameters in force, which stay.
        case notBetter
        /// Too few reviews to fit on: the parameters in force stay.
        case tooFewReviews(minimum: Int)
    }

    public var outcome: Outcome
    /// Reviews predicted (each word's later-day reviews), and the words they belong to.
    public var reviews: Int
    public var words: Int
    public var defaults: FSRSEvaluation
    /// The saved parameters in force before, when there were any.
    public var previous: FSRSEvaluation?
    public var fitted: FSRSEvaluation?
    public var fittedParameters: [Double]?
    /// The settings in force afterwards.
    public var settings: LearningSettings
    /// Words whose schedules were re-derived (0 when nothing changed).
    public var rescheduled: Int
}

/// `vocab optimize` and the window's "Optimise": fits FSRS-6 to the learner's own log and
/// keeps the result only when it predicts that log better than the parameters in force.
public enum LearningOptimization {
    /// Below this many predictable reviews, fitting would only learn noise.
    public static let minimumReviews = 400

    /// Fits parameters to the reviews of `bookIds` (nil: every book). `retention` (nil: keep)
    /// changes the desired retention as well; `dryRun` saves nothing. `progress` gets the
    /// share done (0...1); `isCancelled` stops the fit (throws `FSRSOptimizerError.cancelled`,
    /// nothing saved).
    public static func run(library: Library, bookIds: [UUID]?, retention: Double?, dryRun: Bool, now: Timestamp,
                           progress: ((Double) -> Void)? = nil, isCancelled: (() -> Bool)? = nil) throws -> OptimizationReport {
        let store = library.store
        if let retention { try checkRetention(retention) }
        let before = try store.learningSettings()
        let sequences = try store.reviewSequences(inBooks: bookIds)
        let defaults = FSRSEvaluation(parameters: FSRSScheduler.defaultParameters, sequences: sequences)
        let previous = before.parameters.map { FSRSEvaluation(parameters: $0, sequences: sequences) }
        var report = OptimizationReport(outcome: .tooFewReviews(minimum: minimumReviews), reviews: defaults.reviews,
                                        words: sequences.count, defaults: defaults, previous: previous, fitted: nil,
                                        fittedParameters: nil, settings: before, rescheduled: 0)
        var parameters = before.parameters
        if defaults.reviews >= minimumReviews {
            let fitted = try FSRSOptimizer().fit(sequences, progress: { progress?($0.fraction) }, isCancelled: isCancelled)
            let evaluation = FSRSEvaluation(parameters: fitted, sequences: sequences)
            report.fitted = evaluation
            report.fittedParameters = fitted
            // Saved only when better, and only a set the scheduler may use (a fit is clipped
            // to the limits; this is the last guard before the store's own check).
            if FSRSParameterBounds.areValid(fitted), evaluation.logLoss.isFinite, evaluation.logLoss < (previous ?? defaults).logLoss {
                report.outcome = dryRun ? .betterNotSaved : .saved
                parameters = fitted
            } else {
                report.outcome = .notBetter
            }
        }
        let desired = retention ?? before.desiredRetention
        guard !dryRun, parameters != before.parameters || desired != before.desiredRetention else { return report }
        report.rescheduled = try store.saveLearningSettings(parameters: parameters, desiredRetention: desired, at: now)
        report.settings = try store.learningSettings()
        return report
    }

    /// Changes the desired retention alone (the parameters in force stay) and re-derives every
    /// schedule; returns how many words were rescheduled, nil when it was `retention` already.
    @discardableResult
    public static func setRetention(_ retention: Double, library: Library, now: Timestamp) throws -> Int? {
        let store = library.store
        try checkRetention(retention)
        let settings = try store.learningSettings()
        guard settings.desiredRetention != retention else { return nil }
        return try store.saveLearningSettings(parameters: settings.parameters, desiredRetention: retention, at: now)
    }

    /// A retention the scheduler may aim at (the store would refuse any other by stopping).
    private static func checkRetention(_ retention: Double) throws {
        guard LearningSettings.retentionRange.contains(retention) else {
            throw VocabError.retentionOutOfRange(retention, LearningSettings.retentionRange)
        }
    }

    /// Back to the published parameters and a desired retention of 0.9. Returns how many
    /// words were rescheduled.
    @discardableResult
    public static func reset(library: Library, now: Timestamp) throws -> Int {
        try library.store.saveLearningSettings(parameters: nil, desiredRetention: LearningSettings.defaultRetention, at: now)
    }
}
