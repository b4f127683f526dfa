import Dispatch
import Synchronization
import VocabCore
import VocabStore

/// Runs store work off the main thread, on a connection of its own to the same file (SQLite
/// in WAL mode lets it write while the window's connection reads), so a sync or a 100,000-word
/// import never freezes a window. Jobs run one at a time, in order; each result comes back on
/// the main queue. The window's own `Store` hears of the worker's commits through
/// `checkForOutsideChanges()`.
public final class StoreWorker: @unchecked Sendable {
    // `store` is touched only on `queue`: that is what makes this type safe to share.
    private let queue = DispatchQueue(label: "vocab.store-worker")
    private let folder: String
    private var store: Store?
    private var catchUpQueued = false

    /// `folder`: the data folder the window's store was opened in.
    public init(folder: String) {
        self.folder = folder
    }

    /// Runs `body` with the worker's store on its thread, then `completion` on the main queue.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Store) throws -> T,
                                     then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        queue.async {
            let result = Result { try body(try self.openStore()) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
            self.queueSearchCatchUp()
        }
    }

    /// After a job that left words waiting to be indexed for search (an import, a sync), indexes
    /// them a chunk per turn of the queue, so jobs asked for meanwhile (a search as you type)
    /// wait for one chunk at most.
    private func queueSearchCatchUp() {
        // Search indexing is catch-up work: words not indexed now stay in the backlog for the next
        // turn (or `vocab maintain`); nothing of the user's is lost when it fails.
        guard !catchUpQueued, let store, ((try? store.searchBacklog()) ?? 0) > 0 else { return }
        catchUpQueued = true
        queue.async {
            self.catchUpQueued = false
            var chunks = 0
            _ = try? self.store?.indexDeferredWords(isCancelled: { defer { chunks += 1 }; return chunks > 0 })
            self.queueSearchCatchUp()
        }
    }

    /// Runs `body` on the worker's thread and waits for it (tests, and work that must finish
    /// before a window closes).
    public func performAndWait<T>(_ body: (Store) throws -> T) throws -> T {
        try queue.sync { try body(try openStore()) }
    }

    private func openStore() throws -> Store {
        if let store { return store }
        let opened = try Store.open(folder: folder)
        store = opened
        return opened
    }
}

/// A flag a front end sets to stop a long job; the job checks it between steps.
public final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
