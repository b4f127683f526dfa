import Dispatch
import Synchronization
import VocabCore
import VocabStore
import VocabSystem

/// The upkeep every front end that writes runs after its changes, in one place: words a bulk
/// write left unindexed are indexed for search, and the automatic backup is taken when one is
/// due (checked, the older ones compressed). One process at a time, whichever front end it is
/// (`.upkeep.lock` in the data folder): the terminal's detached `maintain`, the window, a server.
public struct Upkeep: Sendable {
    public let policy: BackupPolicy

    public init(policy: BackupPolicy) {
        self.policy = policy
    }

    /// What one run did.
    public struct Report: Equatable, Sendable {
        /// Words indexed for search.
        public var indexed: Int64 = 0
        /// The automatic backup taken, if one was due.
        public var backup: BackupInfo?
        /// Another process held the upkeep: nothing was done here.
        public var busy = false
    }

    /// Whether anything is due for `store` (a count and a look at the backups folder).
    public func isDue(_ library: Library, now: Timestamp) -> Bool {
        let store = library.store
        return (backupDue(storePath: store.path, now: now) && ((try? store.hasBooks()) ?? false)) || ((try? store.searchBacklog()) ?? 0) > 0
    }

    /// Runs what is due. `write` runs its body with the store's writer (a single connection, or a
    /// pool's writer one chunk at a time, so that other writes wait at most for one chunk);
    /// `wait`: wait for another process's upkeep to end, else report `busy` at once.
    func run(storePath: String, now: Timestamp, wait: Bool,
                    read: (_ body: (Store) throws -> Int) throws -> Int,
                    write: (_ body: (Store) throws -> Int64) throws -> Int64,
                    backUp: ((Store) throws -> BackupInfo) throws -> BackupInfo,
                    indexing: Bool = true, progress: (Int64) -> Void = { _ in }) throws -> Report {
        var report = Report()
        guard let lock = FileLock(path: Self.lockPath(storePath: storePath), wait: wait) else {
            report.busy = true
            return report
        }
        defer { lock.release() }
        // A chunk a turn: each turn is one write, so the front end's own writes interleave.
        while indexing, try read({ try $0.searchBacklog() }) > 0 {
            let step = try write { store in
                var chunks = 0
                return try store.indexDeferredWords(isCancelled: { defer { chunks += 1 }; return chunks > 0 })
            }
            if step == 0 { break }
            report.indexed += step
            progress(report.indexed)
        }
        // An empty store (a server's first start, say) has nothing to keep yet.
        if backupDue(storePath: storePath, now: now), try read({ try $0.hasBooks() ? 1 : 0 }) == 1 {
            let policy = policy
            report.backup = try backUp { store in
                let backup = try BackupService.take(Library(store), reason: "auto", policy: policy, now: now).backup
                BackupService.compressOlder(of: Library(store))
                return backup
            }
        }
        return report
    }

    /// The same on one connection of the caller's (the terminal's `maintain`); `indexing` false:
    /// only the backup, if due.
    public func run(on library: Library, now: Timestamp, wait: Bool, indexing: Bool = true,
                    progress: (Int64) -> Void = { _ in }) throws -> Report {
        let store = library.store
        return try run(storePath: store.path, now: now, wait: wait, read: { try $0(store) }, write: { try $0(store) }, backUp: { try $0(store) },
                indexing: indexing, progress: progress)
    }

    private func backupDue(storePath: String, now: Timestamp) -> Bool {
        policy.automatic && BackupService.isDue(storePath: storePath, policy: policy, now: now)
    }

    /// The lock every front end's upkeep takes: beside the store file.
    static func lockPath(storePath: String) -> String {
        FilePath.joining(FilePath.parentFolder(of: storePath), ".upkeep.lock")
    }
}

/// Upkeep for a front end that stays open on a pool (the window, `vocab serve`): after every
/// commit — its own or, where the pool watches, another process's — one run is queued on a
/// thread of its own (never more than one waiting), so a learner who only uses the phone is
/// backed up like one at the terminal. Keep it: upkeep stops when it is released.
public final class StoreUpkeep: Sendable {
    private let pool: LibraryPool
    private let upkeep: Upkeep
    private let clock: any SessionClock
    private let queue = DispatchQueue(label: "vocab.upkeep")
    private let state = Mutex<(queued: Bool, observation: ObservationToken?)>((false, nil))
    private let failed: @Sendable (Error) -> Void
    private let ran: @Sendable (Upkeep.Report) -> Void

    /// `failed` hears a run's error (a backup that could not be written, say); `ran` every run's
    /// report (tests; a front end's notice of a backup).
    public init(pool: LibraryPool, policy: BackupPolicy, clock: any SessionClock = SystemClock(),
                failed: @escaping @Sendable (Error) -> Void = { _ in }, ran: @escaping @Sendable (Upkeep.Report) -> Void = { _ in }) {
        self.pool = pool
        upkeep = Upkeep(policy: policy)
        self.clock = clock
        self.failed = failed
        self.ran = ran
    }

    /// Starts listening to the pool's commits, and queues a first run (work left by an earlier session).
    public func start() {
        let token = pool.observe { [weak self] _ in self?.schedule() }
        state.withLock { $0.observation = token }
        schedule()
    }

    /// Queues a run unless one is already waiting.
    public func schedule(after seconds: Double = 0) {
        guard state.withLock({ state in defer { state.queued = true }; return !state.queued }) else { return }
        queue.asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.queued = false }
            self.runNow()
        }
    }

    /// One run, on the caller's thread; a run another process holds is tried again in 5 s.
    @discardableResult
    public func runNow() -> Upkeep.Report? {
        do {
            let pool = self.pool
            let report = try upkeep.run(storePath: pool.path, now: clock.now(), wait: false,
                                        read: { body in try pool.pool.read(body) },
                                        write: { body in try pool.pool.write(body).value },
                                        // A reader's snapshot: the learner's writes never wait for a backup.
                                        backUp: { body in try pool.pool.read(body) })
            if report.busy { schedule(after: 5) }
            ran(report)
            return report
        } catch {
            failed(error)
            return nil
        }
    }
}
