import FoundationEssentials
import VocabCore

/// When and where a field was last set: newer wins; on a tie, the larger device id.
public struct FieldStamp: Comparable, Sendable {
    public var milliseconds: Int64
    public var device: String

    public static func < (lhs: FieldStamp, rhs: FieldStamp) -> Bool {
        (lhs.milliseconds, lhs.device) < (rhs.milliseconds, rhs.device)
    }
}

/// A record as it travels to and from the cloud: an object's kind and id, whether it was
/// deleted, and its fields as JSON.
public struct SyncRecord: Sendable {
    public var kind: String
    public var id: UUID
    public var deleted: Bool
    /// JSON object text (for deleted records: `{}` or the last known fields).
    public var body: String
    /// The server's sequence number (pulled records only).
    public var seq: Int64

    public init(kind: String, id: UUID, deleted: Bool, body: String, seq: Int64 = 0) {
        self.kind = kind
        self.id = id
        self.deleted = deleted
        self.body = body
        self.seq = seq
    }
}

/// One local change waiting to be pushed, and where it waits.
public struct OutboxEntry: Sendable {
    /// A row of the outbox (its rowid tells whether the object changed again since), or a
    /// word of an import's range (`outbox_word_ranges`).
    public enum Place: Sendable, Equatable {
        case outbox(rowid: Int64)
        case range(rowid: Int64, wordRowid: Int64)
    }

    public var place: Place
    public var record: SyncRecord
}

/// What applying pulled records did.
public struct ApplySummary: Sendable, Equatable {
    public var applied = 0
    public var skipped: [String] = []
    public var deferred = 0
}

extension Store {
    // MARK: Sync bookkeeping

    /// This device's id (made on first use), used to break ties between equal field stamps.
    public func deviceId() throws -> String {
        try write {
            if let id = try meta("device") { return id }
            let id = UUID.random().lowercaseText
            try setMeta("device", id)
            return id
        }
    }

    /// The account (server, database and user) this store syncs with; nil before its first sync.
    public func boundAccount() throws -> String? {
        try guarded { try meta("server") }
    }

    /// The server token (last sequence number pulled) for the server `identity`. A store not yet
    /// bound is bound to `identity` here; a store bound to another account is rebound only when
    /// the caller says so (`SyncEngine` asks the user first): it starts over at 0 and queues
    /// everything local for the new account.
    public func syncToken(for identity: String) throws -> Int64 {
        try write {
            if try meta("server") != identity {
                try setMeta("server", identity)
                try setMeta("token", "0")
                // Everything local must reach the new server: every word of the learner's own as
                // one range (read in rowid order at push time, after the books; it ends at his
                // last own word, so that followed books' words after it are never read for it),
                // the rest as outbox rows.
                try database.execute("""
                    INSERT OR IGNORE INTO outbox (kind, id) SELECT 'book', id FROM books WHERE key NOT IN \(Self.followedBookKeys);
                    DELETE FROM outbox WHERE kind = 'word' AND id IN (SELECT id FROM words);
                    DELETE FROM outbox_word_ranges;
                    INSERT INTO outbox_word_ranges (after_rowid, through_rowid)
                        SELECT 0, max(rowid) FROM words WHERE book NOT IN \(Self.followedBookKeys) HAVING max(rowid) > 0;
                    INSERT OR IGNORE INTO outbox (kind, id, word) SELECT 'review', \(Columns.idText("id")), word FROM reviews;
                    INSERT OR IGNORE INTO outbox (kind, id) SELECT kind, id FROM tombstones;
                    INSERT OR IGNORE INTO outbox (kind, id) SELECT 'settings', '\(Self.learningSettingsId.storageText)' FROM learning_settings;
                    """)
            }
            return Int64(try meta("token") ?? "0") ?? 0
        }
    }

    /// Moves the binding from `old` to `new`, keeping what was pulled: the same account
    /// reached another way (a device that synced through SQL now syncs through a Vocab server
    /// of the same cloud). False when the store was not bound to `old`.
    @discardableResult
    public func rebind(from old: String, to new: String) throws -> Bool {
        try write {
            guard try meta("server") == old else { return false }
            try setMeta("server", new)
            return true
        }
    }

    /// The keys of the books followed from other learners (not the learner's: never counted
    /// or pushed as his).
    static let followedBookKeys = "(SELECT book FROM shared_books WHERE ended = 0)"

    /// Live books, words and reviews in this store (a followed book's not among them: the
    /// cloud keeps it in its owner's account), and how many pulled objects still wait
    /// (words for their book, folds for their survivor): what a sync's closing check compares.
    /// Words are read from the kept counts (`book_counts`, and the new words above the counted
    /// mark) and reviews from the log's tally (`review_tally`), so the check costs the same in a
    /// store of any size; books are counted.
    public func liveCounts() throws -> (books: Int, words: Int, reviews: Int, waiting: Int) {
        try guarded {
            let row = try database.first("""
                SELECT (SELECT count(*) FROM books WHERE key NOT IN \(Self.followedBookKeys)),
                       (SELECT coalesce(sum(words), 0) FROM book_counts WHERE book NOT IN \(Self.followedBookKeys))
                           + (SELECT count(*) FROM words WHERE rowid > (SELECT counted_through FROM word_marks)
                              AND book NOT IN \(Self.followedBookKeys)),
                       (SELECT n FROM review_tally),
                       (SELECT count(*) FROM sync_pending)
                """) { (Int($0.int(0)), Int($0.int(1)), Int($0.int(2)), Int($0.int(3))) }
            return row ?? (0, 0, 0, 0)
        }
    }

    /// Forgets what this store knows of the server (token and binding stay with the account
    /// `identity`): the next sync pulls everything from the start and offers everything local
    /// again — the repair when a sync's closing counts disagree.
    public func forgetSyncProgress(for identity: String) throws {
        try write {
            try database.run("DELETE FROM sync_meta WHERE key IN ('server', 'token')")
            _ = try syncToken(for: identity)
        }
    }

    /// The token pulled so far from `identity`, without binding: nil when the store is not
    /// bound to that account (a read, for a reader connection).
    public func pulledThrough(for identity: String) throws -> Int64? {
        try guarded {
            guard try meta("server") == identity else { return nil }
            return Int64(try meta("token") ?? "0") ?? 0
        }
    }

    public func setSyncToken(_ token: Int64) throws {
        try write { try setMeta("token", String(token)) }
    }

    /// How many local changes wait to be pushed (none before the store is bound to an account).
    public func outboxCount() throws -> Int {
        try guarded {
            let ranged = try database.integer("""
                SELECT count(*) FROM outbox_word_ranges r JOIN words w ON w.rowid > r.after_rowid AND w.rowid <= r.through_rowid
                WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'word' AND o.id = w.id)
                  AND w.book NOT IN \(Self.followedBookKeys)
                """)
            return Int(try database.integer("SELECT count(*) FROM outbox") + ranged)
        }
    }

    /// Puts an object in the outbox; a new rowid if it was there, so a push that read it
    /// before this change keeps it. A store not bound to an account keeps no outbox: binding
    /// it queues everything (`syncToken(for:)`).
    func markForPush(kind: String, id: UUID) throws {
        try database.run("""
            INSERT OR REPLACE INTO outbox (kind, id) SELECT ?, ? WHERE \(Self.isBound)
            """, [.text(kind), .text(id.storageText)])
    }

    /// SQL that is true when this store is bound to an account (the outbox triggers say the same).
    static let isBound = "EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')"

    /// Remembers the deletion of an object (with the book a folded book went into), so that
    /// it travels and wins over edits made elsewhere.
    func recordTombstone(kind: String, id: UUID, at time: Timestamp, mergedInto: UUID? = nil) throws {
        try database.run("INSERT OR REPLACE INTO tombstones (id, kind, deleted_at, merged_into) VALUES (?, ?, ?, ?)",
                         [.text(id.storageText), .text(kind), .integer(time.milliseconds),
                          mergedInto.map { .text($0.storageText) } ?? .null])
    }

    /// Whether the object `id` was deleted here or the deletion was pulled.
    func isTombstoned(_ id: UUID) throws -> Bool {
        try database.first("SELECT 1 FROM tombstones WHERE id = ?", [.text(id.storageText)]) { _ in true } ?? false
    }

    /// The book a folded book was merged into, if `bookId` was folded (its tombstone says so).
    func survivorOfFold(_ bookId: UUID) throws -> UUID? {
        try database.first("SELECT merged_into FROM tombstones WHERE id = ? AND merged_into IS NOT NULL",
                           [.text(bookId.storageText)]) { $0.text(0) }.flatMap { UUID(text: $0) }
    }

    /// Records that the words inserted after `rowid` (by a bulk import, in this transaction)
    /// wait to be pushed: one row instead of one outbox row per word.
    func recordNewWords(afterRowid rowid: Int64) throws {
        try database.run("""
            INSERT INTO outbox_word_ranges (after_rowid, through_rowid)
            SELECT ?1, max(rowid) FROM words WHERE \(Self.isBound) HAVING max(rowid) > ?1
            """, [.integer(rowid)])
    }

    /// Up to `limit` local changes after `last` (nil: from the first), each with the record to
    /// push: outbox rows oldest first, then the words of imports' ranges.
    public func outbox(after last: OutboxEntry? = nil, limit: Int) throws -> [OutboxEntry] {
        try guarded {
            let device = try deviceId()
            var entries: [OutboxEntry] = []
            var rangeStart: (range: Int64, word: Int64)?
            switch last?.place {
            case .range(let range, let word)?:
                rangeStart = (range, word)
            case .outbox(let rowid)?:
                try readOutboxRows(after: rowid, limit: limit, device: device, into: &entries)
            case nil:
                try readOutboxRows(after: 0, limit: limit, device: device, into: &entries)
            }
            guard entries.count < limit else { return entries }
            let ranges = try database.query("""
                SELECT rowid, after_rowid, through_rowid FROM outbox_word_ranges WHERE rowid >= ? ORDER BY rowid
                """, [.integer(rangeStart?.range ?? 0)]) { ($0.int(0), $0.int(1), $0.int(2)) }
            for (range, after, through) in ranges where entries.count < limit {
                let from = range == rangeStart?.range ? max(after, rangeStart?.word ?? after) : after
                // A word changed again since the import waits in the outbox too: it goes from there.
                try database.forEachRow("""
                    SELECT w.rowid, w.stamps, \(Columns.word) FROM words w
                    WHERE w.rowid > ? AND w.rowid <= ?
                      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'word' AND o.id = w.id)
                      AND w.book NOT IN \(Self.followedBookKeys)
                    ORDER BY w.rowid LIMIT ?
                    """, [.integer(from), .integer(through), .integer(Int64(limit - entries.count))]) { row in
                    let word = try row.decodeWord()
                    let body = SyncBodies.word(word, stamps: try SyncBodies.decodeStamps(row.text(1), table: "words"), device: device)
                    entries.append(OutboxEntry(place: .range(rowid: range, wordRowid: row.int(0)),
                                               record: SyncRecord(kind: "word", id: word.id, deleted: false, body: body)))
                }
            }
            return entries
        }
    }

    private func readOutboxRows(after: Int64, limit: Int, device: String, into entries: inout [OutboxEntry]) throws {
        // Words (most entries) come with their fields and stamps in the same row.
        try database.forEachRow("""
            SELECT o.rowid, o.kind, o.id, w.stamps, \(Columns.word), o.word FROM outbox o
            LEFT JOIN words w ON o.kind = 'word' AND w.id = o.id
            WHERE o.rowid > ? ORDER BY o.rowid LIMIT ?
            """, [.integer(after), .integer(Int64(limit))]) { row in
            let kind = row.text(1)
            guard let id = UUID(text: row.text(2)) else { return }
            let record: SyncRecord
            if kind == "review" {
                record = try localReview(id: id, wordKey: row.int(Columns.wordCount + 4))
            } else if kind != "word" {
                record = try localRecord(kind: kind, id: id, device: device)
            } else if row.isNull(3) {
                record = SyncRecord(kind: kind, id: id, deleted: true, body: "{}")
            } else {
                let word = try row.decodeWord()
                record = SyncRecord(kind: kind, id: id, deleted: false,
                                    body: SyncBodies.word(word, stamps: try SyncBodies.decodeStamps(row.text(3), table: "words"),
                                                          device: device))
            }
            entries.append(OutboxEntry(place: .outbox(rowid: row.int(0)), record: record))
        }
    }

    /// Forgets pushed changes that did not change again since they were read. `entries` is
    /// one run as `outbox(after:limit:)` returned it: every outbox row whose rowid lies between
    /// its first and last (an object changed since has a new, larger rowid and stays), and the
    /// words of import ranges up to the last one read.
    public func clearOutbox(_ entries: [OutboxEntry], token: Int64) throws {
        try write {
            var rows: [Int64] = []
            var reached: [Int64: Int64] = [:]
            for entry in entries {
                switch entry.place {
                case .outbox(let rowid): rows.append(rowid)
                case .range(let range, let word): reached[range] = max(reached[range] ?? .min, word)
                }
            }
            if let first = rows.min(), let last = rows.max() {
                try database.run("DELETE FROM outbox WHERE rowid BETWEEN ? AND ?", [.integer(first), .integer(last)])
            }
            for (range, word) in reached {
                try database.run("DELETE FROM outbox_word_ranges WHERE rowid = ?1 AND through_rowid <= ?2",
                                 [.integer(range), .integer(word)])
                try database.run("UPDATE outbox_word_ranges SET after_rowid = max(after_rowid, ?2) WHERE rowid = ?1",
                                 [.integer(range), .integer(word)])
            }
            // A range whose own words were all pushed (or deleted) is done (a followed book's
            // words in it are never pushed).
            try database.run("""
                DELETE FROM outbox_word_ranges WHERE NOT EXISTS
                    (SELECT 1 FROM words w WHERE w.rowid > outbox_word_ranges.after_rowid AND w.rowid <= outbox_word_ranges.through_rowid
                     AND w.book NOT IN \(Self.followedBookKeys))
                """)
            try setMeta("token", String(token))
        }
    }

    private func meta(_ key: String) throws -> String? {
        try database.first("SELECT value FROM sync_meta WHERE key = ?", [.text(key)]) { $0.text(0) }
    }

    private func setMeta(_ key: String, _ value: String) throws {
        try database.run("INSERT OR REPLACE INTO sync_meta (key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }

    // MARK: Local records

    /// The record that describes the local state of a book or the learning settings (deleted
    /// when it is gone); words come with their outbox row, read in the same query, and reviews
    /// by `localReview`.
    func localRecord(kind: String, id: UUID, device: String) throws -> SyncRecord {
        switch kind {
        case "book":
            guard let book = try book(id: id) else {
                let body = try survivorOfFold(id).map { JSONValue.object([("mergedInto", .string($0.lowercaseText))]).compact } ?? "{}"
                return SyncRecord(kind: kind, id: id, deleted: true, body: body)
            }
            let stamps = try storedStamps(table: "books", id: id)
            return SyncRecord(kind: kind, id: id, deleted: false, body: SyncBodies.book(book, stamps: stamps, device: device))
        case "settings":
            guard let body = try learningSettingsBody() else { return SyncRecord(kind: kind, id: id, deleted: true, body: "{}") }
            return SyncRecord(kind: kind, id: id, deleted: false, body: body)
        case "mark":
            // The learner's memorised mark on a word of a book he follows (the record's id is the word's).
            guard let memorized = try database.first("SELECT memorized FROM words WHERE id = ?", [.text(id.storageText)], { $0.int(0) != 0 })
            else { return SyncRecord(kind: kind, id: id, deleted: true, body: "{}") }
            return SyncRecord(kind: kind, id: id, deleted: false, body: JSONValue.object([("memorized", .bool(memorized))]).compact)
        default:
            throw StoreError.malformedRow(table: "outbox", column: "kind")
        }
    }

    /// The record of the review `id` of the word keyed `wordKey` (deleted when it is gone,
    /// with its word).
    func localReview(id: UUID, wordKey: Int64) throws -> SyncRecord {
        let review = try database.first("""
            SELECT w.id, r.reviewed_at, r.rating, r.duration_ms, r.game_id, r.source
            FROM reviews r JOIN words w ON w.key = r.word WHERE r.word = ? AND r.id = ?
            """, [.integer(wordKey), id.storageBytes]) { row -> String in
            SyncBodies.review(wordId: row.text(0), reviewedAt: row.int(1), rating: row.int(2),
                              durationMs: row.isNull(3) ? nil : row.int(3), gameId: row.isNull(4) ? nil : row.text(4),
                              source: row.text(5))
        }
        guard let review else { return SyncRecord(kind: "review", id: id, deleted: true, body: "{}") }
        return SyncRecord(kind: "review", id: id, deleted: false, body: review)
    }

    func storedStamps(table: String, id: UUID) throws -> [String: FieldStamp] {
        let text = try database.first("SELECT stamps FROM \(table) WHERE id = ?", [.text(id.storageText)]) { $0.text(0) } ?? "{}"
        return try SyncBodies.decodeStamps(text, table: table)
    }

    /// Records that `fields` of a row were set now on this device.
    func stamp(table: String, id: UUID, fields: [String], at time: Timestamp) throws {
        guard !fields.isEmpty else { return }
        var stamps = try storedStamps(table: table, id: id)
        let device = try deviceId()
        for field in fields { stamps[field] = FieldStamp(milliseconds: time.milliseconds, device: device) }
        try database.run("UPDATE \(table) SET stamps = ? WHERE id = ?", [.text(SyncBodies.encodeStamps(stamps)), .text(id.storageText)])
    }
}
