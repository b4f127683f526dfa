import Dispatch
import Synchronization

/// The server's few places for checking passwords (Argon2id takes 64 MiB and a core's time
/// each), given first to those most likely to be the account's owner: a known account from an
/// address that has not failed goes before everyone else waiting (strangers guessing unknown
/// names from fresh addresses wait behind it, never in front). Within a class, first come first
/// served. At most `waitingAtMost` wait at once (more are refused at once), each for `seconds`.
final class PasswordChecks: Sendable {
    enum Standing: Sendable { case likelyOwner, other }

    private final class Waiter: Sendable {
        let standing: Standing
        let wake = DispatchSemaphore(value: 0)
        let given = Atomic<Bool>(false)
        init(standing: Standing) { self.standing = standing }
    }

    private struct State {
        var free: Int
        var waiting: [Waiter] = []
    }

    let seconds: Double
    let waitingAtMost: Int
    private let state: Mutex<State>

    init(places: Int = 2, seconds: Double = 30, waitingAtMost: Int = 256) {
        self.seconds = seconds
        self.waitingAtMost = waitingAtMost
        state = Mutex(State(free: max(places, 1)))
    }

    /// Runs `check` in a place of its own, waiting for one in its turn; nil when none came in time
    /// (or too many wait already).
    func run<T>(as standing: Standing, _ check: () throws -> T) rethrows -> T? {
        guard take(standing) else { return nil }
        defer { giveBack() }
        return try check()
    }

    private func take(_ standing: Standing) -> Bool {
        enum Turn { case taken, refused, waiting(Waiter) }
        let turn: Turn = state.withLock { state in
            let ahead = standing == .likelyOwner ? state.waiting.contains { $0.standing == .likelyOwner } : !state.waiting.isEmpty
            if state.free > 0, !ahead {
                state.free -= 1
                return .taken
            }
            guard state.waiting.count < waitingAtMost else { return .refused }
            let waiter = Waiter(standing: standing)
            // The likely owner goes behind the others of his class, in front of every other.
            let place = standing == .likelyOwner ? (state.waiting.firstIndex { $0.standing == .other } ?? state.waiting.count) : state.waiting.count
            state.waiting.insert(waiter, at: place)
            return .waiting(waiter)
        }
        guard case .waiting(let waiter) = turn else { if case .taken = turn { return true } else { return false } }
        if waiter.wake.wait(timeout: .now() + seconds) == .success { return true }
        return state.withLock { state in
            if waiter.given.load(ordering: .acquiring) { return true }  // given just as the time ran out
            state.waiting.removeAll { $0 === waiter }
            return false
        }
    }

    /// How many wait for a place now.
    var waiting: Int { state.withLock { $0.waiting.count } }

    private func giveBack() {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return
            }
            let next = state.waiting.removeFirst()
            next.given.store(true, ordering: .releasing)
            next.wake.signal()
        }
    }
}
