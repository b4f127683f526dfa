import CSQLite

/// One prepared statement: prepared once, reset and re-bound for each use, finalized on deinit.
/// Never shared across threads.
public final class Statement {
    let handle: OpaquePointer
    public let sql: String
    unowned let database: Database

    init(database: Database, sql: String) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw SQLiteError(code: code, handle: database.handle, sql: sql)
        }
        self.handle = prepared
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    public func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Resets the statement for another run with new bindings (set with `bind(_:at:)`).
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds one value to parameter `index` (1-based); for hot loops that bind without arrays.
    public func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let number):
            code = sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            code = sqlite3_bind_double(handle, index, number)
        case .text(let text):
            var copy = text
            code = copy.withUTF8 { buffer in
                // A nil base address would bind NULL; an empty string must bind "".
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return vocab_sqlite3_bind_text(handle, index, "", 0)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    vocab_sqlite3_bind_text(handle, index, $0, Int32(buffer.count))
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return vocab_sqlite3_bind_blob(handle, index, base, Int32(buffer.count))
            }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: database.handle, sql: sql) }
    }

    /// Binds text whose bytes the caller keeps unchanged until the statement is reset and its
    /// bindings cleared: SQLite reads them in place instead of copying them.
    public func bindUnowned(_ text: UnsafeRawBufferPointer, at index: Int32) throws {
        guard let base = text.baseAddress else { return try bind(.text(""), at: index) }
        let code = sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: database.handle, sql: sql) }
    }

    /// Forgets every binding (they become NULL).
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer, or NULL for nil, to parameter `index`.
    public func bind(_ number: Int64?, at index: Int32) throws {
        let code = number.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: database.handle, sql: sql) }
    }

    /// Advances one step: true when a row is ready, false when the statement is done.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: code, handle: database.handle, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// The current row; valid until the next `step()`.
    public var row: Row { Row(handle: handle, statement: self) }

    /// Column positions by name (as `AS` or the column gives it), read once per statement.
    private var columnsByName: [String: Int32]?

    /// Positions of several named columns, looked up once per statement (a decoder asks for the
    /// same list on every row); nil when one is missing.
    private var columnLists: [String: [Int32]] = [:]

    func columnIndexes(_ names: [String]) -> [Int32]? {
        guard let key = names.first else { return [] }
        if let known = columnLists[key] { return known }
        var indexes: [Int32] = []
        for name in names {
            guard let index = columnIndex(name) else { return nil }
            indexes.append(index)
        }
        columnLists[key] = indexes
        return indexes
    }

    /// The position of the result column named `name`, if there is one.
    func columnIndex(_ name: String) -> Int32? {
        if columnsByName == nil {
            var names: [String: Int32] = [:]
            for index in 0..<sqlite3_column_count(handle) {
                if let cName = sqlite3_column_name(handle, index) { names[String(cString: cName)] = index }
            }
            columnsByName = names
        }
        return columnsByName?[name]
    }
}

/// Typed access to the columns of the current row of a statement.
public struct Row {
    let handle: OpaquePointer
    let statement: Statement

    /// The positions of the columns named `names` (rows are decoded by name, not by position).
    func columns(_ names: [String]) throws -> [Int32] {
        guard let indexes = statement.columnIndexes(names) else {
            throw StoreError.malformedRow(table: "query", column: names.first { statement.columnIndex($0) == nil } ?? "?")
        }
        return indexes
    }

    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    public func int(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    public func bool(_ column: Int32) -> Bool {
        sqlite3_column_int64(handle, column) != 0
    }

    public func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    public func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Calls `body` with the column's text as SQLite holds it (valid only during the call).
    public func withTextBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard let pointer = sqlite3_column_text(handle, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }

    public func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
