import FoundationEssentials
import VocabCore

/// The kinds of object an Anki collection syncs, as the store keeps them.
public enum AnkiObjectKind: String, Sendable, CaseIterable {
    case notetype, deck, deckconfig, tag, config, note, card, revlog
}

/// Where the kept Anki collection stands: its update number (what the next objects are
/// stamped with), when it last changed and when its schema did (ms), and its creation (s).
public struct AnkiCollectionState: Equatable, Sendable {
    public var usn: Int64
    public var modified: Int64
    public var schema: Int64
    public var created: Int64

    public init(usn: Int64, modified: Int64, schema: Int64, created: Int64) {
        self.usn = usn
        self.modified = modified
        self.schema = schema
        self.created = created
    }
}

/// One object of the kept collection: its body as Anki's wire carries it (JSON), its update
/// number, and the word, book or review it mirrors (with how that stood when mirrored).
public struct AnkiObject: Equatable, Sendable {
    public var kind: AnkiObjectKind
    public var id: String
    public var usn: Int64
    public var body: String
    public var source: String?
    public var stamp: String?

    public init(kind: AnkiObjectKind, id: String, usn: Int64, body: String, source: String? = nil, stamp: String? = nil) {
        self.kind = kind
        self.id = id
        self.usn = usn
        self.body = body
        self.source = source
        self.stamp = stamp
    }
    /// Its body read (nil only for a body that is not JSON, which nothing kept here is).
    public var json: JSONValue? { try? JSONParser.parse(body) }

    /// Its body as the array a note, card or log entry is (nil for any other shape).
    public var row: [JSONValue]? { json?.arrayValue }

    /// The number at `index` of its row (nil past its end, or not a number).
    public func number(at index: Int) -> Int64? {
        row.flatMap { $0.indices.contains(index) ? $0[index].int64Value : nil }
    }
}

/// A normal sync under way: its key, the collection's number when it began, the app's, and
/// whether the app's collection was the newer one.
public struct AnkiSyncSession: Equatable, Sendable {
    public var key: String
    public var serverUsn: Int64
    public var clientUsn: Int64
    public var clientNewer: Bool

    public init(key: String, serverUsn: Int64, clientUsn: Int64, clientNewer: Bool) {
        self.key = key
        self.serverUsn = serverUsn
        self.clientUsn = clientUsn
        self.clientNewer = clientNewer
    }
}

/// The Anki collection kept beside the words (schema version 16): objects, graves and the sync
/// under way, as plain rows. What they mean is the session layer's (`AnkiKeptCollection`).
extension Store {
    public func ankiCollection() throws -> AnkiCollectionState? {
        try guarded {
            try database.first("SELECT usn, modified, schema, created FROM anki_collection") {
                AnkiCollectionState(usn: $0.int(0), modified: $0.int(1), schema: $0.int(2), created: $0.int(3))
            }
        }
    }

    public func saveAnkiCollection(_ state: AnkiCollectionState) throws {
        try ankiWrite {
            try database.run("""
                INSERT INTO anki_collection (one, usn, modified, schema, created) VALUES (1, ?, ?, ?, ?)
                ON CONFLICT (one) DO UPDATE SET usn = excluded.usn, modified = excluded.modified, schema = excluded.schema,
                    created = excluded.created
                """, [.integer(state.usn), .integer(state.modified), .integer(state.schema), .integer(state.created)])
        }
    }

    public func ankiObject(_ kind: AnkiObjectKind, id: String) throws -> AnkiObject? {
        try guarded {
            try database.first("SELECT kind, id, usn, body, source, stamp FROM anki_objects WHERE kind = ? AND id = ?",
                               [.text(kind.rawValue), .text(id)], Self.ankiObject)
        }
    }

    /// The object mirroring `source` (a word's note or card, a book's deck, a review's entry).
    public func ankiObject(_ kind: AnkiObjectKind, source: String) throws -> AnkiObject? {
        try guarded {
            try database.first("SELECT kind, id, usn, body, source, stamp FROM anki_objects WHERE kind = ? AND source = ?",
                               [.text(kind.rawValue), .text(source)], Self.ankiObject)
        }
    }

    /// The objects of `kind` whose number is at least `usn` (all of them from 0), in the order of
    /// their ids. Those of a number are found by the index of numbers (a sync's few changes are
    /// read alone), every one of the kind along the table.
    public func ankiObjects(_ kind: AnkiObjectKind, usnAtLeast usn: Int64 = Int64.min) throws -> [AnkiObject] {
        try guarded {
            let table = usn == Int64.min ? "anki_objects" : "anki_objects INDEXED BY anki_objects_usn"
            return try database.query("SELECT kind, id, usn, body, source, stamp FROM \(table) WHERE kind = ? AND usn >= ? ORDER BY id",
                                      [.text(kind.rawValue), .integer(usn)], Self.ankiObject)
        }
    }

    /// The objects of `kind` numbered at least `usn` (the app's sync's own, not yet mirrored,
    /// among them), a page of at most `limit` at a time in the order of their number and id,
    /// each page after `after` (the last of the page before; nil: from the first). A pass over
    /// a whole upload's log holds one page, not 200,000 objects.
    public func ankiObjects(_ kind: AnkiObjectKind, usnAtLeast usn: Int64, after: (usn: Int64, id: String)?,
                            limit: Int) throws -> [AnkiObject] {
        try guarded {
            // From (usn, "") on is every one numbered at least `usn`; one range of the index
            // (with `usn >= ?` beside it, SQLite took that range alone and read every page from
            // the first).
            let (fromUsn, fromId) = after ?? (usn, "")
            return try database.query("""
                SELECT kind, id, usn, body, source, stamp FROM anki_objects INDEXED BY anki_objects_usn
                WHERE kind = ? AND (usn, id) > (?, ?) ORDER BY usn, id LIMIT ?
                """, [.text(kind.rawValue), .integer(fromUsn), .text(fromId), .integer(Int64(limit))], Self.ankiObject)
        }
    }

    /// Calls `body` with every object of `kind`, one at a time.
    public func forEachAnkiObject(_ kind: AnkiObjectKind, _ body: (AnkiObject) throws -> Void) throws {
        try guarded {
            try database.forEachRow("SELECT kind, id, usn, body, source, stamp FROM anki_objects WHERE kind = ?",
                                    [.text(kind.rawValue)]) { try body(try Self.ankiObject($0)) }
        }
    }

    /// Calls `body` with the update number and the body's bytes (valid only during the call) of
    /// every object of `kind`, in the order of their ids: a full download reads every one.
    public func forEachAnkiBody(_ kind: AnkiObjectKind, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void) throws {
        try guarded {
            try database.forEachRow("SELECT usn, body FROM anki_objects WHERE kind = ?", [.text(kind.rawValue)]) { row in
                try row.withTextBytes(1) { try body(row.int(0), $0) }
            }
        }
    }

    /// The ids of every object of `kind` that has a number for one, in a set with room for
    /// `room` more (made that large at once: grown by doubling, it holds its old table and the
    /// new one together).
    public func ankiObjectIds(_ kind: AnkiObjectKind, room: Int = 0) throws -> Set<Int64> {
        try guarded {
            var ids = Set<Int64>(minimumCapacity: room)
            try database.forEachRow("SELECT id FROM anki_objects WHERE kind = ?", [.text(kind.rawValue)]) { row in
                if let id = Int64(row.text(0)) { ids.insert(id) }
            }
            return ids
        }
    }

    /// The ids of the cards of note `id`.
    public func ankiCardIds(ofNote id: Int64) throws -> [Int64] {
        try guarded {
            try database.query("SELECT id FROM anki_objects WHERE kind = 'card' AND json_extract(body, '$[1]') = ?", [.integer(id)]) {
                Int64($0.text(0)) ?? 0
            }
        }
    }

    /// Runs `body`, a bulk change of the kept collection (a first mirror, a whole collection
    /// uploaded: hundreds of thousands of rows), in the page cache of a bulk change of
    /// `cacheMegabytes` (`withImportCache`), with the triggers that keep its counts paused, and
    /// counts the rows once after (also when `body` throws).
    public func withAnkiBulkChange<T>(cacheMegabytes: Int, _ body: () throws -> T) throws -> T {
        try withImportCache(megabytes: cacheMegabytes) { try ankiWrite {
            try database.run("INSERT INTO anki_counts_paused VALUES (1)")
            let result: T
            do {
                result = try body()
            } catch {
                try? recountAnkiObjects()
                throw error
            }
            try recountAnkiObjects()
            return result
        } }
    }

    private func recountAnkiObjects() throws {
        try database.execute("""
            DELETE FROM anki_counts_paused;
            UPDATE anki_counts SET n = (SELECT count(*) FROM anki_objects WHERE kind = anki_counts.kind);
            """)
    }

    /// How many objects of `kind` are kept (kept counted: what every sync's sanity check asks).
    public func ankiObjectCount(_ kind: AnkiObjectKind) throws -> Int {
        try guarded { Int(try database.integer("SELECT coalesce(max(n), 0) FROM anki_counts WHERE kind = ?", [.text(kind.rawValue)])) }
    }

    /// Every mirror of `kind`: its source's id, to the object's id and the stamp it was made at.
    public func ankiMirrors(_ kind: AnkiObjectKind) throws -> [String: (id: String, stamp: String?)] {
        try guarded {
            var mirrors: [String: (id: String, stamp: String?)] = [:]
            try database.forEachRow("SELECT source, id, stamp FROM anki_objects WHERE kind = ? AND source IS NOT NULL",
                                    [.text(kind.rawValue)]) { row in
                mirrors[row.text(0)] = (row.text(1), row.isNull(2) ? nil : row.text(2))
            }
            return mirrors
        }
    }

    public func putAnkiObject(_ object: AnkiObject) throws {
        try ankiWrite {
            try database.run("INSERT OR REPLACE INTO anki_objects VALUES (?, ?, ?, ?, ?, ?)", [
                .text(object.kind.rawValue), .text(object.id), .integer(object.usn), .text(object.body),
                object.source.map(SQLValue.text) ?? .null, object.stamp.map(SQLValue.text) ?? .null,
            ])
        }
    }

    /// Sets what an object mirrors and how that stood (its body and number as they are). As a
    /// put of the whole object would, it takes the source from another object of its kind that
    /// had it.
    public func setAnkiMirror(_ kind: AnkiObjectKind, id: String, source: String?, stamp: String?) throws {
        try ankiWrite {
            try database.run("UPDATE OR REPLACE anki_objects SET source = ?, stamp = ? WHERE kind = ? AND id = ?", [
                source.map(SQLValue.text) ?? .null, stamp.map(SQLValue.text) ?? .null, .text(kind.rawValue), .text(id),
            ])
        }
    }

    /// Sets the stamp of the object of `kind` mirroring `source`, if there is one.
    public func setAnkiStamp(_ kind: AnkiObjectKind, source: String, stamp: String) throws {
        try ankiWrite {
            try database.run("UPDATE anki_objects SET stamp = ? WHERE kind = ? AND source = ?", [.text(stamp), .text(kind.rawValue), .text(source)])
        }
    }

    /// How many objects `putAnkiObjects` writes with one statement.
    static let ankiObjectsPerStatement = 64

    /// Puts `objects` (as `putAnkiObject` would, one after another), many to a statement: a
    /// first mirror puts 300,000 objects, and each statement of one row cost more than its row.
    public func putAnkiObjects(_ objects: [AnkiObject]) throws {
        try ankiWrite {
            var start = 0
            while start < objects.count {
                let chunk = objects[start..<min(start + Self.ankiObjectsPerStatement, objects.count)]
                let rows = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                var values: [SQLValue] = []
                values.reserveCapacity(chunk.count * 6)
                for object in chunk {
                    values += [.text(object.kind.rawValue), .text(object.id), .integer(object.usn), .text(object.body),
                               object.source.map(SQLValue.text) ?? .null, object.stamp.map(SQLValue.text) ?? .null]
                }
                try database.run("INSERT OR REPLACE INTO anki_objects VALUES \(rows)", values)
                start += chunk.count
            }
        }
    }

    public func removeAnkiObject(_ kind: AnkiObjectKind, id: String) throws {
        try ankiWrite {
            try database.run("DELETE FROM anki_objects WHERE kind = ? AND id = ?", [.text(kind.rawValue), .text(id)])
            if database.changes > 0 {
                try database.run("UPDATE anki_counts SET n = n - 1 WHERE kind = ?", [.text(kind.rawValue)])
                try database.run("DELETE FROM anki_download")
            }
        }
    }

    /// The graves (`note`, `card`, `deck`) whose number is at least `usn`.
    public func ankiGraves(usnAtLeast usn: Int64) throws -> [(kind: AnkiObjectKind, id: Int64)] {
        try guarded {
            try database.query("SELECT kind, id FROM anki_graves WHERE usn >= ? ORDER BY kind, id", [.integer(usn)]) { row in
                (AnkiObjectKind(rawValue: row.text(0)) ?? .note, row.int(1))
            }
        }
    }

    public func addAnkiGrave(_ kind: AnkiObjectKind, id: Int64, usn: Int64) throws {
        try ankiWrite {
            try database.run("INSERT OR REPLACE INTO anki_graves VALUES (?, ?, ?)", [.text(kind.rawValue), .integer(id), .integer(usn)])
        }
    }

    public func ankiSession() throws -> AnkiSyncSession? {
        try guarded {
            try database.first("SELECT key, server_usn, client_usn, client_newer FROM anki_session") {
                AnkiSyncSession(key: $0.text(0), serverUsn: $0.int(1), clientUsn: $0.int(2), clientNewer: $0.bool(3))
            }
        }
    }

    /// Begins `session` (one at a time: a sync begun again replaces the one before).
    public func beginAnkiSession(_ session: AnkiSyncSession) throws {
        try ankiWrite {
            try database.run("""
                INSERT OR REPLACE INTO anki_session (one, key, server_usn, client_usn, client_newer) VALUES (1, ?, ?, ?, ?)
                """, [.text(session.key), .integer(session.serverUsn), .integer(session.clientUsn), .integer(session.clientNewer ? 1 : 0)])
        }
    }

    /// Empties the kept collection (its objects, graves and sync under way) for a whole one to
    /// take its place.
    public func clearAnkiCollection() throws {
        try ankiWrite {
            try database.execute("""
                DELETE FROM anki_objects; UPDATE anki_counts SET n = 0; DELETE FROM anki_graves; DELETE FROM anki_session; DELETE FROM anki_download;
                """)
        }
    }

    /// The name of the download file kept ready that holds the kept objects as they are now
    /// (nil: none does; any object written since cleared it).
    public func ankiDownloadToken() throws -> String? {
        try guarded { try database.first("SELECT token FROM anki_download") { $0.text(0) } }
    }

    /// Notes that the download file named `token` holds the kept objects as they are now.
    public func setAnkiDownloadToken(_ token: String) throws {
        try ankiWrite { try database.execute("DELETE FROM anki_download"); try database.run("INSERT INTO anki_download VALUES (?)", [.text(token)]) }
    }

    /// A message for the next sync of an Anki app (what a full upload did), once. It is part of
    /// the collection's state (a cloud's copy hands it on, so any server tells it).
    public func takeAnkiNotice() throws -> String? {
        try ankiWrite {
            let notice = try ankiNotice()
            if notice != nil { try writeAnkiNotice(nil) }
            return notice
        }
    }

    public func setAnkiNotice(_ text: String) throws {
        try ankiWrite { try writeAnkiNotice(text) }
    }

    /// The message for the next sync, if any.
    func ankiNotice() throws -> String? {
        try database.first("SELECT value FROM sync_meta WHERE key = 'anki_notice'") { $0.text(0) }
    }

    /// Sets the message for the next sync (nil: none), a change of the collection's state.
    func writeAnkiNotice(_ text: String?) throws {
        if let text {
            try database.run("INSERT OR REPLACE INTO sync_meta (key, value) VALUES ('anki_notice', ?)", [.text(text)])
        } else {
            try database.run("DELETE FROM sync_meta WHERE key = 'anki_notice'")
        }
        try database.run("UPDATE anki_collection SET version = version")  // the state changed
    }

    public func endAnkiSession() throws {
        try ankiWrite { try database.run("DELETE FROM anki_session") }
    }

    /// The next `limit` notes, cards and log entries of the session's chunks (those numbered at
    /// least the app's), after the last one handed, in the order of their kind, number and id:
    /// read along the index of numbers, so a sync of a few changes reads those alone. The session
    /// remembers how far it went (the last one's kind, and "NUMBER ID").
    public func takeAnkiChunk(limit: Int) throws -> [(kind: AnkiObjectKind, id: String)] {
        try ankiWrite {
            guard let session = try ankiSession(),
                  let after = try database.first("SELECT chunked_kind, chunked_id FROM anki_session", [], { ($0.text(0), $0.text(1)) })
            else { return [] }
            let parts = after.1.split(separator: " ", maxSplits: 1).map(String.init)
            let position = parts.count == 2 ? Int64(parts[0]).map { ($0, parts[1]) } : nil
            var taken: [(kind: AnkiObjectKind, id: String)] = [], last: (kind: AnkiObjectKind, usn: Int64, id: String)?
            for kind in [AnkiObjectKind.card, .note, .revlog] where kind.rawValue >= after.0 && taken.count < limit {
                // From the start of a kind: every object numbered at least the app's.
                let (usn, id) = (kind.rawValue == after.0 ? position : nil) ?? (session.clientUsn, "")
                try database.forEachRow("""
                    SELECT id, usn FROM anki_objects WHERE kind = ? AND usn >= ? AND (usn, id) > (?, ?) ORDER BY usn, id LIMIT ?
                    """, [.text(kind.rawValue), .integer(session.clientUsn), .integer(usn), .text(id), .integer(Int64(limit - taken.count))]) { row in
                    taken.append((kind, row.text(0)))
                    last = (kind, row.int(1), row.text(0))
                }
            }
            if let last {
                try database.run("UPDATE anki_session SET chunked_kind = ?, chunked_id = ?", [.text(last.kind.rawValue), .text("\(last.usn) \(last.id)")])
            }
            return taken
        }
    }

    /// A write of the kept collection: `body` in the caller's transaction when one is open (no
    /// savepoint for each row: a first mirror writes a few hundred thousand), else in its own.
    func ankiWrite<T>(_ body: () throws -> T) throws -> T {
        database.isInTransaction ? try guarded(body) : try write(body)
    }

    private static func ankiObject(_ row: Row) throws -> AnkiObject {
        AnkiObject(kind: AnkiObjectKind(rawValue: row.text(0)) ?? .config, id: row.text(1), usn: row.int(2), body: row.text(3),
                   source: row.isNull(4) ? nil : row.text(4), stamp: row.isNull(5) ? nil : row.text(5))
    }
}

/// How a word stands for its mirror in an Anki collection: its last change, its book, and how
/// many reviews its schedule counts and when the latest was.
public struct AnkiWordStanding: Equatable, Sendable {
    /// Where the word stands in the order words were added to the store.
    public var order: Int64
    public var modified: Int64
    public var bookId: UUID
    public var reviews: Int64
    public var lastReview: Int64
}

extension AnkiWordStanding {
    /// How a word read with its schedule stands (its place in the order words were added aside:
    /// 0). In an extension, so the memberwise initialiser the store uses stays as Swift makes it.
    public init(_ history: WordHistory) {
        self.init(order: 0, modified: history.word.modifiedAt.milliseconds, bookId: history.word.bookId,
                  reviews: Int64(history.schedule?.reviews ?? 0), lastReview: history.schedule?.lastReview.milliseconds ?? 0)
    }
}

extension Store {
    /// The standing for its mirror of every word (nil) or of `ids` (those gone are left out),
    /// read in one pass (no field of the words is read).
    public func ankiWordStandings(of ids: Set<UUID>? = nil) throws -> [UUID: AnkiWordStanding] {
        try guarded {
            var standings: [UUID: AnkiWordStanding] = [:]
            let select = """
                SELECT w.id, w.modified_at, b.id, coalesce(s.reviews, 0), coalesce(s.last_review, 0), w.key
                FROM words w JOIN books b ON b.key = w.book LEFT JOIN schedules s ON s.word = w.key
                """
            let rows: [(String, [SQLValue])]
            // Many: every word read in one pass, those not asked for left out.
            if let ids, ids.count <= 1_000 {
                rows = ids.map { (select + " WHERE w.id = ?", [.text($0.storageText)]) }
            } else {
                rows = [(select, [])]
            }
            for (sql, arguments) in rows {
                try database.forEachRow(sql, arguments) { row in
                    if let id = UUID(text: row.text(0)), let book = UUID(text: row.text(2)), ids?.contains(id) ?? true {
                        standings[id] = AnkiWordStanding(order: row.int(5), modified: row.int(1), bookId: book, reviews: row.int(3),
                                                            lastReview: row.int(4))
                    }
                }
            }
            return standings
        }
    }

    /// The words and books written since the kept collection last mirrored them (nil: more than
    /// `most` words, or a copy new to this store, whose words were written before it: look at
    /// them all).
    public func ankiChanged(most: Int) throws -> (words: Set<UUID>, books: Bool)? {
        try guarded {
            let count = try database.integer("SELECT count(DISTINCT id) FROM anki_changed WHERE kind = 'word'")
            guard count <= most, try database.integer("SELECT count(*) FROM anki_changed WHERE id = '*'") == 0 else { return nil }
            let words = Set(try database.query("SELECT DISTINCT id FROM anki_changed WHERE kind = 'word'") { UUID(text: $0.text(0)) }
                .compactMap { $0 })
            let books = try database.integer("SELECT count(*) FROM anki_changed WHERE kind = 'book'") > 0
            return (words, books)
        }
    }

    /// Whether any word or book was written since the kept collection last mirrored them.
    public func hasAnkiChanges() throws -> Bool {
        try guarded { try database.integer("SELECT EXISTS (SELECT 1 FROM anki_changed)") == 1 }
    }

    /// Notes a word as written, so the next mirror looks at it again (its note the app changed
    /// and the store did not take).
    public func noteAnkiChanged(word id: UUID) throws {
        try ankiWrite { try database.run("INSERT INTO anki_changed VALUES ('word', ?)", [.text(id.storageText)]) }
    }

    /// Notes a book as written, so the next mirror looks at every book and word.
    public func noteAnkiChanged(book id: UUID) throws {
        try ankiWrite { try database.run("INSERT INTO anki_changed VALUES ('book', ?)", [.text(id.storageText)]) }
    }

    /// Forgets the words and books noted as written (the kept collection mirrors them now).
    public func clearAnkiChanged() throws {
        try ankiWrite { try database.run("DELETE FROM anki_changed") }
    }
}

/// Objects of the kept collection put many to a statement (`Store.putAnkiObjects`): each put
/// waits until a statement's worth has come, `flush` writes the rest. What waits is not read
/// back, so a pass that puts this way reads only what was there before it.
public struct AnkiObjectBatch {
    private let store: Store
    private var waiting: [AnkiObject] = []

    public init(store: Store) {
        self.store = store
    }

    public mutating func put(_ object: AnkiObject) throws {
        waiting.append(object)
        if waiting.count >= Store.ankiObjectsPerStatement { try flush() }
    }

    /// Writes what waits.
    public mutating func flush() throws {
        guard !waiting.isEmpty else { return }
        try store.putAnkiObjects(waiting)
        waiting.removeAll(keepingCapacity: true)
    }
}
