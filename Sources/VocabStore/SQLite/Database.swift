import CSQLite
import FoundationEssentials
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

/// One SQLite connection with a cache of prepared statements, scoped transactions and
/// notification of the tables each commit changed.
///
/// Not thread-safe: a connection belongs to the code that opened it.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: Statement] = [:]
    private let changeCollector = ChangeCollector()

    /// Called after each commit that changed rows, with the names of the tables it changed.
    public var didCommit: ((Set<String>) -> Void)?

    /// Opens (and with `create`, creates) the database at `path`; `":memory:"` is a private
    /// in-memory database.
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if create { flags |= SQLITE_OPEN_CREATE }
        }
        _ = Self.configured
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, handle: opened)
            sqlite3_close_v2(opened)
            throw error
        }
        self.handle = opened
        self.path = path
        sqlite3_busy_timeout(handle, 5_000)
        sqlite3_extended_result_codes(handle, 1)
        installChangeHooks()
        installFunctions()
    }

    /// Process-wide settings made once, before the first connection: no memory statistics
    /// (Vocab reads none, and keeping them takes a global lock on every allocation).
    private static let configured: Void = {
        _ = vocab_sqlite3_disable_memory_statistics()
    }()

    /// Adds the `unicase` collation Anki's collections name (case-insensitive, by Unicode's
    /// lower case), so a collection an Anki app made can be checked and read.
    public func addUnicaseCollation() {
        sqlite3_create_collation_v2(handle, "unicase", SQLITE_UTF8, nil, { _, leftCount, left, rightCount, right in
            func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
                guard let bytes, count > 0 else { return "" }
                return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self).lowercased()
            }
            let (a, b) = (text(left, leftCount), text(right, rightCount))
            return a == b ? 0 : (a < b ? -1 : 1)
        }, nil)
    }

    /// SQL functions Vocab's schema steps use: `vocab_lookup_key(text)` is
    /// `TextRules.lookupKey` (the key a word is found by), for filling `words.word_key`;
    /// `vocab_id_bytes(text)` an id's 16 bytes from its text form (NULL when it is not one).
    private func installFunctions() {
        sqlite3_create_function_v2(handle, "vocab_id_bytes", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, values in
            guard let argument = values?[0], let text = sqlite3_value_text(argument),
                  let id = UUID(text: String(cString: text)) else {
                sqlite3_result_null(context)
                return
            }
            withUnsafeBytes(of: id.uuid) { vocab_sqlite3_result_blob(context, $0.baseAddress, 16) }
        }, nil, nil, nil)
        sqlite3_create_function_v2(handle, "vocab_lookup_key", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, values in
            guard let argument = values?[0], let text = sqlite3_value_text(argument) else {
                sqlite3_result_null(context)
                return
            }
            let key = TextRules.lookupKey(String(cString: text))
            key.withCString { vocab_sqlite3_result_text(context, $0, Int32(key.utf8.count)) }
        }, nil, nil, nil)
    }

    /// Hands each commit's count of pages in the write-ahead log to `handler` (on the committing
    /// thread, within the commit: it must only note it), in place of SQLite's checkpoint at the
    /// commit's end: the log is then checkpointed where the handler says.
    func onCommitToLog(_ handler: @escaping (Int) -> Void) {
        let box = Unmanaged.passRetained(LogHook(handler))
        logHook?.release()
        logHook = box
        sqlite3_wal_hook(handle, { context, _, _, pages in
            if let context { Unmanaged<LogHook>.fromOpaque(context).takeUnretainedValue().handler(Int(pages)) }
            return SQLITE_OK
        }, box.toOpaque())
    }

    /// The handler `onCommitToLog` set, held until the connection closes.
    private var logHook: Unmanaged<LogHook>?

    private final class LogHook {
        let handler: (Int) -> Void
        init(_ handler: @escaping (Int) -> Void) { self.handler = handler }
    }

    deinit {
        sqlite3_wal_hook(handle, nil, nil)
        logHook?.release()
        sqlite3_update_hook(handle, nil, nil)
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Runs one or more statements that take no arguments (schema, pragmas).
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
        notifyIfAutocommitted()
    }

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws {
        let statement = try statement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
        notifyIfAutocommitted()
    }

    /// Calls `body` for each row the query returns.
    public func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        while try statement.step() {
            try body(statement.row)
        }
    }

    /// The rows of a query, each decoded by `decode`.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [], _ decode: (Row) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow(sql, arguments) { results.append(try decode($0)) }
        return results
    }

    /// The first row of a query, decoded, or nil when there is none.
    public func first<T>(_ sql: String, _ arguments: [SQLValue] = [], _ decode: (Row) throws -> T) throws -> T? {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        return try statement.step() ? decode(statement.row) : nil
    }

    /// The integer in the first column of the first row (0 when there is no row).
    public func integer(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64 {
        try first(sql, arguments) { $0.int(0) } ?? 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid (the integer key) of the row the last successful INSERT made.
    public var lastInsertedRowid: Int64 { sqlite3_last_insert_rowid(handle) }

    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction (a savepoint when one is already open): committed when
    /// `body` returns, rolled back when it throws.
    /// Runs `body`'s reads in one snapshot (a deferred transaction: no lock until the first
    /// read, then the file locked once instead of once a statement).
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")  // a read changed nothing: ending it cannot lose anything
            throw error
        }
    }

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            let name = "vocab_savepoint"
            // What the enclosing transaction changed so far: a rolled-back savepoint's tables
            // must not be reported when the enclosing transaction commits.
            let tablesBefore = changeCollector.tables
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name); RELEASE \(name)")
                changeCollector.tables = tablesBefore
                changeCollector.lastName = ""
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            changeCollector.tables.removeAll()
            throw error
        }
    }

    // MARK: Change hooks

    private func installChangeHooks() {
        let context = Unmanaged.passUnretained(changeCollector).toOpaque()
        sqlite3_update_hook(handle, { context, _, _, table, _ in
            guard let context, let table else { return }
            let collector = Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue()
            // A bulk insert touches one table row after row: compare bytes before making a string.
            let name = UnsafeRawBufferPointer(start: table, count: strlen(table))
            guard !collector.lastName.utf8.elementsEqual(name) else { return }
            collector.lastName = String(decoding: name, as: UTF8.self)
            collector.tables.insert(collector.lastName)
        }, context)
        sqlite3_rollback_hook(handle, { context in
            guard let context else { return }
            Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue().tables.removeAll()
        }, context)
    }

    /// After a statement outside any transaction, or the outermost COMMIT, tells `didCommit`.
    private func notifyIfAutocommitted() {
        guard !isInTransaction, !changeCollector.tables.isEmpty else { return }
        let tables = changeCollector.tables
        changeCollector.tables.removeAll()
        didCommit?(tables)
    }
}

/// Gathers the tables touched since the last commit (filled by SQLite's update hook).
private final class ChangeCollector {
    var tables: Set<String> = [] {
        didSet { if tables.isEmpty { lastName = "" } }
    }
    /// The table last added to `tables`.
    var lastName = ""
}
