import FoundationEssentials
import VocabCore

/// Imports words into the store as an upsert: by id when the row has one, else by
/// (book, exact word text). Everything happens in one transaction: with `skipInvalid` off, the
/// first bad row rolls the whole import back.
public struct WordImporter {
    public var defaultBook: String?
    /// The book (by id) of rows that name none; it takes the place of `defaultBook`, so that a
    /// book renamed meanwhile (by a sync, say) is still the one the words go to.
    public var defaultBookId: UUID?
    public var skipInvalid: Bool
    public var now: Timestamp
    /// Asked every 1,000 rows; true stops the import with `ImportError.cancelled`, and the
    /// store stays as it was (one transaction).
    public var isCancelled: @Sendable () -> Bool = { false }

    public init(defaultBook: String? = nil, skipInvalid: Bool = false, now: Timestamp = .now()) {
        self.defaultBook = defaultBook
        self.skipInvalid = skipInvalid
        self.now = now
    }

    /// Reads every row of `reader` into `store`. `progress` is called with the number of rows
    /// read so far, every 1,000 rows. `afterWords` runs in the same transaction once every word
    /// is in (an Anki package's review log and deck covers), given the ids the file named that
    /// became new words, with the keys they are kept under: what it throws undoes it all.
    public func run(_ reader: inout WordFileReader, into store: Store, progress: (Int) -> Void = { _ in },
                    afterWords: ((_ inserted: [UUID: Int64]) throws -> Void)? = nil) throws -> ImportSummary {
        var summary = ImportSummary()
        var books = BookCache()
        var ids = TimeOrderedIDs()
        var updatedIds: [UUID] = []
        var insertedIds: [UUID: Int64] = [:]  // only kept for `afterWords`
        var inserter = try store.guarded { try BulkWordInsert(database: store.database) }
        try store.withImportCache {
        try store.transaction {
            // Bulk inserts skip the per-row outbox triggers; new words are recorded as one range below.
            let rowidBefore = try store.database.integer("SELECT coalesce(max(rowid), 0) FROM words")
            // An id the file names revives a word deleted before: only worth asking when any was.
            let anyTombstones = try store.database.integer("SELECT EXISTS (SELECT 1 FROM tombstones)") != 0
            try store.database.run("INSERT INTO sync_applying VALUES (1)")
            // Rows are read and checked on a second thread while this one writes.
            let rows = BackgroundWordReader(reader, defaultBook: defaultBook, defaultBookId: defaultBookId)
            defer { reader = rows.finish() }
            // Rows without an id wait to go in as a batch: the words they make, and each row
            // with its book.
            var pendingWords: [Word] = [], pendingRows: [(imported: ImportedWord, book: Book)] = []
            pendingWords.reserveCapacity(BulkWordInsert.batchSize)
            pendingRows.reserveCapacity(BulkWordInsert.batchSize)
            var itemsRead = 0
            func reject(_ error: Error) throws {
                guard skipInvalid, let error = error as? ImportError, let (line, reason) = error.skippable else { throw error }
                summary.rejected.append(RejectedLine(line: line, reason: reason))
            }
            // Words without an id wait for a full batch; the words of a batch that are already
            // here (by text in their book) are then updated, in the file's order.
            func flush() throws {
                for (entry, key) in zip(pendingRows, try inserter.insertAll(pendingWords)) {
                    if key != nil {
                        summary.added += 1
                        continue
                    }
                    do {
                        if let id = try update(entry.imported, in: entry.book, store: store, summary: &summary) { updatedIds.append(id) }
                    } catch { try reject(error) }
                }
                pendingWords.removeAll(keepingCapacity: true)
                pendingRows.removeAll(keepingCapacity: true)
            }
            while let item = rows.next() {
                itemsRead += 1
                do {
                    switch item {
                    case .failed(let error): throw error
                    case .word(let word) where word.id == nil:
                        let book = try books.book(for: word, store: store, now: now, created: &summary.createdBooks)
                        pendingWords.append(newWord(word, in: book, ids: &ids))
                        pendingRows.append((word, book))
                        if pendingWords.count == BulkWordInsert.batchSize { try flush() }
                    case .word(let word):
                        // A word the file names by id may rename or move a word: the words
                        // before it go in first.
                        try flush()
                        switch try upsert(word, store: store, inserter: &inserter, books: &books, ids: &ids,
                                          anyTombstones: anyTombstones, summary: &summary) {
                        case .inserted(let id): if afterWords != nil, let id { insertedIds[id] = store.database.lastInsertedRowid }
                        case .updated(let id): updatedIds.append(id)
                        case .unchanged: break
                        }
                    }
                } catch {
                    try reject(error)
                }
                if itemsRead % 1000 == 0 {
                    if isCancelled() { throw ImportError.cancelled }
                    progress(itemsRead)
                }
            }
            try flush()
            summary.rejected.sort { $0.line < $1.line }
            try store.database.run("DELETE FROM sync_applying")
            try store.recordNewWords(afterRowid: rowidBefore)
            for id in updatedIds { try store.markForPush(kind: "word", id: id) }
            for id in books.createdIds { try store.markForPush(kind: "book", id: id) }
            try afterWords?(insertedIds)
        }
        }
        return summary
    }

    /// What `upsert` did with a row.
    private enum Upsert {
        /// A new word, with the id the file gave it (nil when it gave none).
        case inserted(UUID?)
        case updated(UUID)
        case unchanged
    }

    /// Inserts or updates one word (new words are recorded for the push by rowid, updated
    /// ones by id).
    private func upsert(_ imported: ImportedWord, store: Store, inserter: inout BulkWordInsert,
                        books: inout BookCache, ids: inout TimeOrderedIDs, anyTombstones: Bool,
                        summary: inout ImportSummary) throws -> Upsert {
        let book = try books.book(for: imported, store: store, now: now, created: &summary.createdBooks)
        // Most rows of a big import are new: try the insert first, and look the word up (by
        // its id, else by its text in its book) only when the id or the text is taken.
        let word = newWord(imported, in: book, ids: &ids)
        if try inserter.insertIfNew(word) {
            if imported.id != nil, anyTombstones { try store.clearTombstone(id: word.id) }
            summary.added += 1
            return .inserted(imported.id)
        }
        guard let id = try update(imported, in: book, store: store, summary: &summary) else { return .unchanged }
        return .updated(id)
    }

    /// The word a row makes when it is new: the row's id, else a new one.
    private func newWord(_ imported: ImportedWord, in book: Book, ids: inout TimeOrderedIDs) -> Word {
        Word(id: imported.id ?? ids.next(milliseconds: now.milliseconds), bookId: book.id,
             word: imported.draft.word, definition: imported.draft.definition,
             detail: imported.draft.detail, pronunciation: imported.draft.pronunciation,
             synonym: imported.draft.synonym, antonym: imported.draft.antonym,
             date: imported.draft.date ?? imported.createdAt ?? now, memorized: imported.draft.memorized,
             createdAt: imported.createdAt ?? now, modifiedAt: imported.modifiedAt ?? imported.createdAt ?? now)
    }

    /// Updates the word a row that could not go in names (by its id, else by its text in its
    /// book) with the row's columns; returns its id, or nil when nothing changed.
    private func update(_ imported: ImportedWord, in book: Book, store: Store, summary: inout ImportSummary) throws -> UUID? {
        let byId = try imported.id.flatMap { try store.word(id: $0) }
        guard let current = try byId ?? store.wordWithExactText(imported.draft.word, inBook: book.id) else {
            throw ImportError.invalidLine(line: imported.line, reason: "its id is already used by another word")
        }
        var updated = current
        let present = imported.present
        let draft = imported.draft
        updated.bookId = book.id
        if present.contains(.word) { updated.word = draft.word }
        if present.contains(.definition) { updated.definition = draft.definition }
        if present.contains(.detail) { updated.detail = draft.detail }
        if present.contains(.pronunciation) { updated.pronunciation = draft.pronunciation }
        if present.contains(.synonym) { updated.synonym = draft.synonym }
        if present.contains(.antonym) { updated.antonym = draft.antonym }
        if present.contains(.date), let date = draft.date { updated.date = date }
        if present.contains(.memorized) { updated.memorized = draft.memorized }
        guard updated != current else {
            summary.unchanged += 1
            return nil
        }
        if updated.word != current.word || updated.bookId != current.bookId,
           let clash = try store.wordWithExactText(updated.word, inBook: updated.bookId), clash.id != current.id {
            throw ImportError.invalidLine(line: imported.line,
                reason: "\"\(updated.word)\" is already in book \"\(book.name)\" under another id")
        }
        updated.modifiedAt = max(now, current.modifiedAt)
        try store.replace(updated)
        try store.stamp(table: "words", id: updated.id, fields: SyncBodies.changedFields(current, updated), at: now)
        summary.updated += 1
        return updated.id
    }
}

/// Books met during one import, by name key and id, created when missing.
private struct BookCache {
    /// Books this import created.
    private(set) var createdIds: [UUID] = []
    private var byKey: [String: Book] = [:]
    private var byId: [UUID: Book] = [:]
    /// The book of the previous row: most files put every row in one book.
    private var last: (name: String, book: Book)?

    mutating func book(for word: ImportedWord, store: Store, now: Timestamp, created: inout [String]) throws -> Book {
        if word.bookId == nil, let last, last.name == word.bookName { return last.book }
        let found = try lookUp(word, store: store, now: now, created: &created)
        if word.bookId == nil, let name = word.bookName { last = (name, found) }
        return found
    }

    private mutating func lookUp(_ word: ImportedWord, store: Store, now: Timestamp, created: inout [String]) throws -> Book {
        if let id = word.bookId {
            if let known = byId[id] { return known }
            if let found = try store.book(id: id) {
                try store.refuseIfFollowed(found.id)
                return remember(found)
            }
        }
        guard let name = word.bookName else {
            if let id = word.bookId { throw VocabError.bookNotFound(id.storageText) }  // the default book went meanwhile
            throw ImportError.noBook(line: word.line)
        }
        let key = TextRules.nameKey(name)
        if let known = byKey[key] { return known }
        if let found = try store.book(nameKey: key) {
            try store.refuseIfFollowed(found.id)  // a followed book is its owner's to fill
            return remember(found)
        }
        var draft: BookDraft
        do {
            draft = try BookDraft(name: name).validated()
        } catch let error as VocabError {
            throw ImportError.invalidLine(line: word.line, reason: error.message.trimming { $0 == "." })
        }
        let book = Book(id: word.bookId ?? UUID.timeOrdered(milliseconds: now.milliseconds), name: draft.name, createdAt: now, modifiedAt: now)
        try store.insert(book)
        created.append(book.name)
        createdIds.append(book.id)
        return remember(book)
    }

    private mutating func remember(_ book: Book) -> Book {
        byKey[TextRules.nameKey(book.name)] = book
        byId[book.id] = book
        return book
    }
}
