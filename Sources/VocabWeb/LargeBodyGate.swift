import Synchronization

/// How many large bodies (a batch of changes of many MiB) are read into memory at once: the
/// rest wait, suspended, in the order they came, costing their spooled files and no memory.
final class LargeBodyGate: Sendable {
    let capacity: Int
    private let state = Mutex<(inUse: Int, waiting: [@Sendable () -> Void])>((0, []))

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Runs `start` now if a place is free, else once one is (on the thread that gives it back).
    func enter(_ start: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.inUse < capacity else {
                state.waiting.append(start)
                return false
            }
            state.inUse += 1
            return true
        }
        if now { start() }
    }

    /// Gives a place back: the longest waiting starts in it.
    func leave() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.waiting.isEmpty else {
                state.inUse -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?()
    }
}
