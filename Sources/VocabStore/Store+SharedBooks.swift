import FoundationEssentials
import VocabCore

/// Shared books in this store: written only by what is pulled from their owner (under the
/// sync flag, so nothing of them enters the outbox), read and studied like any other. A
/// learner's reviews of their words are his own and travel as his; their memorised marks stay
/// on this device.
extension Store {
    /// Every followed book (and every one whose share ended here).
    public func sharedBooks() throws -> [SharedBookMark] {
        try guarded {
            try database.query("SELECT b.id, s.share, s.sharer, s.ended, s.token FROM shared_books s JOIN books b ON b.key = s.book") { row in
                guard let book = UUID(text: row.text(0)), let share = UUID(text: row.text(1)) else { return nil }
                return SharedBookMark(bookId: book, share: share, sharer: row.text(2), ended: row.int(3) != 0, token: row.int(4))
            }.compactMap { $0 }
        }
    }

    /// The mark of `bookId` when it is a shared book that still updates (nil: an own book).
    public func followedBook(_ bookId: UUID) throws -> SharedBookMark? {
        try sharedBooks().first { $0.bookId == bookId && !$0.ended }
    }

    /// The name of `bookId` when it is a book followed here (and still updating); nil otherwise.
    private func followedBookName(_ bookId: UUID) throws -> String? {
        try database.first("""
            SELECT b.name FROM shared_books s JOIN books b ON b.key = s.book WHERE b.id = ? AND s.ended = 0
            """, [.text(bookId.storageText)]) { $0.text(0) }
    }

    /// The ids of the books followed here (and still updating).
    public func followedBookIds() throws -> Set<UUID> {
        Set(try database.query("SELECT b.id FROM shared_books s JOIN books b ON b.key = s.book WHERE s.ended = 0") { UUID(text: $0.text(0)) }
            .compactMap { $0 })
    }

    /// Refuses a change to a book that is followed (it is its owner's to change).
    func refuseIfFollowed(_ bookId: UUID) throws {
        if let name = try followedBookName(bookId) { throw VocabError.bookIsShared(name) }
    }

    /// Live words of the followed book (what the cloud's count of it is compared with), from
    /// the kept counts as `liveCounts` reads them: the same cost in a book of any size.
    public func sharedWordCount(share: UUID) throws -> Int {
        try guarded {
            Int(try database.integer("""
                SELECT (SELECT coalesce(sum(words), 0) FROM book_counts WHERE book = s.book)
                     + (SELECT count(*) FROM words WHERE book = s.book AND rowid > (SELECT counted_through FROM word_marks))
                FROM shared_books s WHERE s.share = ?
                """, [.text(share.lowercaseText)]))
        }
    }

    /// Applies one page of a followed book's records (`share`, shown as `sharer`) and keeps
    /// `token` with it: the book (under its owner's name, or with the sharer's name after it
    /// when that name is taken here), new and changed words (a word's memorised mark stays as
    /// the learner left it), deleted words. Reviews of its words that arrived first apply now.
    public func applyShared(share: UUID, sharer: String, records: [SyncRecord], token: Int64) throws -> ApplySummary {
        try write {
            try database.run("INSERT INTO sync_applying VALUES (1)")
            defer { try? database.run("DELETE FROM sync_applying") }
            var summary = ApplySummary()
            var touched = Set<UUID>()
            func applying(_ record: SyncRecord, _ apply: () throws -> Void) throws {
                do {
                    try apply()
                    summary.applied += 1
                } catch let error as MalformedRecord {
                    summary.skipped.append("\(record.kind) \(record.id.lowercaseText): \(error.reason)")
                }
            }
            try keepUnderItsShare(share)
            // Every record under the id this store keeps it by (`UUID.followed`), never its owner's.
            let records = records.map { record in
                SyncRecord(kind: record.kind, id: .followed(record.id, share: share), deleted: record.deleted, body: record.body, seq: record.seq)
            }
            // The book first; then, found once, where its words go.
            for record in records where record.kind == "book" {
                try applying(record) { try applySharedBook(record, share: share, sharer: sharer) }
            }
            let book = try database.first("SELECT s.book, b.id FROM shared_books s JOIN books b ON b.key = s.book WHERE s.share = ?",
                                          [.text(share.lowercaseText)]) { row in UUID(text: row.text(1)).map { (key: row.int(0), id: $0) } } ?? nil
            for record in records.filter({ $0.kind != "book" }).sorted(by: { $0.seq < $1.seq }) {
                try applying(record) {
                    guard record.kind == "word" else { throw MalformedRecord(reason: "not a book's record") }
                    guard let book else { throw MalformedRecord(reason: "its book has not arrived") }
                    try applySharedWord(record, book: book, touched: &touched)
                }
            }
            try database.run("UPDATE shared_books SET token = ? WHERE share = ?", [.integer(token), .text(share.lowercaseText)])
            touched.formUnion(try applyPendingReviews())
            let scheduler = try self.scheduler()
            for wordId in touched where try wordExists(id: wordId) { _ = try replaySchedule(wordId: wordId, scheduler: scheduler) }
            return summary
        }
    }

    private func applySharedBook(_ record: SyncRecord, share: UUID, sharer: String) throws {
        guard !record.deleted else { return }  // a deleted book ends the share: the sync says so
        guard let body = SyncBodies.parse(record.body), let name = body["name"]?.stringValue, !name.isEmpty,
              let created = body["createdAt"]?.int64Value, let modified = body["modifiedAt"]?.int64Value
        else { throw MalformedRecord(reason: "missing name or times") }
        let idText = SQLValue.text(record.id.storageText)
        let existing = try database.first("SELECT s.share FROM books b LEFT JOIN shared_books s ON s.book = b.key WHERE b.id = ?",
                                          [idText]) { $0.isNull(0) ? "" : $0.text(0) }
        if let existing, existing != share.lowercaseText {
            throw MalformedRecord(reason: "a book of this store has its id")
        }
        let shown = try freeName(for: name, sharer: sharer, except: record.id)
        try database.run("""
            INSERT INTO books (id, name, name_key, explain, meaning, image, cover_word, created_at, modified_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, explain = excluded.explain,
                meaning = excluded.meaning, image = excluded.image, cover_word = excluded.cover_word, modified_at = excluded.modified_at
            """, [idText, .text(shown), .text(TextRules.nameKey(shown)), .text(body["explain"]?.stringValue ?? ""),
                  .text(body["meaning"]?.stringValue ?? ""), body["image"]?.stringValue.flatMap(Base64.decode).map { .blob($0) } ?? .null,
                  .text(body["coverWord"]?.stringValue ?? ""), .integer(created), .integer(modified)])
        try database.run("""
            INSERT INTO shared_books (book, share, sharer) VALUES ((SELECT key FROM books WHERE id = ?), ?, ?)
            ON CONFLICT (book) DO UPDATE SET sharer = excluded.sharer
            """, [idText, .text(share.lowercaseText), .text(sharer)])
    }

    /// `name`, or when another book here has it (or `name` must go), the name with the
    /// sharer's after it (or a number).
    private func freeName(for name: String, sharer: String, except id: UUID, keeping: Bool = true) throws -> String {
        let candidates = (keeping ? [name] : []) + ["\(name) (\(sharer.isEmpty ? "shared" : sharer))"] + (2...99).map { "\(name) (\($0))" }
        for candidate in candidates {
            let taken = try database.first("SELECT 1 FROM books WHERE name_key = ? AND id != ?",
                                           [.text(TextRules.nameKey(candidate)), .text(id.storageText)]) { _ in true } ?? false
            if !taken { return candidate }
        }
        return "\(name) (\(id.lowercaseText.prefix(8)))"
    }

    /// A word of the followed `book` (its key here and its id, the owner's book's).
    private func applySharedWord(_ record: SyncRecord, book: (key: Int64, id: UUID), touched: inout Set<UUID>) throws {
        let idText = SQLValue.text(record.id.storageText)
        let local = try database.first("SELECT book, memorized FROM words WHERE id = ?", [idText]) { ($0.int(0), $0.int(1) != 0) }
        if let local, local.0 != book.key { throw MalformedRecord(reason: "a word of another book has its id") }
        if record.deleted {
            try forgetWords("id = ?", [idText])
            return
        }
        guard let body = SyncBodies.parse(record.body), var word = SyncBodies.word(id: record.id, body: body)
        else { throw MalformedRecord(reason: "missing word, book, or times") }
        word.memorized = local?.1 ?? false
        word.bookId = book.id  // the followed book, whatever the body says
        do {
            try database.run("""
                INSERT INTO words (\(Columns.wordInsert)) VALUES (\(Columns.wordPlaceholders))
                ON CONFLICT (id) DO UPDATE SET \(Columns.wordExcluded)
                """, wordValues(word))
        } catch let error as SQLiteError where error.isConstraint {
            throw MalformedRecord(reason: "another word of the book has its text here")
        }
        touched.insert(record.id)
    }

    /// Removes a followed book and its words (the learner stopped following it, on this
    /// device or another). Nothing is pushed: none of it was ever his.
    public func removeSharedBook(share: UUID) throws {
        try write {
            try database.run("INSERT INTO sync_applying VALUES (1)")
            defer { try? database.run("DELETE FROM sync_applying") }
            try forgetWords("book = (SELECT book FROM shared_books WHERE share = ? AND ended = 0)", [.text(share.lowercaseText)])
            try database.run("DELETE FROM books WHERE key = (SELECT book FROM shared_books WHERE share = ? AND ended = 0)",
                             [.text(share.lowercaseText)])
        }
    }

    /// Keeps a book whose owner stopped sharing it as this learner's own: it no longer
    /// updates, may be changed, and is pushed to his account (with the same ids on each of his
    /// devices, so they agree).
    public func endSharedBook(share: UUID) throws {
        try write {
            guard let key = try database.first("SELECT book FROM shared_books WHERE share = ? AND ended = 0",
                                               [.text(share.lowercaseText)], { $0.int(0) }) else { return }
            try database.run("UPDATE shared_books SET ended = 1 WHERE book = ?", [.integer(key)])
            try database.run("INSERT OR REPLACE INTO outbox (kind, id) SELECT 'book', id FROM books WHERE key = ? AND \(Self.isBound)",
                             [.integer(key)])
            try database.run("INSERT OR REPLACE INTO outbox (kind, id) SELECT 'word', id FROM words WHERE book = ? AND \(Self.isBound)",
                             [.integer(key)])
            // Words of the learner's own that waited for the book (added on his other devices
            // once it ended there) go into it now.
            if let token = try database.first("SELECT value FROM sync_meta WHERE key = 'token'", [], { Int64($0.text(0)) }) ?? nil {
                _ = try applyRemote([], token: token)
            }
        }
    }

    /// Deletes followed words (`condition` on `words`), their reviews here with them. Their
    /// deletion is kept here only (a tombstone no push reads: the outbox never names them), so
    /// that reviews and marks of them arriving later from the learner's other devices are let go
    /// instead of waiting for them.
    private func forgetWords(_ condition: String, _ arguments: [SQLValue]) throws {
        try database.run("INSERT OR REPLACE INTO tombstones (id, kind, deleted_at) SELECT id, 'word', ? FROM words WHERE \(condition)",
                         [.integer(Timestamp.now().milliseconds)] + arguments)
        try database.run("DELETE FROM words WHERE \(condition)", arguments)
        _ = try applyPendingReviews()  // those waiting for these words go now
    }

    /// A followed book holding `name` takes its sharer's name after its own, so that the
    /// learner's own book of that name (`id`, arriving from his other devices) is never folded
    /// into a book that is not his.
    func makeRoomForOwnBook(named name: String, id: UUID) throws {
        guard let (key, shown, sharer) = try database.first("""
            SELECT b.key, b.name, s.sharer FROM books b JOIN shared_books s ON s.book = b.key
            WHERE b.name_key = ? AND b.id != ? AND s.ended = 0
            """, [.text(TextRules.nameKey(name)), .text(id.storageText)], { ($0.int(0), $0.text(1), $0.text(2)) }),
              let bookId = try database.first("SELECT id FROM books WHERE key = ?", [.integer(key)], { UUID(text: $0.text(0)) }) ?? nil
        else { return }
        let moved = try freeName(for: shown, sharer: sharer, except: bookId, keeping: false)
        try database.run("UPDATE books SET name = ?, name_key = ? WHERE key = ?", [.text(moved), .text(TextRules.nameKey(moved)), .integer(key)])
    }

    /// Moves a book followed here before followed books had ids of their own (its owner's ids)
    /// and its words under their followed ids (`UUID.followed`); nothing when they have them.
    /// The learner's reviews of its words stay with them (they name the word by its row).
    func keepUnderItsShare(_ share: UUID) throws {
        guard let (key, id) = try database.first("""
            SELECT b.key, b.id FROM shared_books s JOIN books b ON b.key = s.book WHERE s.share = ? AND s.ended = 0
            """, [.text(share.lowercaseText)], { row in UUID(text: row.text(1)).map { (row.int(0), $0) } }) ?? nil,
              !id.isFollowedId else { return }
        try database.run("UPDATE books SET id = ? WHERE key = ?", [.text(UUID.followed(id, share: share).storageText), .integer(key)])
        let words = try database.query("SELECT key, id FROM words WHERE book = ?", [.integer(key)]) { row in
            UUID(text: row.text(1)).map { (row.int(0), $0) }
        }.compactMap { $0 }
        for (wordKey, wordId) in words where !wordId.isFollowedId {
            try database.run("UPDATE words SET id = ? WHERE key = ?", [.text(UUID.followed(wordId, share: share).storageText), .integer(wordKey)])
        }
    }

    /// The id a word that is not here by `id` is kept under when it is a followed book's (a
    /// review or a mark named it by its owner's id before followed books had ids of their own).
    func followedWordId(for id: UUID) throws -> UUID? {
        let shares = try database.query("SELECT share FROM shared_books WHERE ended = 0") { UUID(text: $0.text(0)) }.compactMap { $0 }
        for share in shares {
            let followed = UUID.followed(id, share: share)
            if try database.first("SELECT 1 FROM words WHERE id = ?", [.text(followed.storageText)], { _ in true }) ?? false { return followed }
        }
        return nil
    }

    /// Forgets that a book was shared once (the notice that it no longer updates goes).
    public func forgetEndedShare(share: UUID) throws {
        try write { try database.run("DELETE FROM shared_books WHERE share = ? AND ended = 1", [.text(share.lowercaseText)]) }
    }

    /// After a pull of the whole book from the start: the words here that it no longer
    /// holds (moved to another of the owner's books, say) go. `ids` are the owner's.
    public func keepOnlySharedWords(share: UUID, _ ids: Set<UUID>) throws {
        let ids = Set(ids.map { UUID.followed($0, share: share) })
        try write {
            try database.run("INSERT INTO sync_applying VALUES (1)")
            defer { try? database.run("DELETE FROM sync_applying") }
            let here = try database.query("SELECT id FROM words WHERE book = (SELECT book FROM shared_books WHERE share = ?)",
                                          [.text(share.lowercaseText)]) { $0.text(0) }
            for text in here where !(UUID(text: text).map(ids.contains) ?? false) {
                try forgetWords("id = ?", [.text(text)])
            }
        }
    }
}
