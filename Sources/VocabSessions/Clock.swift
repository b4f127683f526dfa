import VocabCore

/// Where a session gets the time from: the system clock, or a fixed time (`--now`, tests).
public protocol SessionClock: Sendable {
    func now() -> Timestamp
}

/// The system clock.
public struct SystemClock: SessionClock {
    public init() {}
    public func now() -> Timestamp { .now() }
}

/// A clock that always says the same time: reproducible runs and tests.
public struct FixedClock: SessionClock {
    public let time: Timestamp
    public init(_ time: Timestamp) { self.time = time }
    public func now() -> Timestamp { time }
}
