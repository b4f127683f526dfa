import Dispatch
import Synchronization
import VocabCore
import VocabStore

/// Runs store work off the main thread through a `StorePool`: writes (any size: a sync, a
/// 100,000-word import, a form's save) one at a time, in order, on the pool's writer; reads on
/// the pool's readers, at once, beside the writes. Each result comes back on the main queue,
/// so a window never waits for the store. (Search indexing and backups after its writes are
/// `StoreUpkeep`'s.)
public final class StoreWorker: Sendable {
    private let writes = DispatchQueue(label: "vocab.store-worker")
    private let reads = DispatchQueue(label: "vocab.store-reader", attributes: .concurrent)
    private let pool: LibraryPool

    public init(pool: LibraryPool) {
        self.pool = pool
    }

    /// Runs `body` with the writer on the worker's thread, then `completion` on the main queue.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T,
                                     then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        writes.async {
            let result = Result { try self.pool.write(body) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// Runs `body` with a reader on a thread of the worker's (beside any write), then
    /// `completion` on the main queue.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T,
                                  then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        reads.async {
            let result = Result { try self.pool.read(body) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// Runs `body` with the writer on the worker's thread and waits for it (tests, and work
    /// that must finish before a window closes).
    public func performAndWait<T>(_ body: (Library) throws -> T) throws -> T {
        try writes.sync { try pool.write(body) }
    }
}

/// A flag a front end sets to stop a long job; the job checks it between steps.
public final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
