import Foundation
import VocabCore

/// The insert a bulk import runs once per new word: prepared once and bound value by value,
/// with the book's id text made once per book (no per-row arrays or statement lookups).
struct BulkWordInsert {
    private let database: Database
    private let statement: Statement
    private var bookId: UUID?
    private var bookIdText = ""
    /// Where the book id goes: its text is made once per book, not once per word.
    private static let bookIdOffset = WordFields.all.firstIndex { $0.name == "bookId" } ?? -1

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
        for (offset, field) in WordFields.all.enumerated() {
            let value = offset == Self.bookIdOffset ? .text(bookIdText) : field.read(word).sqlValue
            try statement.bind(value, at: Int32(offset + 1))
        }
        try statement.bind(.text(TextRules.lookupKey(word.word)), at: Int32(WordFields.all.count + 1))
        while try statement.step() {}
        return database.changes == 1
    }
}
