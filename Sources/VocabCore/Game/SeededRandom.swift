/// A reproducible random number generator (SplitMix64): the same seed gives the same game on
/// every machine and Swift version, unlike the standard library's unspecified shuffle.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0), without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64.max - UInt64.max % UInt64(bound)
        while true {
            let value = next()
            if value < limit { return Int(value % UInt64(bound)) }
        }
    }

    /// Shuffles only the first `count` places (a forward Fisher–Yates): a random sample of
    /// `count` items in random order, in time proportional to `count`.
    public mutating func shuffleFront<T>(_ items: inout [T], count: Int) {
        let end = min(count, items.count - 1)
        guard end > 0 else { return }
        for index in 0..<end {
            items.swapAt(index, index + below(items.count - index))
        }
    }

    /// A Fisher–Yates shuffle defined here, so results never depend on the standard library.
    public mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, below(index + 1))
        }
    }
}
