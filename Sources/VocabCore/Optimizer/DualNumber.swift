import FoundationEssentials
import Glibc

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
    func exponential() -> Double { Glibc.exp(self) }
    func power(_ exponent: Double) -> Double { Glibc.pow(self, exponent) }
}

/// The derivatives of a number by each of the 21 FSRS parameters, in three 8-wide vectors
/// (lanes 21–23 stay zero): wide enough for the CPU's vector units, small enough to stay in
/// registers.
struct Partials: Equatable {
    var low: SIMD8<Double>
    var middle: SIMD8<Double>
    var high: SIMD8<Double>

    static let zero = Partials(low: .zero, middle: .zero, high: .zero)

    /// The unit vector of parameter `index`.
    static func unit(_ index: Int) -> Partials {
        var result = Partials.zero
        result[index] = 1
        return result
    }

    subscript(index: Int) -> Double {
        get { index < 8 ? low[index] : index < 16 ? middle[index - 8] : high[index - 16] }
        set {
            if index < 8 { low[index] = newValue } else if index < 16 { middle[index - 8] = newValue } else { high[index - 16] = newValue }
        }
    }

    @inline(__always) static func + (lhs: Partials, rhs: Partials) -> Partials {
        Partials(low: lhs.low + rhs.low, middle: lhs.middle + rhs.middle, high: lhs.high + rhs.high)
    }

    @inline(__always) static func - (lhs: Partials, rhs: Partials) -> Partials {
        Partials(low: lhs.low - rhs.low, middle: lhs.middle - rhs.middle, high: lhs.high - rhs.high)
    }

    @inline(__always) static func * (lhs: Partials, rhs: Double) -> Partials {
        Partials(low: lhs.low * rhs, middle: lhs.middle * rhs, high: lhs.high * rhs)
    }

    /// `lhs · a + rhs · b`, in one pass.
    @inline(__always) static func combine(_ lhs: Partials, _ a: Double, _ rhs: Partials, _ b: Double) -> Partials {
        Partials(low: lhs.low * a + rhs.low * b, middle: lhs.middle * a + rhs.middle * b, high: lhs.high * a + rhs.high * b)
    }

    static func += (lhs: inout Partials, rhs: Partials) { lhs = lhs + rhs }
    static func -= (lhs: inout Partials, rhs: Partials) { lhs = lhs - rhs }
}

/// A number together with its derivatives by each of the 21 FSRS parameters: forward-mode
/// automatic differentiation.
struct DualNumber: FSRSNumber {
    var value: Double
    var partials: Partials

    @inline(__always) init(_ constant: Double) {
        value = constant
        partials = .zero
    }

    @inline(__always) init(value: Double, partials: Partials) {
        self.value = value
        self.partials = partials
    }

    /// Parameter `index` itself: its derivative by itself is 1.
    static func parameter(_ value: Double, index: Int) -> DualNumber {
        DualNumber(value: value, partials: .unit(index))
    }

    @inline(__always) static func + (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        DualNumber(value: lhs.value + rhs.value, partials: lhs.partials + rhs.partials)
    }

    @inline(__always) static func - (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        DualNumber(value: lhs.value - rhs.value, partials: lhs.partials - rhs.partials)
    }

    @inline(__always) static func * (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        DualNumber(value: lhs.value * rhs.value, partials: .combine(lhs.partials, rhs.value, rhs.partials, lhs.value))
    }

    @inline(__always) static func / (lhs: DualNumber, rhs: DualNumber) -> DualNumber {
        let quotient = lhs.value / rhs.value
        return DualNumber(value: quotient, partials: .combine(lhs.partials, 1 / rhs.value, rhs.partials, -quotient / rhs.value))
    }

    @inline(__always) static func + (lhs: DualNumber, rhs: Double) -> DualNumber {
        DualNumber(value: lhs.value + rhs, partials: lhs.partials)
    }

    @inline(__always) static func * (lhs: DualNumber, rhs: Double) -> DualNumber {
        DualNumber(value: lhs.value * rhs, partials: lhs.partials * rhs)
    }

    @inline(__always) func exponential() -> DualNumber {
        let result = Glibc.exp(value)
        return DualNumber(value: result, partials: partials * result)
    }

    /// `self` to the power `exponent`, both possibly depending on the parameters (the base is
    /// positive wherever the model raises one).
    @inline(__always) func power(_ exponent: DualNumber) -> DualNumber {
        let result = Glibc.pow(value, exponent.value)
        return DualNumber(value: result, partials: .combine(partials, exponent.value * result / value,
                                                            exponent.partials, result * Glibc.log(value)))
    }
}
