import FoundationEssentials
import VocabCore
import VocabSystem

/// The Vocab store: books and words in one SQLite file, with the operations that keep the
/// app's invariants (unique names, words tied to their book by id, deletions remembered).
///
/// Every write runs in one transaction; observers hear about it only after it committed.
/// A `Store` belongs to the thread that opened it.
public final class Store {
    /// The database file, or `:memory:`.
    public let path: String
    let database: Database
    /// In the order they came (a list, not a dictionary: a command that only reads pays for
    /// no hashed storage at start).
    private var observers: [(key: Int, handler: (StoreChange) -> Void)] = []
    private var nextObserverKey = 0
    private var lastDataVersion: Int64?

    /// The file name of the store inside its data folder.
    public static let fileName = "vocab.sqlite"

    /// Opens the store in `folder` (created when missing, private to the user), creating or
    /// upgrading the database as needed.
    public static func open(folder: String) throws -> Store {
        try FolderMaker.makeFolder(folder)
        return try Store(path: FilePath.joining(folder, fileName))
    }

    /// Opens the database at `path` (`":memory:"` for a private in-memory store).
    public convenience init(path: String) throws {
        try self.init(path: path, migrator: Migrator())
    }

    init(path: String, migrator: Migrator) throws {
        self.path = path
        do {
            database = try Database(path: path)
        } catch let error as SQLiteError {
            throw StoreError.cannotOpen(path: path, reason: error.message)
        }
        do {
            // A store from an older Vocab is backed up before its schema changes.
            try migrator.migrate(database, path: path) { [database] _ in
                if path != ":memory:" { _ = try StoreBackups.take(from: database, storePath: path, reason: "before-upgrade", at: .now()) }
            }
            if path != ":memory:" {
                try database.execute("PRAGMA journal_mode = WAL")
                try database.execute("PRAGMA synchronous = NORMAL")
            }
            try database.execute("PRAGMA foreign_keys = ON")
        } catch let error as SQLiteError {
            throw StoreError.from(error, path: path)
        }
        database.didCommit = { [unowned self] tables in self.notifyObservers(tables) }
        lastDataVersion = try? database.integer("PRAGMA data_version")
    }

    /// Checkpoints the write-ahead log whenever it holds `pages` pages (SQLite's default is
    /// 1,000: 8 MiB here). A log checkpointed while small is written over from its start, in
    /// pages the system already holds, instead of growing with every commit — what the many
    /// small, busy stores of a server need (DESIGN.md §10).
    public func checkpointWriteAheadLog(everyPages pages: Int) throws {
        try guarded { try database.execute("PRAGMA wal_autocheckpoint = \(max(1, pages))") }
    }

    /// The schema version of this store.
    public func schemaVersion() throws -> Int64 {
        try guarded { try database.integer("PRAGMA user_version") }
    }

    // MARK: Observation

    /// Calls `handler` after every commit that changed books, words, reviews or games,
    /// including the first data to arrive in an empty store — and only after it committed.
    /// Keep the token: observation stops when it is cancelled or released. Commits by other
    /// connections (another process, or a worker thread's own `Store`) are heard when
    /// `checkForOutsideChanges()` runs.
    public func observe(_ handler: @escaping (StoreChange) -> Void) -> ObservationToken {
        let key = nextObserverKey
        nextObserverKey += 1
        observers.append((key, handler))
        return ObservationToken { [weak self] in self?.observers.removeAll { $0.key == key } }
    }

    /// Tells the observers when another connection committed to this file since the last
    /// check (SQLite's `PRAGMA data_version`: cheap enough for a timer of a second or less).
    /// Returns whether it did.
    @discardableResult
    public func checkForOutsideChanges() throws -> Bool {
        let version = try guarded { try database.integer("PRAGMA data_version") }
        defer { lastDataVersion = version }
        guard let last = lastDataVersion, last != version else { return false }
        notify(.everything)
        return true
    }

    private func notifyObservers(_ tables: Set<String>) {
        notify(StoreChange(tables: tables))
    }

    func notify(_ change: StoreChange) {
        guard !change.isEmpty else { return }
        // An observer a handler before it cancels is not called.
        for key in observers.map(\.key) {
            observers.first { $0.key == key }?.handler(change)
        }
    }

    // MARK: Helpers for the extensions

    /// Runs `body`, turning SQLite errors into store errors.
    func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StoreError.from(error, path: path)
        }
    }

    /// Runs `body` in one transaction, turning SQLite errors into store errors.
    /// The outermost write also brings the counts and the search index up to the words it
    /// inserted (`catchUpWordMarks`), in the same transaction.
    func write<T>(_ body: () throws -> T) throws -> T {
        let outermost = !database.isInTransaction
        return try guarded {
            try database.transaction {
                let result = try body()
                if outermost { try catchUpWordMarks() }
                return result
            }
        }
    }
}

extension StoreChange {
    init(tables: Set<String>) {
        self.init(books: tables.contains("books"), words: tables.contains("words"),
                  reviews: tables.contains("reviews") || tables.contains("schedules"),
                  games: tables.contains("games") || tables.contains("game_answers"))
    }
}

extension Store {
    /// Runs a bulk change with a larger page cache of `megabytes` (`VOCAB_IMPORT_CACHE_MB` sets
    /// it for measuring), so that index pages stay in memory instead of being spilled to the WAL
    /// and read back (the default 2 MiB cache made a 100k-word import several times slower).
    /// The cache is bounded: memory stays flat.
    public func withImportCache<T>(megabytes wanted: Int = 24, _ body: () throws -> T) throws -> T {
        let megabytes = Int(ProcessInfo.processInfo.environment["VOCAB_IMPORT_CACHE_MB"] ?? "") ?? wanted
        // Statement journals in memory: a statement with triggers inside a long transaction
        // journals the pages it changes, and on disk that was a write per page (an Anki
        // import's review log: a million writes).
        // References are not checked row by row: the bulk paths write keys they have just
        // looked up or made in the same transaction (SQLite ignores this inside a transaction
        // already open: a bulk change nested in another is checked as usual).
        // Inside a transaction whose connection made a temporary table (a cloud server's copy of
        // an Anki collection), SQLite refuses to move temporary storage: only the cache grows.
        let whole = (try? database.execute("PRAGMA temp_store = MEMORY")) != nil
        try guarded { try database.execute("PRAGMA cache_size = -\(megabytes * 1024); PRAGMA foreign_keys = OFF") }
        defer {
            try? database.execute("PRAGMA cache_size = -2000; PRAGMA foreign_keys = ON" + (whole ? "; PRAGMA temp_store = DEFAULT" : ""))
            // The cache's pages and what the bulk change held, given back to the system.
            ProcessMemory.giveBackFreed()
        }
        return try body()
    }

    /// Runs several store operations as one transaction: all of them happen, or none.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try write(body)
    }
}
