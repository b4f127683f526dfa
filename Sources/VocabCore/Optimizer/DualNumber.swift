import Foundation

/// The arithmetic the FSRS memory model needs, so that one set of formulas runs on plain
/// numbers (to predict and evaluate) and on dual numbers (to train).
protocol FSRSNumber {
    init(_ constant: Double)
    var value: Double { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static func / (lhs: Self, rhs: Self) -> Self
    static func + (lhs: Self, rhs: Double) -> Self
    static func * (lhs: Self, rhs: Double) -> Self
    func exponential() -> Self
    func logarithm() -> Self
    func power(_ exponent: Self) -> Self
}

extension FSRSNumber {
    static func - (lhs: Self, rhs: Double) -> Self { lhs + (-rhs) }
    static func - (lhs: Double, rhs: Self) -> Self { Self(lhs) - rhs }

    /// The value kept within `low...high`; where it is held at a bound, it no longer depends
    /// on the parameters (as a clamp's gradient is zero there).
    func clamped(_ low: Double, _ high: Double) -> Self {
        if value < low { return Self(low) }
        if value > high { return Self(high) }
        return self
    }
}

extension Double: FSRSNumber {
    var value: Double { self }
    func exponential() -> Double { Foundation.exp(self) }
    func logarithm() -> Double { Foundation.log(self) }
    func power(_ exponent: Double) -> Double { Foundation.pow(self, exponent) }
}

/// A number together with its derivatives by each of the 21 FSRS parameters: forward-mode
/// automatic differentiation. Lane `i` of `partials` is ∂value/∂wᵢ (lanes 21–31 stay zero).
struct DualNumber: FSRSNumber {
    var value: Double
    var partials: SIMD32<Double>

    init(_ constant: Double) {
        value = constant
        partials = .zero
    }

    init(value: Double, partials: SIMD32<Double>) {
        self.value = value
        self.partials = partials
    }

    /// Parameter `index` itself: its derivative by itself is 1.
    static func parameter(_ value: Double, index: Int) -> DualNumber {
        var partials = SIMD32<Double>.zero
        partials[index] = 1
        return DualNumber(value: value, partials: partials)
    }

    static func + (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        DualNumber(value: lhs.value + rhs.value, partials: lhs.partials + rhs.partials)
    }

    static func - (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        DualNumber(value: lhs.value - rhs.value, partials: lhs.partials - rhs.partials)
    }

    static func * (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        DualNumber(value: lhs.value * rhs.value, partials: lhs.partials * rhs.value + rhs.partials * lhs.value)
    }

    static func / (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        let quotient = lhs.value / rhs.value
        return DualNumber(value: quotient, partials: (lhs.partials - rhs.partials * quotient) / rhs.value)
    }

    static func + (lhs: DualNumber, rhs: Double) -> DualNumber {
        DualNumber(value: lhs.value + rhs, partials: lhs.partials)
    }

    static func * (lhs: DualNumber, rhs: Double) -> DualNumber {
        DualNumber(value: lhs.value * rhs, partials: lhs.partials * rhs)
    }

    func exponential() -> DualNumber {
        let result = Foundation.exp(value)
        return DualNumber(value: result, partials: partials * result)
    }

    func logarithm() -> DualNumber {
        DualNumber(value: Foundation.log(value), partials: partials / value)
    }

    /// `self` to the power `exponent`, both possibly depending on the parameters (the base is
    /// positive wherever the model raises one).
    func power(_ exponent: DualNumber) -> DualNumber {
        let result = Foundation.pow(value, exponent.value)
        let byBase = partials * (exponent.value * result / value)
        return DualNumber(value: result, partials: byBase + exponent.partials * (result * Foundation.log(value)))
    }
}
