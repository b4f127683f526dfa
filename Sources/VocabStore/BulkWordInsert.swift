import Foundation
import VocabCore

/// The insert a bulk import runs once per new word: prepared once and bound value by value,
/// with the book's key looked up once per book (no per-row arrays or statement lookups).
struct BulkWordInsert {
    private let database: Database
    private let statement: Statement
    private var bookId: UUID?
    private var bookKey: SQLValue = .null
    /// Where the book goes: its key is found once per book, not once per word.
    private static let bookIdOffset = WordFields.all.firstIndex { $0.name == "bookId" } ?? -1

    init(database: Database) throws {
        self.database = database
        let marks = Array(repeating: "?", count: WordFields.all.count + 1).joined(separator: ", ")
        statement = try database.statement("""
            INSERT INTO words (\(Columns.wordInsert)) VALUES (\(marks)) ON CONFLICT DO NOTHING
            """)
    }

    /// Inserts `word` unless its id, or its text in its book, is taken; returns whether it did.
    mutating func insertIfNew(_ word: Word) throws -> Bool {
        if word.bookId != bookId {
            bookId = word.bookId
            bookKey = try database.first("SELECT key FROM books WHERE id = ?", [.text(word.bookId.storageText)]) { .integer($0.int(0)) } ?? .null
        }
        statement.reset()
        for (offset, field) in WordFields.all.enumerated() {
            let value = offset == Self.bookIdOffset ? bookKey : field.read(word).sqlValue
            try statement.bind(value, at: Int32(offset + 1))
        }
        try statement.bind(.text(TextRules.lookupKey(word.word)), at: Int32(WordFields.all.count + 1))
        while try statement.step() {}
        return database.changes == 1
    }
}
