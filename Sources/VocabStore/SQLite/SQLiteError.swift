import CSQLite

/// An error reported by SQLite: its result codes and message.
///
/// The SQL that failed is kept in `sql` for debugging but left out of `description`, since
/// statements and their arguments may hold the user's private text.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The primary result code (SQLITE_BUSY, SQLITE_CORRUPT, ...).
    public let code: Int32
    /// The extended result code, when SQLite gave one.
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    init(code: Int32, message: String, sql: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = code
        self.message = message
        self.sql = sql
    }

    init(code: Int32, handle: OpaquePointer?, sql: String? = nil) {
        let text = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        self.init(code: extended, message: text, sql: sql)
    }

    public var description: String { "SQLite error \(code): \(message)" }

    public var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    public var isReadOnly: Bool { code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM }
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }
}
