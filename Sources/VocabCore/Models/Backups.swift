import FoundationEssentials

/// One backup file of a store.
public struct BackupInfo: Sendable, Equatable {
    public var path: String
    public var takenAt: Timestamp
    /// Why it was taken: auto, manual, before-delete, before-import, before-restore, restored
    /// (the state a restore put in place), before-upgrade, before-anki-upload (an Anki app's
    /// whole collection about to replace the account's).
    public var reason: String
    public var bytes: Int

    public init(path: String, takenAt: Timestamp, reason: String, bytes: Int) {
        self.path = path
        self.takenAt = takenAt
        self.reason = reason
        self.bytes = bytes
    }
}

/// What a store held, for a backup's list line and its check.
public struct StoreCounts: Sendable, Equatable {
    public var books: Int
    public var words: Int
    public var reviews: Int

    public init(books: Int, words: Int, reviews: Int) {
        self.books = books
        self.words = words
        self.reviews = reviews
    }
}

/// Why a backup or a restore could not be done. The store is untouched in every case.
public enum BackupError: UserFacingError, Equatable {
    case cannotWrite(folder: String, reason: String)
    case checkFailed(detail: String)
    case notABackup(path: String, reason: String)
    case noBackups(folder: String)
    case noSuchBackup(String)

    public var category: ErrorCategory {
        switch self {
        case .cannotWrite: return .storeUnavailable
        case .checkFailed: return .conflictOrCorruption
        case .notABackup, .noBackups, .noSuchBackup: return .userInput
        }
    }

    public var sentence: Sentence {
        switch self {
        case .cannotWrite(let folder, let reason):
            return Sentence("Cannot write a backup into %@: %@. The store was not changed.", .text(folder), .text(reason))
        case .checkFailed(let detail):
            return Sentence("The backup failed its check (%@) and was deleted; the store was not changed.", .text(detail))
        case .notABackup(let path, let reason):
            return Sentence("%@ is not a usable Vocab backup (%@); nothing was changed.", .text(path), .text(reason))
        case .noBackups(let folder):
            return Sentence("There are no backups in %@ yet.", .text(folder))
        case .noSuchBackup(let text):
            return Sentence("No backup matches \"%@\" (use latest, a time such as 2026-12-01T09:30, or a file).", .text(text))
        }
    }
}
