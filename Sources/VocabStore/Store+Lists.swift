import FoundationEssentials
import VocabCore

extension Store {
    // MARK: Long lists (the desktop word list)

    /// The row keys of a book's words in the order they came into this store; with `search`,
    /// only those matching it, best first (`searchWordKeys`). Row order needs no sort (DESIGN.md
    /// §10). A list of 100,000 words is
    /// 800 KB of keys; rows are read one by one, as they are shown, with `wordListRow(key:)`.
    public func wordListKeys(bookId: UUID, search: String? = nil) throws -> [Int64] {
        if let search, !TextRules.clean(search).isEmpty { return try searchWordKeys(search, inBook: bookId) }
        return try guarded {
            try database.query("SELECT w.rowid FROM words w WHERE w.book = \(Columns.bookKey("?")) ORDER BY w.rowid",
                               [.text(bookId.storageText)]) { $0.int(0) }
        }
    }

    /// A page of a book's words in the order they came into this store, with their due times:
    /// what a list that is paged as it scrolls reads (the book's count is in `bookSummary`). The
    /// rows skipped are counted in the book's index only.
    public func wordListPage(bookId: UUID, offset: Int, limit: Int) throws -> [WordListRow] {
        try guarded {
            try database.query("""
                SELECT \(Columns.word), s.due FROM words w LEFT JOIN schedules s ON s.word = w.key
                WHERE w.rowid IN (SELECT u.rowid FROM words u WHERE u.book = \(Columns.bookKey("?")) ORDER BY u.rowid LIMIT ? OFFSET ?)
                ORDER BY w.rowid
                """, [.text(bookId.storageText), .integer(Int64(limit)), .integer(Int64(offset))]) { row in
                let decoded = try row.decodeWordWithDue()
                return WordListRow(word: decoded.word, due: decoded.due)
            }
        }
    }

    /// The word at a row key, with its due time; nil when it was deleted since the keys were read.
    public func wordListRow(key: Int64) throws -> WordListRow? {
        try guarded {
            try database.first("""
                SELECT \(Columns.word), s.due FROM words w LEFT JOIN schedules s ON s.word = w.key WHERE w.rowid = ?
                """, [.integer(key)]) { row in
                let decoded = try row.decodeWordWithDue()
                return WordListRow(word: decoded.word, due: decoded.due)
            }
        }
    }
}
