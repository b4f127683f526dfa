import Dispatch
import VocabSystem

/// Runs a producer on a second thread, a few batches ahead of the caller, so that preparing
/// the next batch overlaps with using this one. Batches come out in the order handed over;
/// an error the producer throws comes out of `next()` after the batches handed before it.
///
/// Always call `finish()`, also when giving up early: it stops the producer (its next
/// `hand` returns false) and waits for its thread to end.
public final class BackgroundBatches<Batch>: @unchecked Sendable {
    /// Hands a batch to the caller, waiting while it is `ahead` batches behind; false once
    /// the caller has finished (the producer should return).
    public typealias Hand = (Batch) -> Bool

    private var ahead: Int
    private var produce: ((Hand) throws -> Void)?

    // Shared by both threads, guarded by `condition`.
    private let condition = ThreadCondition()
    private var ready: [Batch] = []
    private var producing = true
    private var cancelled = false
    private var failure: (any Error)?

    private let done = DispatchSemaphore(value: 0)
    private var finished = false  // the caller's only

    /// Starts `produce` on a thread of its own at once (here, when no thread can be had).
    public init(ahead: Int = 4, produce: @escaping (Hand) throws -> Void) {
        self.ahead = max(1, ahead)
        self.produce = produce
        let started = Threads.start { [self] in
            run()
            done.signal()
        }
        if !started {
            // No second thread to be had: produce everything here, nothing waiting on the caller.
            self.ahead = .max
            run()
            done.signal()
        }
    }

    /// The next batch; nil after the last one. Throws what the producer threw, in its turn.
    public func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && producing { condition.wait() }
        guard !ready.isEmpty else {
            if let failure {
                self.failure = nil
                throw failure
            }
            return nil
        }
        condition.broadcast()
        return ready.removeFirst()
    }

    /// Stops the producer if it is still going, and waits for its thread to end.
    public func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        if !finished {
            done.wait()
            finished = true
        }
    }

    private func run() {
        var thrown: (any Error)?
        do {
            try produce?(hand)
        } catch {
            thrown = error
        }
        produce = nil  // released on this thread, with whatever it captured
        condition.lock()
        failure = thrown
        producing = false
        condition.broadcast()
        condition.unlock()
    }

    private func hand(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= ahead && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }
}
