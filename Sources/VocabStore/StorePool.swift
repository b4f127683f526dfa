import Dispatch
import FoundationEssentials
import Synchronization
import VocabCore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// One store file shared by many threads (a window's, a server's requests): one writer and
/// several readers, each a connection of its own (SQLite's WAL lets readers read while the
/// writer writes; a reader sees the last commit before its read began). Modelled on GRDB's
/// `DatabasePool`.
///
/// - `read` lends an idle reader connection (opened on demand, up to `maximumReaders`;
///   `query_only`, so a write through it fails); reads never wait for a write.
/// - `write` runs on the one writer connection, one write at a time, and returns what it
///   changed with its result.
/// - Observers hear of every commit: the pool's own writes at once (on the writing thread),
///   other processes' when the file changes (a thread of the pool's blocks on inotify for the
///   store's folder and then checks `PRAGMA data_version`): no front end polls on a timer.
public final class StorePool: @unchecked Sendable {
    /// The database file.
    public let path: String
    /// How many reader connections at most (readers beyond wait for one to come back).
    public let maximumReaders: Int

    // The writer and its lock: `writer` is touched only with `writeLock` held.
    private let writeLock = ThreadCondition()
    private let writer: Store
    /// What the writer's commits changed since the current write began.
    private let pendingChange = Mutex(StoreChange(books: false, words: false))

    // Idle readers, how many are open, and the condition readers wait on.
    private let readers = ThreadCondition()
    private var idle: [Store] = []
    private var openReaders = 0

    /// Checkpoints the log aside (nil: each write's commit does, as SQLite does by default).
    let checkpointer: LogCheckpointer?

    private let observers = Mutex<(next: Int, handlers: [Int: @Sendable (StoreChange) -> Void])>((0, [:]))
    private var writerObservation: ObservationToken?
    private var watcher: OutsideChangeWatcher?

    /// Opens (creating or upgrading as needed) the store in `folder`.
    public convenience init(folder: String, maximumReaders: Int = 4, watchingOtherProcesses: Bool = true, logPages: Int? = nil,
                            checkpointingAside: Bool = false) throws {
        try FolderMaker.makeFolder(folder)
        try self.init(path: FilePath.joining(folder, Store.fileName), maximumReaders: maximumReaders,
                      watchingOtherProcesses: watchingOtherProcesses, logPages: logPages, checkpointingAside: checkpointingAside)
    }

    /// Opens the store at `path` (a file: `:memory:` cannot be shared between connections).
    /// `watchingOtherProcesses` false: only this pool writes it (no watching thread).
    /// `logPages`: the write-ahead log is checkpointed whenever it holds that many pages
    /// (`Store.checkpointWriteAheadLog(everyPages:)`); nil: SQLite's default, 1,000.
    /// `checkpointingAside`: the log is checkpointed on a thread of the pool's, not by the
    /// write whose commit filled it (that write, a learner's, waited for the whole checkpoint:
    /// every third normal sync of an Anki app took 20 ms longer on a server of one learner).
    public init(path: String, maximumReaders: Int = 4, watchingOtherProcesses: Bool = true, logPages: Int? = nil,
                checkpointingAside: Bool = false) throws {
        precondition(path != ":memory:", "a pool shares a file; use Store(path: \":memory:\") alone")
        self.path = path
        self.maximumReaders = max(1, maximumReaders)
        writer = try Store(path: path)
        if checkpointingAside {
            let checkpointer = LogCheckpointer(path: path, pages: logPages ?? 1_000)
            self.checkpointer = checkpointer
            writer.database.onCommitToLog { pages in checkpointer.committed(pages: pages) }
        } else {
            checkpointer = nil
            if let logPages { try writer.checkpointWriteAheadLog(everyPages: logPages) }
        }
        writerObservation = writer.observe { [weak self] change in self?.wrote(change) }
        if watchingOtherProcesses {
            watcher = OutsideChangeWatcher(storePath: path) { [weak self] in self?.checkForOutsideChanges() }
        }
    }

    deinit {
        watcher?.stop()
    }

    // MARK: Reading

    /// Runs `body` with a reader connection (the store as of the last commit before it began;
    /// a write through it throws). Never waits for a write; waits only when every reader is busy.
    public func read<T>(_ body: (Store) throws -> T) throws -> T {
        let store = try checkOutReader()
        defer { checkIn(store) }
        return try store.guarded { try store.database.readTransaction { try body(store) } }
    }

    private func checkOutReader() throws -> Store {
        readers.lock()
        defer { readers.unlock() }
        while idle.isEmpty && openReaders >= maximumReaders { readers.wait() }
        if let store = idle.popLast() { return store }
        openReaders += 1
        do {
            let store = try Store(path: path)
            try store.guarded { try store.database.execute("PRAGMA query_only = ON") }
            return store
        } catch {
            openReaders -= 1
            readers.signal()
            throw error
        }
    }

    private func checkIn(_ store: Store) {
        readers.lock()
        idle.append(store)
        readers.signal()
        readers.unlock()
    }

    // MARK: Writing

    /// What a write returned, and what its commits changed.
    public struct Written<Value> {
        public var value: Value
        public var changed: StoreChange
    }

    /// Runs `body` on the writer connection (one write at a time; each of the store's writes
    /// is its own transaction, or wrap them in `store.transaction`). Observers hear of each
    /// commit as it happens; the result says what all of them changed.
    @discardableResult
    public func write<T>(_ body: (Store) throws -> T) throws -> Written<T> {
        writeLock.lock()
        defer { writeLock.unlock() }
        pendingChange.withLock { $0 = StoreChange(books: false, words: false) }
        let value = try body(writer)
        return Written(value: value, changed: pendingChange.withLock { $0 })
    }

    private func wrote(_ change: StoreChange) {
        pendingChange.withLock { pending in
            pending = StoreChange(books: pending.books || change.books, words: pending.words || change.words,
                                  reviews: pending.reviews || change.reviews, games: pending.games || change.games)
        }
        tell(change)
    }

    // MARK: Observing

    /// Calls `handler` after every commit to the store: the pool's own (on the writing thread)
    /// and other processes' (on the pool's watching thread). Keep the token: observation stops
    /// when it is cancelled or released.
    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> ObservationToken {
        let key = observers.withLock { state in
            defer { state.next += 1 }
            state.handlers[state.next] = handler
            return state.next
        }
        return ObservationToken { [weak self] in _ = self?.observers.withLock { $0.handlers.removeValue(forKey: key) } }
    }

    private func tell(_ change: StoreChange) {
        guard !change.isEmpty else { return }
        let handlers = observers.withLock { state in state.handlers.keys.sorted().compactMap { state.handlers[$0] } }
        for handler in handlers { handler(change) }
    }

    /// Tells the observers when another process committed since the last check (the writer's
    /// `data_version` moves only for other connections' commits, and the pool's readers write
    /// nothing). Called by the watcher; callable by anyone (tests, a file system without inotify).
    @discardableResult
    public func checkForOutsideChanges() -> Bool {
        writeLock.lock()
        defer { writeLock.unlock() }
        // `Store.checkForOutsideChanges` tells the writer's observers, i.e. `wrote`, i.e. ours.
        return (try? writer.checkForOutsideChanges()) ?? false  // a failed check is made again at the next change
    }
}

/// Watches a store's folder with inotify and calls `changed` (on a thread of its own) after
/// the store file or its write-ahead log was written, and again once the writes went quiet.
/// Without inotify (another kernel, or its limit reached) it checks twice a second instead.
final class OutsideChangeWatcher: @unchecked Sendable {
    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    private let descriptor: Int32
    private let stopped = Flag()

    init?(storePath: String, changed: @escaping @Sendable () -> Void) {
        let folder = FilePath.parentFolder(of: storePath)
        let name = FilePath.lastComponent(of: storePath)
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        self.descriptor = descriptor
        if descriptor >= 0 {
            let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
            if inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) < 0 {
                close(descriptor)
                return nil
            }
        }
        let stopped = self.stopped
        let started = Threads.start {
            if descriptor < 0 {
                while !stopped.raised.load(ordering: .relaxed) {
                    usleep(500_000)
                    changed()
                }
                return
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            // A commit writes the log (an event) and then the shared index through shared memory
            // (no event): a check right after the event may come before the commit shows, so
            // each burst is checked again once quiet for 50 ms, and again after 500 ms.
            var rechecks: [Int32] = []
            while !stopped.raised.load(ordering: .relaxed) {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, rechecks.first ?? 250) > 0 else {
                    if !rechecks.isEmpty {
                        rechecks.removeFirst()
                        changed()
                    }
                    continue  // (and wakes to see `stopped`)
                }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { continue }
                if Self.names(in: buffer, count: count).contains(where: { $0.hasPrefix(name) }) {
                    changed()
                    rechecks = [50, 450]
                }
            }
            close(descriptor)
        }
        guard started else {  // no thread to be had: the pool hears only its own writes
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
    }

    func stop() { stopped.raised.store(true, ordering: .relaxed) }

    /// The file names of the inotify events in the first `count` bytes of `buffer`.
    private static func names(in buffer: [UInt8], count: Int) -> [String] {
        var names: [String] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
            let start = offset + header, end = min(start + length, count)
            if length > 0, start < end {
                let bytes = buffer[start..<end].prefix { $0 != 0 }
                names.append(String(decoding: bytes, as: UTF8.self))
            }
            offset = start + length
        }
        return names
    }
}
