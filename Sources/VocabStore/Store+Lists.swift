import Foundation
import VocabCore

/// A row of a long word list, read when the list shows it.
public struct WordListRow: Sendable {
    public var word: Word
    /// When the word is due for review; nil when it was never reviewed.
    public var due: Timestamp?
}

extension Store {
    // MARK: Long lists (the desktop word list)

    /// The row keys of a book's words in list order (date added, then text), optionally only
    /// those whose text, definition or synonyms contain `search` (ASCII case ignored). A list of
    /// 100,000 words is 800 KB of keys; rows are read one by one with `wordListRow(key:)`.
    public func wordListKeys(bookId: UUID, search: String? = nil) throws -> [Int64] {
        let book = SQLValue.text(bookId.storageText)
        guard let needle = search.map(TextRules.clean), !needle.isEmpty else {
            return try guarded {
                try database.query("SELECT w.rowid FROM words w WHERE w.book_id = ? ORDER BY w.date, w.word, w.id", [book]) { $0.int(0) }
            }
        }
        return try guarded {
            try database.query("""
                SELECT w.rowid FROM words w WHERE w.book_id = ?1 AND (instr(lower(w.word), lower(?2)) > 0
                    OR instr(lower(w.definition), lower(?2)) > 0 OR instr(lower(w.synonym), lower(?2)) > 0
                    OR instr(lower(w.pronunciation), lower(?2)) > 0)
                ORDER BY w.date, w.word, w.id
                """, [book, .text(needle)]) { $0.int(0) }
        }
    }

    /// The word at a row key, with its due time; nil when it was deleted since the keys were read.
    public func wordListRow(key: Int64) throws -> WordListRow? {
        try guarded {
            try database.first("""
                SELECT \(Columns.word), s.due FROM words w LEFT JOIN schedules s ON s.word_id = w.id WHERE w.rowid = ?
                """, [.integer(key)]) { row in
                let decoded = try row.decodeWordWithDue()
                return WordListRow(word: decoded.word, due: decoded.due)
            }
        }
    }
}
