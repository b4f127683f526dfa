import VocabCloudAPI
import VocabCore
import VocabStore

/// Where the media files of a learner's Anki apps are kept (pictures and recordings of their
/// notes): each name with the SHA-1 of its content and the update number it was written at, as
/// Anki's media sync asks for them. In his store on a server of one learner
/// (`AnkiStoreMedia`), in the cloud on a cloud's servers, under the account's byte cap.
public protocol AnkiMediaKeeper {
    /// The update number of the latest change (0 before any).
    func usn() throws -> Int64
    /// The changes after `usn`, oldest first, at most `limit`.
    func changes(after usn: Int64, limit: Int) throws -> [AnkiMediaEntry]
    /// Takes what an app sent, each change at a number of its own (a file the same as held, or
    /// a deletion of one not held, changes nothing); returns the number after them.
    func apply(_ uploads: [AnkiMediaUpload]) throws -> Int64
    /// The contents of the files named, in order: up to the first not held, and no further
    /// than `bytes` in all (always the first).
    func files(_ names: [String], most bytes: Int) throws -> [(name: String, data: [UInt8])]
    /// How many files are held.
    func count() throws -> Int
}

/// The media kept in the learner's store (`vocab serve`).
public struct AnkiStoreMedia: AnkiMediaKeeper {
    let pool: LibraryPool

    public init(pool: LibraryPool) { self.pool = pool }

    public func usn() throws -> Int64 { try pool.read { try $0.store.ankiMediaUsn() } }

    public func changes(after usn: Int64, limit: Int) throws -> [AnkiMediaEntry] {
        try pool.read { try $0.store.ankiMediaChanges(after: usn, limit: limit) }
    }

    public func apply(_ uploads: [AnkiMediaUpload]) throws -> Int64 { try pool.write { try $0.store.applyAnkiMedia(uploads) } }

    public func files(_ names: [String], most bytes: Int) throws -> [(name: String, data: [UInt8])] {
        try pool.read { try $0.store.ankiMediaFiles(names, most: bytes) }
    }

    public func count() throws -> Int { try pool.read { try $0.store.ankiMediaCount() } }
}
