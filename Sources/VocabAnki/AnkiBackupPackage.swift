import FoundationEssentials
import VocabCore
import VocabStore
import VocabSystem

/// A backup of words as an Anki package with their reviews and schedules (what the cloud keeps
/// of the words a whole collection's upload deleted). Brought back, they are new words: their
/// notes' guids name the backup and the word, so the import makes ids of its own from them (the
/// old ids stay deleted wherever the account syncs), the same ids each time it is brought back.
public enum AnkiBackupPackage {
    /// The package of the words `words` of `store` (with their books as decks), for backup `id`.
    public static func make(words: [UUID], from store: Store, id: UUID, now: Timestamp) throws -> [UInt8] {
        let folder = try PrivateFolder()
        let path = folder.file("backup.apkg")
        try AnkiExport.write(path, from: store, bookId: nil, only: Set(words), guidPrefix: "vocab-backup-\(id.lowercaseText)-", now: now)
        do {
            return try FileAccess.readBytes(path, limit: Int(Int32.max))
        } catch {
            throw AnkiPackageError.cannotWrite(reason: "the backup written could not be read back (\(error))")
        }
    }

    /// Brings `package` back into `store`: each word in the book of its deck's name (made again
    /// when gone), with its reviews; a word the store holds again (the same text in its book, or
    /// brought back before) takes the backup's fields and the reviews it lacks. Returns how many
    /// words were added or changed, and the reviews added.
    public static func restore(_ package: [UInt8], into store: Store, now: Timestamp) throws -> (words: Int, reviews: Int) {
        let folder = try PrivateFolder()
        let path = folder.file("backup.apkg")
        do {
            try Data(package).write(to: URL(fileURLWithPath: path))
        } catch {
            throw AnkiPackageError.cannotUnpack(reason: "the backup could not be written to a temporary file (\(error))")
        }
        let outcome = try AnkiImport.run(path, into: store, defaultBook: nil, skipInvalid: true, now: now)
        return (outcome.summary.added + outcome.summary.updated, outcome.reviewsAdded)
    }
}
