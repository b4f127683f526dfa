import Foundation
import VocabCore

/// The insert a bulk import runs once per new word: prepared once and bound value by value,
/// with the book's id text made once per book (no per-row arrays or statement lookups).
struct BulkWordInsert {
    private let database: Database
    private let statement: Statement
    private var bookId: UUID?
    private var bookIdText = ""

    init(database: Database) throws {
        self.database = database
        statement = try database.statement("""
            INSERT INTO words (\(Columns.wordInsert)) VALUES (\(Columns.wordPlaceholders)) ON CONFLICT DO NOTHING
            """)
    }

    /// Inserts `word` unless its id, or its text in its book, is taken; returns whether it did.
    mutating func insertIfNew(_ word: Word) throws -> Bool {
        if word.bookId != bookId {
            bookId = word.bookId
            bookIdText = word.bookId.storageText
        }
        statement.reset()
        try statement.bind(.text(word.id.storageText), at: 1)
        try statement.bind(.text(bookIdText), at: 2)
        try statement.bind(.text(word.word), at: 3)
        try statement.bind(.text(word.definition), at: 4)
        try statement.bind(.text(word.detail), at: 5)
        try statement.bind(.text(word.pronunciation), at: 6)
        try statement.bind(.text(word.synonym), at: 7)
        try statement.bind(.text(word.antonym), at: 8)
        try statement.bind(.integer(word.date.milliseconds), at: 9)
        try statement.bind(.integer(word.memorized ? 1 : 0), at: 10)
        try statement.bind(.integer(word.createdAt.milliseconds), at: 11)
        try statement.bind(.integer(word.modifiedAt.milliseconds), at: 12)
        try statement.bind(.text(TextRules.lookupKey(word.word)), at: 13)
        while try statement.step() {}
        return database.changes == 1
    }
}
