import FoundationEssentials
import VocabCore

extension Store {
    /// Applies one page of pulled records in one transaction and saves `token` with it.
    /// Books first, then words, then reviews; a word whose book has not arrived, or a review
    /// whose word has not, waits in `sync_pending`. A malformed record is skipped and reported, never a crash.
    public func applyRemote(_ records: [SyncRecord], token: Int64) throws -> ApplySummary {
        try write {
            try database.run("INSERT INTO sync_applying VALUES (1)")
            var summary = ApplySummary()
            let order = ["book": 0, "word": 1, "review": 2, "mark": 2, "settings": 3]
            let sorted = records.sorted { (order[$0.kind] ?? 3, $0.seq) < (order[$1.kind] ?? 3, $1.seq) }
            var touchedWords = Set<UUID>()
            var settingsChanged = false
            // The books followed here, read once for the page (not once per pulled word).
            let followed = try followedBookIds()
            for record in sorted {
                do {
                    if try apply(record, followed: followed, touchedWords: &touchedWords, settingsChanged: &settingsChanged) {
                        summary.applied += 1
                    } else {
                        summary.deferred += 1
                    }
                } catch let error as MalformedRecord {
                    summary.skipped.append("\(record.kind) \(record.id.lowercaseText): \(error.reason)")
                }
            }
            // Folds whose surviving book has arrived happen now; then words that waited for their book.
            let folds = try database.query("SELECT id, body FROM sync_pending WHERE kind = 'fold'") { ($0.text(0), $0.text(1)) }
            for (foldedText, survivorText) in folds {
                guard let folded = UUID(text: foldedText), let survivor = UUID(text: survivorText) else { continue }
                if try book(id: folded) == nil || foldBook(folded, into: survivor) {
                    try database.run("DELETE FROM sync_pending WHERE kind = 'fold' AND id = ?", [.text(foldedText)])
                }
            }
            let replayed = try replayPending("kind != 'fold'") { record in
                try apply(record, followed: followed, touchedWords: &touchedWords, settingsChanged: &settingsChanged)
            }
            summary.deferred = max(0, summary.deferred - replayed)
            if settingsChanged {
                try rebuildAllSchedules()  // other parameters: every schedule changes
            } else {
                let scheduler = try self.scheduler()
                for wordId in touchedWords where try wordExists(id: wordId) { _ = try replaySchedule(wordId: wordId, scheduler: scheduler) }
            }
            try database.run("DELETE FROM sync_applying")
            try database.run("INSERT OR REPLACE INTO sync_meta (key, value) VALUES ('token', ?)", [.text(String(token))])
            return summary
        }
    }

    /// Applies one record; false when it has to wait (its book, or a review's word, is not here yet).
    /// `settingsChanged` turns true when pulled learning settings were taken.
    /// `followed`: the books followed here (a record of the learner's own never writes into one).
    private func apply(_ record: SyncRecord, followed: Set<UUID>, touchedWords: inout Set<UUID>, settingsChanged: inout Bool) throws -> Bool {
        switch record.kind {
        case "book": try applyBook(record, followed: followed)
        case "word": return try applyWord(record, followed: followed, touchedWords: &touchedWords)
        case "review": return try applyReview(record, touchedWords: &touchedWords)
        case "settings": if try applyLearningSettings(record) { settingsChanged = true }
        case "mark": return try applyMark(record)
        default: throw MalformedRecord(reason: "unknown kind")
        }
        return true
    }

    // MARK: Books

    private func applyBook(_ record: SyncRecord, followed: Set<UUID>) throws {
        let idText = SQLValue.text(record.id.storageText)
        if record.deleted {
            let survivor = SyncBodies.parse(record.body)?["mergedInto"]?.stringValue.flatMap { UUID(text: $0) }
            if let survivor, try book(id: record.id) != nil {
                // Folded into a same-named book elsewhere: this device's words in it move over
                // (words it added that the folding device never saw included).
                if try !foldBook(record.id, into: survivor) {
                    try database.run("INSERT OR REPLACE INTO sync_pending (kind, id, body) VALUES ('fold', ?, ?)",
                                     [idText, .text(survivor.storageText)])
                }
                return
            }
            // The book's words go with it; their own tombstones (if they were deleted) travel separately.
            try database.run("DELETE FROM reviews WHERE word IN (SELECT key FROM words WHERE book = \(Columns.bookKey("?")))", [idText])
            try database.run("DELETE FROM words WHERE book = \(Columns.bookKey("?"))", [idText])
            try database.run("DELETE FROM books WHERE id = ?", [idText])
            try recordTombstone(kind: "book", id: record.id, at: .now(), mergedInto: survivor)
            return
        }
        if try isTombstoned(record.id) {
            try markForPush(kind: "book", id: record.id)  // deletion wins; make sure the server hears it
            return
        }
        // The learner's own record cannot be a book he follows (that is its owner's to change).
        if followed.contains(record.id) { throw MalformedRecord(reason: "the id of a book followed here") }
        guard let body = SyncBodies.parse(record.body), let name = body["name"]?.stringValue, !name.isEmpty,
              let created = body["createdAt"]?.int64Value, let modified = body["modifiedAt"]?.int64Value
        else { throw MalformedRecord(reason: "missing name or times") }
        let remoteStamps = SyncBodies.decodeStamps(body["stamps"]?.objectValue ?? [:])
        var remote = Book(id: record.id, name: name, explain: body["explain"]?.stringValue ?? "", meaning: body["meaning"]?.stringValue ?? "",
                          image: body["image"]?.stringValue.flatMap(Base64.decode), coverWord: body["coverWord"]?.stringValue ?? "",
                          createdAt: Timestamp(milliseconds: created), modifiedAt: Timestamp(milliseconds: modified))
        var stamps = remoteStamps
        if let local = try book(id: record.id) {
            let localStamps = SyncBodies.complete(try storedStamps(table: "books", id: local.id), fields: SyncBodies.bookFields,
                                                  fallback: local.modifiedAt, device: "")
            (remote, stamps) = mergeBook(local: local, localStamps: localStamps, remote: remote, remoteStamps: remoteStamps)
            if remote != local || !sameStamps(localStamps, stamps) {
                try writeBook(remote, stamps: stamps, exists: true)
            }
            if !sameStamps(remoteStamps, stamps) { try markForPush(kind: "book", id: record.id) }
        } else {
            try writeBook(remote, stamps: stamps, exists: false)
        }
    }

    private func mergeBook(local: Book, localStamps: [String: FieldStamp], remote: Book, remoteStamps: [String: FieldStamp]) -> (Book, [String: FieldStamp]) {
        var merge = StampedMerge(local: local, localStamps: localStamps, remote: remote, remoteStamps: remoteStamps)
        for field in BookFields.synced { merge.take(field) }
        var merged = merge.merged
        merged.modifiedAt = max(local.modifiedAt, remote.modifiedAt)
        return (merged, merge.stamps)
    }

    /// Writes a book; a name taken by another book merges the two: the smaller id survives,
    /// the other's words move to it and the other becomes a tombstone (the same on every device).
    private func writeBook(_ book: Book, stamps: [String: FieldStamp], exists: Bool) throws {
        try makeRoomForOwnBook(named: book.name, id: book.id)
        var folded: UUID?
        if let other = try self.book(nameKey: TextRules.nameKey(book.name)), other.id != book.id {
            if book.id.lowercaseText < other.id.lowercaseText {
                // The incoming book survives: free the name, write it, then fold the other into it.
                try database.run("UPDATE books SET name_key = name_key || ' ' || id WHERE id = ?", [.text(other.id.storageText)])
                folded = other.id
            } else {
                // The local book keeps the name; the incoming one is folded into it.
                if exists {
                    try moveWords(from: book.id, to: other.id)
                    try database.run("DELETE FROM books WHERE id = ?", [.text(book.id.storageText)])
                }
                try tombstoneForPush(kind: "book", id: book.id, mergedInto: other.id)
                return
            }
        }
        let values: [SQLValue] = [.text(book.id.storageText), .text(book.name), .text(TextRules.nameKey(book.name)), .text(book.explain),
                                  .text(book.meaning), book.image.map { .blob($0) } ?? .null, .text(book.coverWord),
                                  .integer(book.createdAt.milliseconds), .integer(book.modifiedAt.milliseconds),
                                  .text(SyncBodies.encodeStamps(stamps))]
        try database.run("""
            INSERT INTO books (id, name, name_key, explain, meaning, image, cover_word, created_at, modified_at, stamps)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, explain = excluded.explain,
                meaning = excluded.meaning, image = excluded.image, cover_word = excluded.cover_word,
                modified_at = excluded.modified_at, stamps = excluded.stamps
            """, values)
        if let folded {
            try moveWords(from: folded, to: book.id)
            try database.run("DELETE FROM books WHERE id = ?", [.text(folded.storageText)])
            try tombstoneForPush(kind: "book", id: folded, mergedInto: book.id)
        }
    }

    /// Moves a folded book's words into the surviving book and deletes it; false when the
    /// survivor has not arrived yet (the fold then waits in `sync_pending`).
    private func foldBook(_ folded: UUID, into survivor: UUID) throws -> Bool {
        guard try book(id: survivor) != nil else { return false }
        try moveWords(from: folded, to: survivor)
        try database.run("DELETE FROM books WHERE id = ?", [.text(folded.storageText)])
        try recordTombstone(kind: "book", id: folded, at: .now(), mergedInto: survivor)
        return true
    }

    private func moveWords(from source: UUID, to target: UUID) throws {
        let words = try self.words(WordFilter(bookId: source))
        for word in words {
            if let clash = try wordWithExactText(word.word, inBook: target) {
                try foldWords(word, clash)
            } else {
                try database.run("UPDATE words SET book = \(Columns.bookKey("?")) WHERE id = ?", [.text(target.storageText), .text(word.id.storageText)])
                try markForPush(kind: "word", id: word.id)
            }
        }
    }

    // MARK: Words

    private func applyWord(_ record: SyncRecord, followed: Set<UUID>, touchedWords: inout Set<UUID>) throws -> Bool {
        let idText = SQLValue.text(record.id.storageText)
        if record.deleted {
            try removeWord(id: record.id, at: .now())
            return true
        }
        if try isTombstoned(record.id) {
            try markForPush(kind: "word", id: record.id)  // deletion wins over a concurrent edit
            return true
        }
        guard let body = SyncBodies.parse(record.body), var remote = SyncBodies.word(id: record.id, body: body)
        else { throw MalformedRecord(reason: "missing word, book, or times") }
        let bookId = remote.bookId
        var home = bookId
        // A word of his own in a book he follows (written by hand): it waits, as for a book not
        // here, until the book is his (its share ended) — never into the owner's book.
        if followed.contains(bookId) {
            try database.run("INSERT OR REPLACE INTO sync_pending (kind, id, body) VALUES ('word', ?, ?)", [idText, .text(record.body)])
            return false
        }
        if try book(id: bookId) == nil {
            // A book folded into another here: the word follows it (and the move is pushed, so
            // the server and every device see it in the surviving book).
            if let survivor = try survivorOfFold(bookId), try book(id: survivor) != nil {
                home = survivor
            } else if try isTombstoned(bookId) {
                return true  // its book was deleted: the word went with it
            } else {
                try database.run("INSERT OR REPLACE INTO sync_pending (kind, id, body) VALUES ('word', ?, ?)", [idText, .text(record.body)])
                return false
            }
        }
        let remoteStamps = SyncBodies.decodeStamps(body["stamps"]?.objectValue ?? [:])
        remote.bookId = home
        touchedWords.insert(record.id)
        if let local = try word(id: record.id) {
            let localStamps = SyncBodies.complete(try storedStamps(table: "words", id: local.id), fields: SyncBodies.wordFields,
                                                  fallback: local.modifiedAt, device: "")
            let (merged, stamps) = mergeWord(local: local, localStamps: localStamps, remote: remote, remoteStamps: remoteStamps)
            if merged != local || !sameStamps(localStamps, stamps) { try writeWord(merged, stamps: stamps) }
            if !sameStamps(remoteStamps, stamps) { try markForPush(kind: "word", id: record.id) }
        } else {
            try writeWord(remote, stamps: remoteStamps)
        }
        if home != bookId, try word(id: record.id) != nil { try markForPush(kind: "word", id: record.id) }
        return true
    }

    private func mergeWord(local: Word, localStamps: [String: FieldStamp], remote: Word, remoteStamps: [String: FieldStamp]) -> (Word, [String: FieldStamp]) {
        var merge = StampedMerge(local: local, localStamps: localStamps, remote: remote, remoteStamps: remoteStamps)
        for field in WordFields.synced { merge.take(field) }
        var merged = merge.merged
        merged.modifiedAt = max(local.modifiedAt, remote.modifiedAt)
        merged.createdAt = min(local.createdAt, remote.createdAt)
        return (merged, merge.stamps)
    }

    /// Writes a word; the same text already in its book under another id folds the two.
    private func writeWord(_ word: Word, stamps: [String: FieldStamp]) throws {
        if let clash = try wordWithExactText(word.word, inBook: word.bookId), clash.id != word.id {
            try foldWords(word, clash, remoteStamps: stamps)
            return
        }
        try insertRaw(word, stamps: stamps)
    }

    private func insertRaw(_ word: Word, stamps: [String: FieldStamp]) throws {
        try database.run("""
            INSERT INTO words (\(Columns.wordInsert), stamps) VALUES (\(Columns.wordPlaceholders), ?)
            ON CONFLICT (id) DO UPDATE SET \(Columns.wordExcluded), stamps = excluded.stamps
            """, wordValues(word) + [.text(SyncBodies.encodeStamps(stamps))])
    }

    /// Two words with the same text in one book: the smaller id survives with the newest of
    /// each field, the other's reviews move to it, and the other becomes a tombstone.
    private func foldWords(_ incoming: Word, _ existing: Word, remoteStamps: [String: FieldStamp]? = nil) throws {
        let (survivorId, loserId) = incoming.id.lowercaseText < existing.id.lowercaseText ? (incoming.id, existing.id) : (existing.id, incoming.id)
        let existingStamps = SyncBodies.complete(try storedStamps(table: "words", id: existing.id), fields: SyncBodies.wordFields,
                                                 fallback: existing.modifiedAt, device: "")
        let incomingStamps: [String: FieldStamp]
        if let remoteStamps {
            incomingStamps = remoteStamps
        } else {
            incomingStamps = SyncBodies.complete(try storedStamps(table: "words", id: incoming.id), fields: SyncBodies.wordFields,
                                                 fallback: incoming.modifiedAt, device: "")
        }
        let (merged0, stamps) = mergeWord(local: existing, localStamps: existingStamps, remote: incoming, remoteStamps: incomingStamps)
        var merged = merged0
        merged.id = survivorId
        // The loser's reviews (and so its schedule) go to the survivor: moved onto the survivor's
        // key when both are here; when the survivor has not arrived, the loser's row becomes it.
        if let loserKey = try wordKey(id: loserId) {
            if let survivorKey = try wordKey(id: survivorId) {
                try database.run("UPDATE reviews SET word = ? WHERE word = ?", [.integer(survivorKey), .integer(loserKey)])
                try database.run("UPDATE outbox SET word = ? WHERE kind = 'review' AND word = ?", [.integer(survivorKey), .integer(loserKey)])
                try database.run("DELETE FROM words WHERE key = ?", [.integer(loserKey)])
            } else {
                try database.run("UPDATE words SET id = ? WHERE key = ?", [.text(survivorId.storageText), .integer(loserKey)])
            }
        }
        try insertRaw(merged, stamps: stamps)
        _ = try replaySchedule(wordId: survivorId, scheduler: try scheduler())
        try markForPush(kind: "word", id: survivorId)
        try tombstoneForPush(kind: "word", id: loserId)
    }

    // MARK: Reviews

    /// False when the review's word is not here yet (it waits in `sync_pending` for it); the
    /// review of a deleted word goes, as that word's own reviews did.
    private func applyReview(_ record: SyncRecord, touchedWords: inout Set<UUID>) throws -> Bool {
        guard !record.deleted else { return true }
        guard let body = SyncBodies.parse(record.body), let wordText = body["wordId"]?.stringValue, var wordId = UUID(text: wordText),
              let at = body["reviewedAt"]?.int64Value, let ratingValue = body["rating"]?.int64Value.map({ Int($0) }),
              let rating = Rating(rawValue: ratingValue)
        else { throw MalformedRecord(reason: "missing word, time or rating") }
        let source = body["source"]?.stringValue.flatMap(ReviewSource.init(rawValue:)) ?? .review
        if try wordKey(id: wordId) == nil, let followed = try followedWordId(for: wordId) { wordId = followed }
        guard let wordKey = try wordKey(id: wordId) else {
            if try isTombstoned(wordId) { return true }
            try database.run("INSERT OR REPLACE INTO sync_pending (kind, id, body) VALUES ('review', ?, ?)",
                             [.text(record.id.storageText), .text(record.body)])
            return false
        }
        _ = try insertReviews([(wordKey, ReviewRecord(id: record.id, wordId: wordId, reviewedAt: Timestamp(milliseconds: at),
                                                      rating: rating, durationMs: body["durationMs"]?.int64Value,
                                                      gameId: body["gameId"]?.stringValue.flatMap { UUID(text: $0) },
                                                      source: source))])
        touchedWords.insert(wordId)
        return true
    }

    /// The learner's memorised mark on a word of a book he follows, from his other device; it
    /// waits for the word when the book has not arrived. (On a word of his own, the word's
    /// record says it.)
    private func applyMark(_ record: SyncRecord) throws -> Bool {
        guard !record.deleted else { return true }
        guard let memorized = SyncBodies.parse(record.body)?["memorized"]?.boolValue else { throw MalformedRecord(reason: "no mark") }
        var wordId = record.id
        if try wordKey(id: wordId) == nil, let followed = try followedWordId(for: wordId) { wordId = followed }
        guard let book = try database.first("SELECT book FROM words WHERE id = ?", [.text(wordId.storageText)], { $0.int(0) }) else {
            if try isTombstoned(record.id) { return true }  // the word went (or its book is no longer followed)
            try database.run("INSERT OR REPLACE INTO sync_pending (kind, id, body) VALUES ('mark', ?, ?)",
                             [.text(record.id.storageText), .text(record.body)])
            return false
        }
        if try database.first("SELECT 1 FROM shared_books WHERE book = ? AND ended = 0", [.integer(book)], { _ in true }) ?? false {
            try database.run("UPDATE words SET memorized = ? WHERE id = ?", [.integer(memorized ? 1 : 0), .text(wordId.storageText)])
        }
        return true
    }

    /// Reviews and marks pulled before their word, applied now that it may be here (a followed
    /// book's words arrive by another way than the learner's own records); the words they touched.
    func applyPendingReviews() throws -> Set<UUID> {
        var touched = Set<UUID>()
        _ = try replayPending("kind IN ('review', 'mark')") { record in
            record.kind == "mark" ? try applyMark(record) : try applyReview(record, touchedWords: &touched)
        }
        return touched
    }

    /// Applies again the records waiting in `sync_pending` that `filter` (SQL) selects, reviews
    /// last, each with `apply`: one that applies leaves the queue; one that still misses what it
    /// needs, or is malformed, waits on (a store failure, though, ends the write: rolled back).
    /// How many applied.
    private func replayPending(_ filter: String, _ apply: (SyncRecord) throws -> Bool) throws -> Int {
        let pending = try database.query("SELECT kind, id, body FROM sync_pending WHERE \(filter) ORDER BY kind = 'review'") {
            ($0.text(0), $0.text(1), $0.text(2))
        }
        var applied = 0
        for (kind, idText, body) in pending {
            guard let id = UUID(text: idText) else { continue }
            let done: Bool
            do {
                done = try apply(SyncRecord(kind: kind, id: id, deleted: false, body: body))
            } catch is MalformedRecord {
                done = false
            }
            guard done else { continue }
            try database.run("DELETE FROM sync_pending WHERE kind = ? AND id = ?", [.text(kind), .text(idText)])
            applied += 1
        }
        return applied
    }

    // MARK: Helpers

    private func tombstoneForPush(kind: String, id: UUID, mergedInto: UUID? = nil) throws {
        try recordTombstone(kind: kind, id: id, at: .now(), mergedInto: mergedInto)
        try markForPush(kind: kind, id: id)
    }

    private func sameStamps(_ a: [String: FieldStamp], _ b: [String: FieldStamp]) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }
}

/// A pulled record that cannot be applied: skipped and reported.
struct MalformedRecord: Error {
    let reason: String
}
