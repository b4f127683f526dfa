import FoundationEssentials
import Synchronization

/// Failed sign-ins, per key (an account, an address): the first `free` failures cost nothing,
/// then each one locks the key out for twice as long as the one before (from `firstLock`
/// seconds up to `longestLock`); a success clears the key. In memory only, and bounded: past
/// `keysKept` keys the ones quiet longest are forgotten.
final class SignInLimiter: Sendable {
    private struct Record {
        var failures = 0
        var lockedUntil: ContinuousClock.Instant
        var last: ContinuousClock.Instant
    }

    let free: Int
    let firstLock: Int
    let longestLock: Int
    let keysKept: Int
    private let records = Mutex<[String: Record]>([:])

    init(free: Int = 5, firstLock: Int = 30, longestLock: Int = 900, keysKept: Int = 10_000) {
        self.free = free
        self.firstLock = firstLock
        self.longestLock = longestLock
        self.keysKept = keysKept
    }

    /// Seconds until any of `keys` may try again (0: now).
    func wait(_ keys: [String]) -> Int {
        let now = ContinuousClock.now
        return records.withLock { records in
            keys.compactMap { records[$0] }.map { record in
                let left = now.duration(to: record.lockedUntil)
                return left > .zero ? Int(left.components.seconds) + 1 : 0
            }.max() ?? 0
        }
    }

    /// Counts a failure against each of `keys`.
    func failed(_ keys: [String]) {
        let now = ContinuousClock.now
        records.withLock { records in
            if records.count + keys.count > keysKept {
                let oldest = records.sorted { $0.value.last < $1.value.last }.prefix(records.count / 2).map(\.key)
                oldest.forEach { records.removeValue(forKey: $0) }
            }
            for key in keys {
                var record = records[key] ?? Record(lockedUntil: now, last: now)
                record.failures += 1
                record.last = now
                if record.failures > free {
                    let doublings = min(record.failures - free - 1, 10)
                    record.lockedUntil = now + .seconds(min(firstLock << doublings, longestLock))
                }
                records[key] = record
            }
        }
    }

    /// Whether any of `keys` has failed (and is still remembered).
    func hasFailed(_ keys: [String]) -> Bool {
        records.withLock { records in keys.contains { records[$0] != nil } }
    }

    /// Clears `keys` after a success.
    func succeeded(_ keys: [String]) {
        records.withLock { records in keys.forEach { records.removeValue(forKey: $0) } }
    }
}
