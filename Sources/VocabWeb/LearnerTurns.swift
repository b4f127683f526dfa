import Dispatch
import Synchronization

/// Each learner's share of a server of many: `inFlight` of his requests are answered at once;
/// `waiting` more may wait their turn behind his own (each at most `patience`; every connection
/// has a thread of its own, so a waiting request holds back only itself). Past that, `run`
/// throws `busy` (a 429 with Retry-After). What it keeps is this server's alone: no other
/// server needs it.
final class LearnerTurns: Sendable {
    private struct Turns: @unchecked Sendable {  // the semaphore is thread-safe; `users` changes under the shard's lock
        let semaphore: DispatchSemaphore
        var users: Int
    }

    let inFlight: Int
    let waiting: Int
    let patience: Duration
    private let turns = ShardedDictionary<Turns>()
    private let busy: @Sendable () -> Error

    init(inFlight: Int, waiting: Int, patience: Duration, busy: @escaping @Sendable () -> Error) {
        self.inFlight = inFlight
        self.waiting = waiting
        self.patience = patience
        self.busy = busy
    }

    /// Runs `body` in one of `owner`'s turns, after waiting for one if he has `inFlight` already.
    func run<T>(for owner: String, _ body: () throws -> T) throws -> T {
        let semaphore: DispatchSemaphore? = turns.withShard(of: owner) { turns in
            var entry = turns[owner] ?? Turns(semaphore: DispatchSemaphore(value: inFlight), users: 0)
            guard entry.users < inFlight + waiting else { return nil }
            entry.users += 1
            turns[owner] = entry
            return entry.semaphore
        }
        guard let semaphore else { throw busy() }
        defer { leave(owner) }
        let (seconds, attoseconds) = patience.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        guard semaphore.wait(timeout: deadline) == .success else { throw busy() }
        defer { semaphore.signal() }
        return try body()
    }

    /// Gives `owner`'s place back; his turns go when nobody of his is in flight or waiting (every
    /// turn taken was given back to the semaphore by then).
    private func leave(_ owner: String) {
        turns.withShard(of: owner) { turns in
            guard var entry = turns[owner] else { return }
            entry.users -= 1
            turns[owner] = entry.users > 0 ? entry : nil
        }
    }

    /// Learners with a request in flight or waiting.
    var learners: Int { turns.count }

    /// `owner`'s requests in flight or waiting.
    func places(of owner: String) -> Int {
        turns.withShard(of: owner) { $0[owner]?.users ?? 0 }
    }
}
