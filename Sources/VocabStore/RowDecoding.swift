import Foundation
import VocabCore

/// Column lists and row decoders shared by the store's queries.
enum Columns {
    static let book = "b.id, b.name, b.explain, b.meaning, b.image, b.cover_word, b.created_at, b.modified_at"
    static let word = """
        w.id, w.book_id, w.word, w.definition, w.detail, w.pronunciation, w.synonym, w.antonym, \
        w.date, w.memorized, w.created_at, w.modified_at
        """
    /// How many columns `word` has, for queries that select more after it.
    static let wordCount: Int32 = 12
    /// The columns every insert of a word writes, in the order of `Store.wordValues`: those
    /// `word` reads, and the look-up key derived from the text.
    static let wordInsert = """
        id, book_id, word, definition, detail, pronunciation, synonym, antonym, date, memorized, \
        created_at, modified_at, word_key
        """
    static let wordPlaceholders = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
}

extension Row {
    func uuid(_ column: Int32, table: String, name: String) throws -> UUID {
        guard let id = UUID(text: text(column)) else {
            throw StoreError.malformedRow(table: table, column: name)
        }
        return id
    }

    func timestamp(_ column: Int32) -> Timestamp { Timestamp(milliseconds: int(column)) }

    func decodeBook(from start: Int32 = 0) throws -> Book {
        Book(id: try uuid(start, table: "books", name: "id"), name: text(start + 1), explain: text(start + 2),
             meaning: text(start + 3), image: blob(start + 4), coverWord: text(start + 5),
             createdAt: timestamp(start + 6), modifiedAt: timestamp(start + 7))
    }

    func decodeWord(from start: Int32 = 0) throws -> Word {
        Word(id: try uuid(start, table: "words", name: "id"),
             bookId: try uuid(start + 1, table: "words", name: "book_id"),
             word: text(start + 2), definition: text(start + 3), detail: text(start + 4),
             pronunciation: text(start + 5), synonym: text(start + 6), antonym: text(start + 7),
             date: timestamp(start + 8), memorized: bool(start + 9),
             createdAt: timestamp(start + 10), modifiedAt: timestamp(start + 11))
    }

    /// A word (`Columns.word`) followed by its due time (nil when never reviewed).
    func decodeWordWithDue() throws -> (word: Word, due: Timestamp?) {
        (try decodeWord(), isNull(Columns.wordCount) ? nil : timestamp(Columns.wordCount))
    }
}

extension UUID {
    /// The form ids are stored and printed in.
    var storageText: String { lowercaseText }
}
