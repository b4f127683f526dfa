import FoundationEssentials
import VocabCore
import VocabStore

/// A learner's books as a front end holds them: every read a screen or a command needs, and
/// the handle the session types take to change them. The store itself stays inside the session
/// layer, so a front end cannot write past a session type (DESIGN.md §2); the compiler says so.
public struct Library {
    /// The store the session types read and write.
    let store: Store

    /// The library over an opened store (the session layer's own tests, and its types).
    public init(_ store: Store) {
        self.store = store
    }

    /// Opens (creating or upgrading as needed) the store in `folder`. A damaged store whose
    /// backups in `backupFolder` hold a good one throws `DamagedLibrary`, naming it.
    public static func open(folder: String, backupFolder: String? = nil) throws -> Library {
        do {
            return Library(try Store.open(folder: folder))
        } catch let error as StoreError {
            switch error {
            case .corrupt, .malformedRow:
                guard let backupFolder, let backup = BackupService.newestGood(folder: backupFolder) else { throw error }
                throw DamagedLibrary(underlying: error, backup: backup)
            default:
                throw error
            }
        }
    }

    /// The error of a value in the store that cannot be read (`column` of `table`), for a
    /// reader of `forEachWordRow`'s bytes.
    public static func malformedValue(table: String, column: String) -> Error {
        StoreError.malformedRow(table: table, column: column)
    }

    /// The store file.
    public var path: String { store.path }

    /// The store file's name in a data folder.
    public static var fileName: String { Store.fileName }

    /// Calls `handler` after every commit through this library's connection; keep the token.
    public func observe(_ handler: @escaping (StoreChange) -> Void) -> ObservationToken {
        store.observe(handler)
    }
}

/// A store that cannot be opened because it is damaged, with the way back: its newest good backup.
public struct DamagedLibrary: UserFacingError {
    public let underlying: any UserFacingError
    public let backup: BackupInfo

    public var category: ErrorCategory { underlying.category }
    public var sentence: Sentence {
        Sentence("%@ The newest good backup is from %@.", .sentence(underlying.sentence), .text(backup.takenAt.iso8601))
    }
}

/// A word's fields read in place (text and ids as UTF-8 bytes, times as milliseconds, flags as
/// 0 or 1), valid only inside the closure given it: long lists written as bytes.
public struct WordFieldsView {
    @usableFromInline let row: WordFieldsRow

    /// The bytes of field `field` (an index into `WordFields.all`): text, or an id's text.
    @inlinable public func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> { row.bytes(field) }

    /// The number in field `field`: a time's milliseconds, or a flag's 0/1.
    @inlinable public func integer(_ field: Int) -> Int64 { row.integer(field) }
}

// MARK: Reads (each one the store's read of the same name)

extension Library {
    public func book(_ reference: String) throws -> Book { try store.book(reference) }
    public func book(named name: String) throws -> Book? { try store.book(named: name) }
    public func book(id: UUID) throws -> Book? { try store.book(id: id) }
    public func bookNames() throws -> [UUID: String] { try store.bookNames() }
    public func bookSummaries() throws -> [BookSummary] { try store.bookSummaries() }
    public func bookSummary(id: UUID) throws -> BookSummary { try store.bookSummary(id: id) }

    public func word(id: UUID) throws -> Word? { try store.word(id: id) }
    public func word(_ reference: String, inBook bookId: UUID?) throws -> Word { try store.word(reference, inBook: bookId) }
    public func wordWasDeleted(id: UUID) throws -> Bool { try store.wordWasDeleted(id: id) }
    public func words(_ filter: WordFilter = WordFilter()) throws -> [Word] { try store.words(filter) }
    public func wordCount(_ filter: WordFilter = WordFilter()) throws -> Int { try store.wordCount(filter) }
    public func searchWords(_ query: String, inBook bookId: UUID? = nil, limit: Int? = nil) throws -> [Word] {
        try store.searchWords(query, inBook: bookId, limit: limit)
    }
    /// Each matching word's fields in place, without a `Word` each (long lists).
    public func forEachWordRow(_ filter: WordFilter = WordFilter(), limit: Int? = nil, offset: Int = 0,
                               _ body: (WordFieldsView) throws -> Void) throws {
        try store.forEachWordRow(filter, limit: limit, offset: offset) { try body(WordFieldsView(row: $0)) }
    }

    public func wordListKeys(bookId: UUID, search: String? = nil) throws -> [Int64] { try store.wordListKeys(bookId: bookId, search: search) }
    public func wordListPage(bookId: UUID, offset: Int, limit: Int) throws -> [WordListRow] {
        try store.wordListPage(bookId: bookId, offset: offset, limit: limit)
    }
    public func wordListRow(key: Int64) throws -> WordListRow? { try store.wordListRow(key: key) }

    public func schedule(wordId: UUID) throws -> Schedule? { try store.schedule(wordId: wordId) }
    public func dueCount(inBooks bookIds: [UUID]?, at time: Timestamp) throws -> Int { try store.dueCount(inBooks: bookIds, at: time) }
    public func dueWords(inBooks bookIds: [UUID]?, at time: Timestamp, limit: Int) throws -> [ScheduledWord] {
        try store.dueWords(inBooks: bookIds, at: time, limit: limit)
    }
    public func newWordCount(inBooks bookIds: [UUID]?) throws -> Int { try store.newWordCount(inBooks: bookIds) }
    public func reviewCount() throws -> Int { try store.reviewCount() }
    public func learningSettings() throws -> LearningSettings { try store.learningSettings() }

    public func recentGames(limit: Int) throws -> [GameRecord] { try store.recentGames(limit: limit) }
    public func gameTotals() throws -> (games: Int, answered: Int, correct: Int) { try store.gameTotals() }

    public func sharedBooks() throws -> [SharedBookMark] { try store.sharedBooks() }
    public func outboxCount() throws -> Int { try store.outboxCount() }
    public func pulledThrough(for identity: String) throws -> Int64? { try store.pulledThrough(for: identity) }
}

/// One library shared by many threads (a window's, a server's requests): reads on reader
/// connections beside the one writer, each write one at a time (the store's `StorePool`).
public final class LibraryPool: Sendable {
    let pool: StorePool

    /// Opens (creating or upgrading as needed) the store in `folder`; see `StorePool` for the
    /// readers, the watching of other processes and the log's checkpoints.
    public init(folder: String, maximumReaders: Int = 4, watchingOtherProcesses: Bool = true, logPages: Int? = nil,
                checkpointingAside: Bool = false) throws {
        pool = try StorePool(folder: folder, maximumReaders: maximumReaders, watchingOtherProcesses: watchingOtherProcesses, logPages: logPages,
                             checkpointingAside: checkpointingAside)
    }

    /// The store file.
    public var path: String { pool.path }

    /// Runs `body` with a reader (the library as of the last commit before it began).
    public func read<T>(_ body: (Library) throws -> T) throws -> T {
        try pool.read { try body(Library($0)) }
    }

    /// Runs `body` on the writer (one write at a time; observers hear of each commit).
    @discardableResult
    public func write<T>(_ body: (Library) throws -> T) throws -> T {
        try pool.write { try body(Library($0)) }.value
    }

    /// Calls `handler` after every commit, this process's or another's; keep the token.
    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> ObservationToken {
        pool.observe(handler)
    }

    /// Tells the observers when another process committed since the last check.
    @discardableResult
    public func checkForOutsideChanges() -> Bool { pool.checkForOutsideChanges() }
}
