import Dispatch
import Synchronization
import VocabCore
import VocabStore

/// Runs store work off the main thread through a `StorePool`: writes (any size: a sync, a
/// 100,000-word import, a form's save) one at a time, in order, on the pool's writer; reads on
/// the pool's readers, at once, beside the writes. Each result comes back on the main queue,
/// so a window never waits for the store.
public final class StoreWorker: Sendable {
    private let writes = DispatchQueue(label: "vocab.store-worker")
    private let reads = DispatchQueue(label: "vocab.store-reader", attributes: .concurrent)
    private let pool: StorePool
    private let catchUpQueued = Mutex(false)

    public init(pool: StorePool) {
        self.pool = pool
    }

    /// Runs `body` with the writer on the worker's thread, then `completion` on the main queue.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Store) throws -> T,
                                     then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        writes.async {
            let result = Result { try self.pool.write(body).value }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
            self.queueSearchCatchUp()
        }
    }

    /// Runs `body` with a reader on a thread of the worker's (beside any write), then
    /// `completion` on the main queue.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Store) throws -> T,
                                  then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        reads.async {
            let result = Result { try self.pool.read(body) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// After a job that left words waiting to be indexed for search (an import, a sync), indexes
    /// them a chunk per turn of the queue, so jobs asked for meanwhile (a search as you type)
    /// wait for one chunk at most.
    private func queueSearchCatchUp() {
        // Search indexing is catch-up work: words not indexed now stay in the backlog for the next
        // turn (or `vocab maintain`); nothing of the user's is lost when it fails.
        guard ((try? pool.read { try $0.searchBacklog() }) ?? 0) > 0,
              catchUpQueued.withLock({ queued in defer { queued = true }; return !queued }) else { return }
        writes.async {
            self.catchUpQueued.withLock { $0 = false }
            var chunks = 0
            _ = try? self.pool.write { try $0.indexDeferredWords(isCancelled: { defer { chunks += 1 }; return chunks > 0 }) }
            self.queueSearchCatchUp()
        }
    }

    /// Runs `body` with the writer on the worker's thread and waits for it (tests, and work
    /// that must finish before a window closes).
    public func performAndWait<T>(_ body: (Store) throws -> T) throws -> T {
        try writes.sync { try pool.write(body).value }
    }
}

/// A flag a front end sets to stop a long job; the job checks it between steps.
public final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
