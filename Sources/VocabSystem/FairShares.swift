import Dispatch
import Synchronization

/// Lends `capacity` places (the server's connections to the cloud) among learners so that a
/// few of them cannot take them all: a learner holding none may take any free place; one who
/// holds a place already takes another only while more than half are free; a place given back
/// goes to the earliest waiter allowed one (so a learner holding none goes before a second
/// place of another). Requests with no learner yet (a sign-in, a device's lookup) count as a
/// learner holding none. A waiter gives up after its time (the request is then answered "busy");
/// a learner may have at most `waitersPerLearner` waiting at once (more are refused at once).
/// Bulk work (a device's pages of records, a whole collection, a backup: a place held for
/// long) never holds the last `keptForQuick` places, so a few accounts pulling and pushing
/// at once never keep a grade from the cloud.
package final class FairShares: Sendable {
    package let capacity: Int
    let waitersPerLearner: Int
    /// Places only quick work may take: bulk work holds at most `capacity - keptForQuick`.
    let keptForQuick: Int
    private let state: Mutex<State>

    private struct State {
        var lent = 0
        var bulkLent = 0
        var held: [String: Int] = [:]
        /// In the order they came; none of them may take a place now (they would have been given one).
        var waiting: [Waiter] = []
    }

    private final class Waiter: Sendable {
        let learner: String?
        let bulk: Bool
        let wake = DispatchSemaphore(value: 0)
        let given = Atomic<Bool>(false)
        init(learner: String?, bulk: Bool) {
            self.learner = learner
            self.bulk = bulk
        }
    }

    package init(capacity: Int, waitersPerLearner: Int = .max, keptForQuick: Int = 0) {
        self.capacity = max(capacity, 1)
        self.waitersPerLearner = max(waitersPerLearner, 0)
        self.keptForQuick = min(max(keptForQuick, 0), self.capacity - 1)
        state = Mutex(State())
    }

    /// Takes a place for `learner` (`bulk`: for bulk work), waiting at most `seconds` (0: not
    /// at all); false when none came in time.
    package func take(for learner: String?, bulk: Bool = false, waitingAtMost seconds: Double) -> Bool {
        enum Turn { case taken, refused, waiting(Waiter) }
        let turn: Turn = state.withLock { state in
            if mayTake(learner, bulk: bulk, state) {
                give(learner, bulk: bulk, &state)
                return .taken
            }
            guard seconds > 0, learner == nil || state.waiting.lazy.filter({ $0.learner == learner }).count < waitersPerLearner
            else { return .refused }
            let waiter = Waiter(learner: learner, bulk: bulk)
            state.waiting.append(waiter)
            return .waiting(waiter)
        }
        switch turn {
        case .taken: return true
        case .refused: return false
        case .waiting(let waiter):
            if waiter.wake.wait(timeout: .now() + seconds) == .success { return true }
            return state.withLock { state in
                if waiter.given.load(ordering: .acquiring) { return true }  // given just as the time ran out
                state.waiting.removeAll { $0 === waiter }
                return false
            }
        }
    }

    /// Gives back a place `learner` took (`bulk`: as it was taken), and hands free places to those waiting.
    package func giveBack(for learner: String?, bulk: Bool = false) {
        state.withLock { state in
            state.lent -= 1
            if bulk { state.bulkLent -= 1 }
            if let learner {
                let left = (state.held[learner] ?? 1) - 1
                state.held[learner] = left > 0 ? left : nil
            }
            while let next = nextWaiter(state) {
                let waiter = state.waiting.remove(at: next)
                give(waiter.learner, bulk: waiter.bulk, &state)
                waiter.given.store(true, ordering: .releasing)
                waiter.wake.signal()
            }
        }
    }

    /// Places lent now, to how many learners, and how many wait (for the tests).
    package var lent: (places: Int, learners: Int, waiting: Int) {
        state.withLock { ($0.lent, $0.held.count, $0.waiting.count) }
    }

    private func holds(_ learner: String?, _ state: State) -> Int {
        learner.flatMap { state.held[$0] } ?? 0
    }

    private func mayTake(_ learner: String?, bulk: Bool, _ state: State) -> Bool {
        let free = capacity - state.lent
        return free > 0 && (holds(learner, state) == 0 || free > capacity / 2)
            && (!bulk || state.bulkLent < capacity - keptForQuick)
    }

    private func give(_ learner: String?, bulk: Bool, _ state: inout State) {
        state.lent += 1
        if bulk { state.bulkLent += 1 }
        if let learner { state.held[learner, default: 0] += 1 }
    }

    /// The waiter to give a free place to: the earliest allowed one.
    private func nextWaiter(_ state: State) -> Int? {
        state.waiting.firstIndex { mayTake($0.learner, bulk: $0.bulk, state) }
    }
}
