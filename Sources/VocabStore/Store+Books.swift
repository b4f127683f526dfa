import FoundationEssentials
import VocabCore

extension Store {
    // MARK: Reading books

    /// Whether the store holds any book (an empty store has nothing to back up).
    public func hasBooks() throws -> Bool {
        try guarded { try database.integer("SELECT EXISTS (SELECT 1 FROM books)") == 1 }
    }

    /// Every book with its word counts, ordered by name (ignoring case and accents).
    public func bookSummaries() throws -> [BookSummary] {
        try guarded {
            try database.query("SELECT \(Columns.book), \(Columns.bookCounts) FROM books b") { row in
                BookSummary(book: try row.decodeBook(), wordCount: Int(row.int(8)), memorizedCount: Int(row.int(9)))
            }
        }.sorted { TextRules.sortsBefore($0.book.name, $1.book.name) }
    }

    /// The summary of one book.
    public func bookSummary(id: UUID) throws -> BookSummary {
        let summary = try guarded {
            try database.first("SELECT \(Columns.book), \(Columns.bookCounts) FROM books b WHERE b.id = ?",
                               [.text(id.storageText)]) { row in
                BookSummary(book: try row.decodeBook(), wordCount: Int(row.int(8)), memorizedCount: Int(row.int(9)))
            }
        }
        guard let summary else { throw VocabError.bookNotFound(id.storageText) }
        return summary
    }

    /// The book named `reference` (ignoring case), or whose id it is.
    public func book(_ reference: String) throws -> Book {
        let cleaned = TextRules.clean(reference)
        if let id = UUID(uuidString: cleaned), let book = try book(id: id) { return book }
        guard let found = try book(nameKey: TextRules.nameKey(cleaned)) else { throw VocabError.bookNotFound(cleaned) }
        return found
    }

    /// The book with this name (ignoring case), or nil.
    public func book(named name: String) throws -> Book? {
        try book(nameKey: TextRules.nameKey(name))
    }

    /// The book whose name has this key (`TextRules.nameKey`), or nil.
    func book(nameKey: String) throws -> Book? {
        try guarded {
            try database.first("SELECT \(Columns.book) FROM books b WHERE b.name_key = ?", [.text(nameKey)]) {
                try $0.decodeBook()
            }
        }
    }

    /// The book with this id, or nil.
    public func book(id: UUID) throws -> Book? {
        try guarded {
            try database.first("SELECT \(Columns.book) FROM books b WHERE b.id = ?", [.text(id.storageText)]) {
                try $0.decodeBook()
            }
        }
    }

    /// Names of all books by id (for showing words with their book).
    public func bookNames() throws -> [UUID: String] {
        var names: [UUID: String] = [:]
        try guarded {
            try database.forEachRow("SELECT id, name FROM books") { row in
                names[try row.uuid(0, table: "books", name: "id")] = row.text(1)
            }
        }
        return names
    }

    // MARK: Changing books

    /// Adds a new book; its name must not be taken (ignoring case).
    @discardableResult
    public func addBook(_ draft: BookDraft, now: Timestamp = .now()) throws -> Book {
        let clean = try draft.validated()
        let book = Book(name: clean.name, explain: clean.explain, meaning: clean.meaning, image: clean.image,
                        coverWord: clean.coverWord, createdAt: now, modifiedAt: now)
        try write {
            try ensureNameIsFree(book.name, except: nil)
            try insert(book)
        }
        return book
    }

    /// Inserts a book as it is, reviving its id if it was deleted before.
    func insert(_ book: Book) throws {
        try database.run("""
            INSERT INTO books (id, name, name_key, explain, meaning, image, cover_word, created_at, modified_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, bookValues(book))
        try database.run("DELETE FROM tombstones WHERE id = ?", [.text(book.id.storageText)])
    }

    /// Changes some fields of a book (renaming included); its words stay with it.
    @discardableResult
    public func updateBook(id: UUID, _ changes: BookChanges, now: Timestamp = .now()) throws -> Book {
        try write {
            guard let current = try book(id: id) else { throw VocabError.bookNotFound(id.storageText) }
            try refuseIfFollowed(id)
            var updated = try changes.applied(to: current)
            guard updated != current else { return current }
            if updated.name != current.name {
                try ensureNameIsFree(updated.name, except: id)
            }
            updated.modifiedAt = max(now, current.modifiedAt)
            try database.run("""
                UPDATE books SET name = ?2, name_key = ?3, explain = ?4, meaning = ?5, image = ?6,
                    cover_word = ?7, created_at = ?8, modified_at = ?9
                WHERE id = ?1
                """, bookValues(updated))
            try stamp(table: "books", id: id, fields: SyncBodies.changedFields(current, updated), at: now)
            return updated
        }
    }

    /// Deletes a book and all its words, remembering the deletions; returns how many words went.
    @discardableResult
    public func deleteBook(id: UUID, now: Timestamp = .now()) throws -> Int {
        try write {
            guard try book(id: id) != nil else { throw VocabError.bookNotFound(id.storageText) }
            try refuseIfFollowed(id)
            let idText = SQLValue.text(id.storageText)
            try database.run("""
                INSERT OR REPLACE INTO tombstones (id, kind, deleted_at)
                SELECT id, 'word', ? FROM words WHERE book = \(Columns.bookKey("?"))
                """, [.integer(now.milliseconds), idText])
            let wordCount = database.changes
            try recordTombstone(kind: "book", id: id, at: now)
            try database.run("DELETE FROM reviews WHERE word IN (SELECT key FROM words WHERE book = \(Columns.bookKey("?")))", [idText])
            try database.run("DELETE FROM words WHERE book = \(Columns.bookKey("?"))", [idText])
            try database.run("DELETE FROM books WHERE id = ?", [idText])
            return wordCount
        }
    }

    private func ensureNameIsFree(_ name: String, except id: UUID?) throws {
        let taken = try database.first("SELECT id FROM books WHERE name_key = ? AND id != ?",
                                        [.text(TextRules.nameKey(name)), .text(id?.storageText ?? "")]) { $0.text(0) }
        if taken != nil { throw VocabError.duplicateBookName(name) }
    }

    private func bookValues(_ book: Book) -> [SQLValue] {
        [.text(book.id.storageText), .text(book.name), .text(TextRules.nameKey(book.name)), .text(book.explain),
         .text(book.meaning), book.image.map { .blob($0) } ?? .null, .text(book.coverWord),
         .integer(book.createdAt.milliseconds), .integer(book.modifiedAt.milliseconds)]
    }
}

extension Columns {
    /// A book's word and memorised counts: `book_counts` (kept set-wise up to the counted
    /// mark) plus the words above the mark, a range that is empty after every write: no word
    /// rows are read in a book of any size.
    static let bookCounts = """
        coalesce((SELECT c.words FROM book_counts c WHERE c.book = b.key), 0)
            + (SELECT count(*) FROM words u WHERE u.rowid > (SELECT counted_through FROM word_marks) AND u.book = b.key),
        coalesce((SELECT c.memorized FROM book_counts c WHERE c.book = b.key), 0)
            + (SELECT count(*) FROM words u WHERE u.rowid > (SELECT counted_through FROM word_marks) AND u.book = b.key AND u.memorized = 1)
        """
}
