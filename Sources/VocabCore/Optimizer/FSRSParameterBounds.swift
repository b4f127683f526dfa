import FoundationEssentials
import Glibc

/// The published limits of the 21 FSRS-6 parameters (those of the reference optimiser,
/// fsrs-rs), and how far each usually strays from its default.
public enum FSRSParameterBounds {
    public static let count = 21
    /// The smallest stability the model keeps, in days.
    public static let minimumStability = 0.001
    /// The largest stability the model keeps, in days.
    public static let maximumStability = 36_500.0
    /// The largest first-review stability the optimiser gives.
    public static let maximumInitialStability = 100.0

    /// Each parameter's spread across many learners: the regulariser keeps a fit near the
    /// defaults in proportion to it (fsrs-rs' PARAMS_STDDEV).
    static let spread: [Double] = [
        6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33, 0.3, 0.09, 0.16, 0.57, 0.25,
        1.03, 0.31, 0.32, 0.14, 0.27,
    ]

    /// The limits of each parameter; w17 and w18 also keep a lapse followed by
    /// `relearningSteps` same-day steps from raising the stability above what it was.
    public static func limits(for parameters: [Double], relearningSteps: Int = 1) -> [ClosedRange<Double>] {
        var ceiling = 2.0
        if relearningSteps > 1, parameters.count == count {
            let lapse = Glibc.log(parameters[11]) + Glibc.log(Glibc.pow(2, parameters[13]) - 1) + parameters[14] * 0.3
            ceiling = min(max(-lapse / Double(relearningSteps), 0.01).squareRoot(), 2)
        }
        let initial = minimumStability...maximumInitialStability
        return [
            initial, initial, initial, initial,
            1...10, 0.001...4, 0.001...4, 0.001...0.75, 0...4.5, 0...0.8, 0.001...3.5, 0.001...5, 0.001...0.25,
            0.001...0.9, 0...4, 0...1, 1...6, 0...ceiling, 0...ceiling, 0...0.8, 0.1...0.8,
        ]
    }

    /// `parameters` with each one moved inside its limits (NaN becomes the default).
    public static func clipped(_ parameters: [Double], relearningSteps: Int = 1) -> [Double] {
        let limits = limits(for: parameters, relearningSteps: relearningSteps)
        return parameters.enumerated().map { index, value in
            guard value.isFinite else { return FSRSScheduler.defaultParameters[index] }
            return min(max(value, limits[index].lowerBound), limits[index].upperBound)
        }
    }

    /// Whether `parameters` are 21 finite numbers within their limits: what a saved or
    /// synced set must be before the scheduler uses it.
    public static func areValid(_ parameters: [Double]) -> Bool {
        guard parameters.count == count, parameters.allSatisfy(\.isFinite) else { return false }
        return zip(parameters, limits(for: parameters)).allSatisfy { $1.contains($0) }
    }
}
