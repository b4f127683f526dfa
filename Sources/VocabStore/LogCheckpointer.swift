import Dispatch
import Synchronization

/// Checkpoints a store's write-ahead log on a queue of its own, on a connection of its own,
/// once a commit has left `pages` pages or more in it: the write that filled it never waits for
/// the checkpoint. Passive: it copies what no reader still needs and never waits for anyone;
/// the log starts over from its beginning at the first write after a whole checkpoint.
final class LogCheckpointer: @unchecked Sendable {
    /// Where the checkpoints run, one at a time (tests suspend it to see a commit do without).
    let queue = DispatchQueue(label: "vocab.store.checkpoint")
    private let path: String
    private let pages: Int
    /// Whether a checkpoint waits on the queue already (commits meanwhile queue no other).
    private let queued = Atomic<Bool>(false)
    /// The checkpoint's connection, opened on first use; touched only on `queue`.
    private var connection: Database?

    init(path: String, pages: Int) {
        self.path = path
        self.pages = max(1, pages)
    }

    /// Notes a commit that left the log at `count` pages (on the committing thread).
    func committed(pages count: Int) {
        guard count >= pages, !queued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            queued.store(false, ordering: .releasing)
            checkpoint()
        }
    }

    private func checkpoint() {
        do {
            if connection == nil { connection = try Database(path: path, create: false) }
            try connection?.execute("PRAGMA wal_checkpoint(PASSIVE)")
        } catch {
            connection = nil  // opened again after the next commit past the mark; the log waits meanwhile
        }
    }
}
