import VocabCore

/// A backup the cloud keeps of an account: the words a whole Anki collection's upload deleted,
/// with their reviews, which the learner can bring back (`vocab.account_backups`, version 12).
public struct AccountBackup: Codable, Equatable, Sendable {
    /// Its id (a UUID's text).
    public var id: String
    /// Seconds since 1970 when it was taken.
    public var taken: Int64
    /// Why it was taken (`before-anki-upload`).
    public var reason: String
    /// How many words it holds, and its size in bytes.
    public var words: Int
    public var bytes: Int

    public init(id: String, taken: Int64, reason: String, words: Int, bytes: Int) {
        self.id = id
        self.taken = taken
        self.reason = reason
        self.words = words
        self.bytes = bytes
    }
}

/// What bringing a backup back did: the words it added again or changed (one the account holds
/// again, by its text in its book, takes the backup's fields), and the reviews it added.
public struct BackupRestored: Codable, Equatable, Sendable {
    public var words: Int
    public var reviews: Int

    public init(words: Int, reviews: Int) {
        self.words = words
        self.reviews = reviews
    }
}

/// The bounds of an account's backups, written once (the cloud's SQL is made with them).
public enum AccountBackups {
    /// The newest backups of an account the cloud keeps (`{{backups_per_account}}`); each is no
    /// larger than the account's byte cap, and none counts in it.
    public static let keptPerAccount = 3
    /// Why a server takes one before an Anki app's whole collection replaces the account's.
    public static let beforeAnkiUpload = "before-anki-upload"
}
