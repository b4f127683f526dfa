import FoundationEssentials
import VocabCore

extension Store {
    // MARK: Reading words

    /// Words matching `filter`, oldest first (by date added, then text).
    public func words(_ filter: WordFilter = WordFilter()) throws -> [Word] {
        var words: [Word] = []
        try forEachWord(filter) { words.append($0) }
        return words
    }

    /// Streams the words matching `filter`, oldest first, without holding them all in memory;
    /// `limit` and `offset` page through them.
    public func forEachWord(_ filter: WordFilter = WordFilter(), limit: Int? = nil, offset: Int = 0,
                            _ body: (Word) throws -> Void) throws {
        let (sql, arguments) = listQuery(filter, limit: limit, offset: offset)
        try guarded {
            try database.forEachRow(sql, arguments) { try body(try $0.decodeWord()) }
        }
    }

    /// The words matching `filter` in list order, paged only when asked: with any LIMIT, SQLite
    /// sorts into a B-tree of its own instead of its sorter, and a 100,000-word list spilled
    /// that tree to disk page by page (150,000 writes; 3x the time of the sort without it).
    func listQuery(_ filter: WordFilter, limit: Int?, offset: Int) -> (String, [SQLValue]) {
        let (whereClause, arguments) = sqlCondition(filter)
        let sql = "SELECT \(Columns.wordJoined) FROM words w \(Columns.bookOfWord) \(whereClause) ORDER BY w.date, w.word, w.id"
        guard limit != nil || offset > 0 else { return (sql, arguments) }
        return (sql + " LIMIT ? OFFSET ?", arguments + [.integer(Int64(limit ?? -1)), .integer(Int64(max(0, offset)))])
    }

    /// How many words match `filter`.
    public func wordCount(_ filter: WordFilter = WordFilter()) throws -> Int {
        let (whereClause, arguments) = sqlCondition(filter)
        return try guarded { Int(try database.integer("SELECT count(*) FROM words w \(whereClause)", arguments)) }
    }

    private func sqlCondition(_ filter: WordFilter) -> (String, [SQLValue]) {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let bookId = filter.bookId {
            conditions.append("w.book = \(Columns.bookKey("?"))")
            arguments.append(.text(bookId.storageText))
        }
        if let memorized = filter.memorized {
            conditions.append("w.memorized = ?")
            arguments.append(memorized.sqlValue)
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    /// The word with this id, or nil.
    public func word(id: UUID) throws -> Word? {
        try guarded {
            try database.first("SELECT \(Columns.word) FROM words w WHERE w.id = ?", [.text(id.storageText)]) {
                try $0.decodeWord()
            }
        }
    }

    /// Whether a word with this id exists (without reading it).
    public func wordExists(id: UUID) throws -> Bool {
        try guarded { try database.integer("SELECT count(*) FROM words WHERE id = ?", [.text(id.storageText)]) > 0 }
    }

    /// The word whose id is `reference`, or whose text is `reference` (exactly, after cleaning;
    /// else ignoring case and accents) in `bookId` or, when nil, in the only book that holds it.
    public func word(_ reference: String, inBook bookId: UUID?) throws -> Word {
        let cleaned = TextRules.clean(reference)
        if let id = UUID(uuidString: cleaned), let word = try word(id: id),
           bookId == nil || word.bookId == bookId {
            return word
        }
        var candidates = try wordsWithText(cleaned, inBook: bookId, exact: true)
        if candidates.isEmpty {
            candidates = try wordsWithText(cleaned, inBook: bookId, exact: false)
        }
        if candidates.count == 1, let only = candidates.first { return only }
        if candidates.isEmpty {
            throw VocabError.wordNotFound(cleaned, book: try bookId.flatMap { try book(id: $0)?.name })
        }
        let names = try bookNames()
        if bookId == nil, Set(candidates.map(\.bookId)).count > 1 {
            throw VocabError.ambiguousWord(cleaned, books: candidates.compactMap { names[$0.bookId] }.sorted())
        }
        // Several spellings differing only in case within one book: name the exact one.
        throw VocabError.ambiguousWord(cleaned, books: candidates.map { "\(names[$0.bookId] ?? "?"): \($0.word)" })
    }

    private func wordsWithText(_ text: String, inBook bookId: UUID?, exact: Bool) throws -> [Word] {
        // Both are index look-ups: the text (unique per book), or its case- and accent-free key.
        // The book is a filter on the few rows the text finds (`+` keeps SQLite from walking the
        // whole book by its index instead: a miss in a big named book then read every word of it).
        let comparison = exact ? "w.word = ?1" : "w.word_key = ?1"
        let bookClause = bookId == nil ? "" : " AND +w.book = \(Columns.bookKey("?2"))"
        var arguments: [SQLValue] = [.text(exact ? text : TextRules.lookupKey(text))]
        if let bookId { arguments.append(.text(bookId.storageText)) }
        return try guarded {
            try database.query("SELECT \(Columns.word) FROM words w WHERE \(comparison)\(bookClause)", arguments) {
                try $0.decodeWord()
            }
        }
    }

    // MARK: Changing words

    /// Adds a word to a book; the word's text must not already be in that book. `id`: the id a
    /// device gave the word when it was made (offline, say); nil: a new one.
    @discardableResult
    public func addWord(_ draft: WordDraft, toBook bookId: UUID, id: UUID? = nil, now: Timestamp = .now()) throws -> Word {
        let clean = try draft.validated()
        let word = Word(id: id ?? .timeOrdered(), bookId: bookId, word: clean.word, definition: clean.definition, detail: clean.detail,
                        pronunciation: clean.pronunciation, synonym: clean.synonym, antonym: clean.antonym,
                        date: clean.date ?? now, memorized: clean.memorized, createdAt: now, modifiedAt: now)
        try write {
            guard let book = try book(id: bookId) else { throw VocabError.bookNotFound(bookId.storageText) }
            try refuseIfFollowed(bookId)
            try ensureWordIsFree(word.word, in: book, except: nil)
            try insert(word)
        }
        return word
    }

    /// Changes some fields of a word (its text and its book included).
    @discardableResult
    public func updateWord(id: UUID, _ changes: WordChanges, now: Timestamp = .now()) throws -> Word {
        try write {
            guard let current = try word(id: id) else { throw VocabError.wordNotFound(id.storageText, book: nil) }
            var updated = try changes.applied(to: current)
            guard updated != current else { return current }
            // A followed book's words change only by their owner; the learner's memorised mark is his.
            var marked = current
            marked.memorized = updated.memorized
            if updated != marked { try refuseIfFollowed(current.bookId) }
            if updated.bookId != current.bookId { try refuseIfFollowed(updated.bookId) }
            if updated.word != current.word || updated.bookId != current.bookId {
                guard let book = try book(id: updated.bookId) else {
                    throw VocabError.bookNotFound(updated.bookId.storageText)
                }
                try ensureWordIsFree(updated.word, in: book, except: id)
            }
            updated.modifiedAt = max(now, current.modifiedAt)
            try replace(updated)
            try stamp(table: "words", id: id, fields: SyncBodies.changedFields(current, updated), at: now)
            return updated
        }
    }

    /// Whether the word `id` was here once and was deleted (here, or on a device a sync heard from).
    public func wordWasDeleted(id: UUID) throws -> Bool {
        try guarded { try isTombstoned(id) }
    }

    /// Deletes a word, remembering the deletion.
    public func deleteWord(id: UUID, now: Timestamp = .now()) throws {
        try write {
            guard let word = try word(id: id) else { throw VocabError.wordNotFound(id.storageText, book: nil) }
            try refuseIfFollowed(word.bookId)
            try removeWord(id: id, at: now)
        }
    }

    /// Deletes a word with its review log and remembers the deletion (here or pulled).
    func removeWord(id: UUID, at time: Timestamp) throws {
        try database.run("DELETE FROM words WHERE id = ?", [.text(id.storageText)])  // its reviews and schedule go with it
        try recordTombstone(kind: "word", id: id, at: time)
    }

    /// The integer key the word with `id` is kept under (reviews and schedules refer to it).
    func wordKey(id: UUID) throws -> Int64? {
        try database.first("SELECT key FROM words WHERE id = ?", [.text(id.storageText)]) { $0.int(0) }
    }

    /// Inserts a word as it is; `clearingTombstone` revives an id that was deleted before.
    func insert(_ word: Word, clearingTombstone: Bool = true) throws {
        try database.run("""
            INSERT INTO words (\(Columns.wordInsert)) VALUES (\(Columns.wordPlaceholders))
            """, wordValues(word))
        if clearingTombstone { try clearTombstone(id: word.id) }
        try markForPush(kind: "word", id: word.id)
    }

    /// Forgets the deletion of `id` (a word with that id exists again).
    func clearTombstone(id: UUID) throws {
        try database.run("DELETE FROM tombstones WHERE id = ?", [.text(id.storageText)])
    }

    /// Writes every field of an existing word as it is.
    func replace(_ word: Word) throws {
        try database.run("""
            UPDATE words SET \(Columns.wordAssignments) WHERE id = ?1
            """, wordValues(word))
    }

    /// The word with exactly this text in this book, if any.
    public func wordWithExactText(_ text: String, inBook bookId: UUID) throws -> Word? {
        try guarded { try database.first("SELECT \(Columns.word) FROM words w WHERE w.book = \(Columns.bookKey("?")) AND w.word = ?",
                           [.text(bookId.storageText), .text(text)]) { try $0.decodeWord() } }
    }

    private func ensureWordIsFree(_ text: String, in book: Book, except id: UUID?) throws {
        let taken = try database.first("SELECT id FROM words WHERE book = \(Columns.bookKey("?")) AND word = ? AND id != ?",
                                        [.text(book.id.storageText), .text(text), .text(id?.storageText ?? "")]) {
            $0.text(0)
        }
        if taken != nil { throw VocabError.duplicateWord(text, book: book.name) }
    }

    /// Every field of `word` (in `Columns.wordInsert` order), then its look-up key.
    func wordValues(_ word: Word) -> [SQLValue] {
        WordFields.all.map { $0.read(word).sqlValue } + [.text(TextRules.lookupKey(word.word))]
    }
}
