import FoundationEssentials

/// The learner's own scheduling: FSRS-6 parameters (fitted by `vocab optimize`, or the
/// published defaults) and the recall they aim for.
public struct LearningSettings: Equatable, Sendable {
    /// Nil: the published defaults.
    public var parameters: [Double]?
    public var desiredRetention: Double
    /// When they last changed (nil: never).
    public var changedAt: Timestamp?

    public static let defaultRetention = 0.9
    /// The desired retentions a learner may choose.
    public static let retentionRange = 0.85...0.97

    public init(parameters: [Double]? = nil, desiredRetention: Double = LearningSettings.defaultRetention, changedAt: Timestamp? = nil) {
        self.parameters = parameters
        self.desiredRetention = desiredRetention
        self.changedAt = changedAt
    }

    /// The parameters in force.
    public var effectiveParameters: [Double] { parameters ?? FSRSScheduler.defaultParameters }

    /// The scheduler these settings give.
    public var scheduler: FSRSScheduler {
        FSRSScheduler(parameters: effectiveParameters, desiredRetention: desiredRetention)
    }
}
