import FoundationEssentials
import Synchronization

/// Tries per key (an account, an address): the first `free` failures cost nothing, and the
/// failure that uses the last of them locks the key out for `firstLock` seconds, each later one
/// twice as long as the one before (up to `longestLock`); a success clears the key, and so does
/// time: a key that has not failed for `forgetAfter` seconds, and is not locked, starts afresh
/// (one typo is never held against its sender for longer).
///
/// A try takes its place before it is checked (`reserve`), so tries sent at once count as they
/// come, not when their checks end: while `free` are in flight no more are let through, and past
/// the free ones only one at a time. In memory only, and bounded: past `keysKept` keys the ones
/// quiet longest are forgotten.
final class SignInLimiter: Sendable {
    private struct Record {
        var failures = 0
        /// Tries taken and not yet settled.
        var inFlight = 0
        var lockedUntil: ContinuousClock.Instant
        /// The last try (the quietest keys are forgotten first past `keysKept`).
        var last: ContinuousClock.Instant
        /// The last failure (the key is forgotten `forgetAfter` seconds after it).
        var lastFailed: ContinuousClock.Instant? = nil
    }

    let free: Int
    let firstLock: Int
    let longestLock: Int
    let keysKept: Int
    let forgetAfter: Int
    /// The time now (a test's clock in tests).
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let records = Mutex<[String: Record]>([:])

    init(free: Int = 5, firstLock: Int = 30, longestLock: Int = 900, forgetAfter: Int = 900, keysKept: Int = 10_000,
         clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.free = free
        self.firstLock = firstLock
        self.longestLock = longestLock
        self.forgetAfter = forgetAfter
        self.keysKept = keysKept
        self.clock = clock
    }

    /// `key`'s record, unless time has forgotten it (then it is dropped).
    private func record(_ key: String, in records: inout [String: Record], now: ContinuousClock.Instant) -> Record? {
        guard let record = records[key] else { return nil }
        let quiet = record.inFlight == 0 && record.lockedUntil <= now && record.lastFailed.map { now - $0 >= .seconds(forgetAfter) } ?? false
        if quiet { records.removeValue(forKey: key) }
        return quiet ? nil : record
    }

    /// Takes a try for every one of `keys` and returns 0, or takes none and returns the seconds
    /// until one may be taken. A try taken is settled by `failed(_:reserved: true)`,
    /// `settled` or `succeeded`.
    func reserve(_ keys: [String]) -> Int {
        let now = clock()
        return records.withLock { records in
            let wait = keys.map { key -> Int in
                guard let record = record(key, in: &records, now: now) else { return 0 }
                let locked = Self.secondsLocked(record, now: now)
                if locked > 0 { return locked }
                let mayTry = record.failures + record.inFlight < free || (record.failures >= free && record.inFlight == 0)
                return mayTry ? 0 : 1  // the tries left are all being checked now: one of them may end well
            }.max() ?? 0
            guard wait == 0 else { return wait }
            makeRoom(for: keys.count, in: &records)
            for key in keys {
                var record = records[key] ?? Record(lockedUntil: now, last: now)
                record.inFlight += 1
                record.last = now
                records[key] = record
            }
            return 0
        }
    }

    /// Seconds until any of `keys` may try again (0: now), taking nothing.
    func wait(_ keys: [String]) -> Int {
        let now = clock()
        return records.withLock { records in
            keys.compactMap { record($0, in: &records, now: now) }.map { Self.secondsLocked($0, now: now) }.max() ?? 0
        }
    }

    /// Whole seconds until `record`'s lock ends (0: not locked).
    private static func secondsLocked(_ record: Record, now: ContinuousClock.Instant) -> Int {
        let left = now.duration(to: record.lockedUntil)
        return left > .zero ? Int(left.components.seconds) + 1 : 0
    }

    /// Counts a failure against each of `keys`; `reserved`: the try was taken by `reserve`.
    func failed(_ keys: [String], reserved: Bool) {
        let now = clock()
        records.withLock { records in
            makeRoom(for: keys.count, in: &records)
            for key in keys {
                var record = record(key, in: &records, now: now) ?? Record(lockedUntil: now, last: now)
                if reserved { record.inFlight = max(record.inFlight - 1, 0) }
                record.failures += 1
                record.last = now
                record.lastFailed = now
                if record.failures >= free {
                    let doublings = min(record.failures - free, 10)
                    record.lockedUntil = now + .seconds(min(firstLock << doublings, longestLock))
                }
                records[key] = record
            }
        }
    }

    /// Ends tries taken by `reserve` that neither failed nor cleared the key (a check that could
    /// not be made, a success that leaves the key counted).
    func settled(_ keys: [String]) {
        records.withLock { records in
            for key in keys {
                guard var record = records[key] else { continue }
                record.inFlight = max(record.inFlight - 1, 0)
                records[key] = record
            }
        }
    }

    /// Whether any of `keys` has failed (and is still remembered).
    func hasFailed(_ keys: [String]) -> Bool {
        let now = clock()
        return records.withLock { records in keys.contains { (record($0, in: &records, now: now)?.failures ?? 0) > 0 } }
    }

    /// Clears `keys` after a success (tries of theirs still in flight then count as new ones).
    func succeeded(_ keys: [String]) {
        records.withLock { records in keys.forEach { records.removeValue(forKey: $0) } }
    }

    /// Forgets the quietest half when `count` more keys would pass the bound.
    private func makeRoom(for count: Int, in records: inout [String: Record]) {
        guard records.count + count > keysKept else { return }
        let oldest = records.sorted { $0.value.last < $1.value.last }.prefix(records.count / 2).map(\.key)
        oldest.forEach { records.removeValue(forKey: $0) }
    }
}
