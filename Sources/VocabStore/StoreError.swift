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

    public var remedy: Remedy? {
        switch self {
        case .cannotCreateFolder, .cannotOpen, .readOnly: return .chooseWritableDataFolder
        case .corrupt, .malformedRow: return .restoreBackup
        case .notAVocabDatabase, .newerSchema, .busy, .sqlite: return nil
        }
    }

    /// What went wrong; where to keep the store instead is each front end's to say.
    public var sentence: Sentence {
        switch self {
        case .cannotCreateFolder(let path, let reason):
            return Sentence("Cannot create the data folder %@: %@.", .text(path), .text(reason))
        case .cannotOpen(let path, let reason):
            return Sentence("Cannot open the store %@: %@.", .text(path), .text(reason))
        case .readOnly(let path):
            return Sentence("The store %@ is read-only (or its folder is): nothing was changed.", .text(path))
        case .notAVocabDatabase(let path):
            return Sentence("%@ is not a Vocab store (it is another kind of file or database); it was left untouched.", .text(path))
        case .newerSchema(let path, let found, let supported):
            return Sentence("%@ was written by a newer Vocab (schema %@; this one knows up to %@). Update Vocab; the store was left untouched.",
                            .text(path), .number(Int(found)), .number(Int(supported)))
        case .corrupt(let path, let detail):
            return Sentence("The store %@ is damaged (%@). Restore it from a backup or move it aside.", .text(path), .text(detail))
        case .busy(let path):
            return Sentence("The store %@ is busy (another Vocab is writing to it); try again.", .text(path))
        case .malformedRow(let table, let column):
            return Sentence("The store holds a malformed value in %@; restore a backup.", .text("\(table).\(column)"))
        case .sqlite(let error):
            return Sentence("Database error: %@.", .text(error.message))
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
