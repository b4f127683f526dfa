import VocabCore

/// Errors of the store: opening, identity, schema version and SQLite failures.
public enum StoreError: UserFacingError {
    case cannotCreateFolder(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case readOnly(path: String)
    case notAVocabDatabase(path: String)
    case newerSchema(path: String, found: Int64, supported: Int64)
    case corrupt(path: String, detail: String)
    case busy(path: String)
    case malformedRow(table: String, column: String)
    case sqlite(SQLiteError)

    public var category: ErrorCategory {
        switch self {
        case .cannotCreateFolder, .cannotOpen, .readOnly, .busy, .sqlite: return .storeUnavailable
        case .notAVocabDatabase, .newerSchema, .corrupt, .malformedRow: return .conflictOrCorruption
        }
    }

    public var message: String {
        switch self {
        case .cannotCreateFolder(let path, let reason):
            return "Cannot create the data folder \(path): \(reason). Set VOCAB_HOME to a folder you can write to."
        case .cannotOpen(let path, let reason):
            return "Cannot open the store \(path): \(reason). Set VOCAB_HOME to a folder you can write to."
        case .readOnly(let path):
            return "The store \(path) is read-only (or its folder is): nothing was changed. Set VOCAB_HOME to a folder you can write to."
        case .notAVocabDatabase(let path):
            return "\(path) is not a Vocab store (it is another kind of file or database); it was left untouched."
        case .newerSchema(let path, let found, let supported):
            return "\(path) was written by a newer Vocab (schema \(found); this one knows up to \(supported)). Update vocab; the store was left untouched."
        case .corrupt(let path, let detail):
            return "The store \(path) is damaged (\(detail)). Restore it from a backup or move it aside."
        case .busy(let path):
            return "The store \(path) is busy (another vocab is writing to it); try again."
        case .malformedRow(let table, let column):
            return "The store holds a malformed value in \(table).\(column); run `sqlite3` integrity checks or restore a backup."
        case .sqlite(let error):
            return "Database error: \(error.message)."
        }
    }

    /// Classifies a raw SQLite error for the store at `path`.
    static func from(_ error: SQLiteError, path: String) -> StoreError {
        if error.isCorruption { return .corrupt(path: path, detail: error.message) }
        if error.isReadOnly { return .readOnly(path: path) }
        if error.isBusy { return .busy(path: path) }
        return .sqlite(error)
    }
}
