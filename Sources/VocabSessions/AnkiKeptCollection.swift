import FoundationEssentials
import VocabAnki
import VocabCloudAPI
import VocabCore
import VocabStore

/// The collection an Anki app syncs with, kept in the learner's store beside the words it
/// mirrors, and a normal sync over it as Anki's own server does one: every object with its
/// update number (`usn`), graves, and one sync under way whose calls may come on any of the
/// server's threads. Before every sync the store's books, words and reviews changed since are
/// mirrored into it (`AnkiKeptCollection+Mirror`); at its end what the app sent is brought into
/// the words (`AnkiKeptCollection+Reflect`). Objects Vocab has no place for (other note types,
/// deck options, tags, configuration) are kept as the app sent them.
///
/// Each call takes and answers the protocol's JSON; a body of another shape is refused
/// (`ankiChangesUnreadable`) and a call outside its sync too (`ankiSyncNotStarted`).
public struct AnkiKeptCollection {
    /// Objects handed in one chunk, as Anki's own server hands them.
    static let chunkSize = 250

    let store: Store
    let account: String
    let now: Timestamp
    /// Where the file a full download sends is kept ready between downloads (nil: written for
    /// each download and dropped).
    let downloadFolder: String?
    /// Whether a sync's end leaves bringing the app's changes into the words until after its
    /// answer (`AnkiPendingWork`; a server of one learner, `AnkiDeferral`).
    let defersReflect: Bool

    public init(store: Store, account: String, now: Timestamp, downloadFolder: String? = nil, defersReflect: Bool = false) {
        self.store = store
        self.account = account
        self.now = now
        self.downloadFolder = downloadFolder
        self.defersReflect = defersReflect
    }

    /// Where the collection stands (brought up to the store first), and whether it holds no card.
    public func standing() throws -> AnkiCollections.Standing {
        let state = try mirror()
        return AnkiCollections.Standing(stamps: AnkiSyncStamps(modified: state.modified, schema: state.schema, usn: state.usn),
                                        empty: try store.ankiObjectCount(.card) == 0,
                                        notice: try store.takeAnkiNotice().flatMap(AnkiCollections.UploadNotice.init(text:)))
    }

    /// The whole collection as a full download sends it (compressed, with its size); what it
    /// holds counts as seen from then on (its number moves past every object in it).
    public func download() throws -> (bytes: [UInt8], size: Int) {
        var state = try mirror()
        state.usn += 1
        try store.saveAnkiCollection(state)
        return try AnkiKeptFile.compressed(of: store, state: state, keptIn: downloadFolder)
    }

    /// Making the next full download quick, off an app's requests (on the writer): the
    /// store's changes mirrored, and what is left to do off it (`AnkiDownloadFile.plan`) for the
    /// stamps that download will send. Nothing without a download folder.
    public func planNextDownload() throws -> AnkiDownloadFile.Work {
        var state = try mirror()
        guard let downloadFolder else { return .none }
        state.usn += 1
        return try AnkiDownloadFile.plan(store, next: state, in: downloadFolder)
    }

    // MARK: A normal sync

    /// `start`: begins the sync `key` (replacing any left unfinished) and answers the graves
    /// the app has not seen.
    public func start(key: String, _ body: JSONValue) throws -> JSONValue {
        try store.transaction {
            guard let clientUsn = body["minUsn"]?.int64Value else { throw Refusal.ankiChangesUnreadable }
            // Mirrored at `meta` just before: what changed since waits for the next sync.
            let state = try store.ankiCollection() ?? mirror()
            let session = AnkiSyncSession(key: key, serverUsn: state.usn, clientUsn: clientUsn,
                                          clientNewer: body["lnewer"]?.boolValue ?? false)
            try store.beginAnkiSession(session)
            let graves = try store.ankiGraves(usnAtLeast: clientUsn)
            // An old client sends its graves here.
            if let sent = body["graves"], sent != .null { try applyGraves(sent, session: session) }
            func ids(_ kind: AnkiObjectKind) -> JSONValue { .array(graves.filter { $0.kind == kind }.map { .int($0.id) }) }
            return .object([("cards", ids(.card)), ("decks", ids(.deck)), ("notes", ids(.note))])
        }
    }

    /// `applyGraves`: the app's deletions.
    public func applyGraves(key: String, _ body: JSONValue) throws -> JSONValue {
        try store.transaction {
            let session = try session(key)
            guard let chunk = body["chunk"] else { throw Refusal.ankiChangesUnreadable }
            try applyGraves(chunk, session: session)
            return .null
        }
    }

    /// `applyChanges`: the app's note types, decks, deck options, tags (and configuration when
    /// its collection is the newer); answers the server's changed since the app last synced.
    public func applyChanges(key: String, _ body: JSONValue) throws -> JSONValue {
        try store.transaction {
            let session = try session(key)
            guard let changes = body["changes"] else { throw Refusal.ankiChangesUnreadable }
            let answer = try unchunkedChanges(since: session.clientUsn, withConfiguration: !session.clientNewer)
            try applyUnchunked(changes, session: session)
            return answer
        }
    }

    /// `chunk`: the next notes, cards and log entries the app has not seen.
    public func chunk(key: String) throws -> JSONValue {
        try store.transaction {
            _ = try session(key)
            let taken = try store.takeAnkiChunk(limit: Self.chunkSize)
            var revlog: [JSONValue] = [], cards: [JSONValue] = [], notes: [JSONValue] = []
            for (kind, id) in taken {
                guard let object = try store.ankiObject(kind, id: id), let body = object.json else { continue }
                let sent = AnkiWire.withUsn(body, kind: kind, usn: object.usn)
                switch kind {
                case .revlog: revlog.append(sent)
                case .card: cards.append(sent)
                default: notes.append(sent)
                }
            }
            return .object([("done", .bool(taken.count < Self.chunkSize)), ("revlog", .array(revlog)), ("cards", .array(cards)),
                            ("notes", .array(notes))])
        }
    }

    /// `applyChunk`: the app's notes, cards and log entries; an object the server changed since
    /// the app last synced stays the server's unless the app's is newer (Anki's rule).
    public func applyChunk(key: String, _ body: JSONValue) throws -> JSONValue {
        try store.transaction {
            let session = try session(key)
            guard let chunk = body["chunk"] else { throw Refusal.ankiChangesUnreadable }
            for entry in chunk["revlog"]?.arrayValue ?? [] {
                guard let row = AnkiWire.revlogRow(entry), let id = row[0].int64Value else { throw Refusal.ankiChangesUnreadable }
                if try store.ankiObject(.revlog, id: String(id)) == nil { try keep(.revlog, id: id, .array(row), session: session) }
            }
            for (kind, modifiedAt) in [(AnkiObjectKind.card, 4), (.note, 3)] {
                for entry in chunk[kind == .card ? "cards" : "notes"]?.arrayValue ?? [] {
                    // Whole rows only (a card has 18 members, a note 11): what is kept is read back by place.
                    guard let row = entry.arrayValue, row.count >= (kind == .card ? 18 : 11), let id = row[0].int64Value,
                          let modified = row[modifiedAt].int64Value else { throw Refusal.ankiChangesUnreadable }
                    if let existing = try store.ankiObject(kind, id: String(id)), existing.usn >= session.clientUsn,
                       let held = existing.number(at: modifiedAt), held >= modified {
                        continue
                    }
                    try keep(kind, id: id, entry, session: session)
                }
            }
            return .null
        }
    }

    /// `sanityCheck2`: whether the app holds as many of each kind as the server.
    public func sanityCheck(key: String, _ body: JSONValue) throws -> JSONValue {
        try store.transaction {
            _ = try session(key)
            guard let client = body["client"]?.arrayValue, client.count >= 8 else { throw Refusal.ankiChangesUnreadable }
            let counts: [Int64] = [
                Int64(try store.ankiObjectCount(.card)), Int64(try store.ankiObjectCount(.note)), Int64(try store.ankiObjectCount(.revlog)),
                0, Int64(try store.ankiObjectCount(.notetype)), Int64(try store.ankiObjectCount(.deck)),
                Int64(try store.ankiObjectCount(.deckconfig)),
            ]
            // The due counts and graves are not compared (as Anki's server does not).
            let theirs = [JSONValue.array([.int(0), .int(0), .int(0)])] + client[1...].enumerated().map { index, value in
                index == 3 ? JSONValue.int(0) : value
            }
            let ours = [JSONValue.array([.int(0), .int(0), .int(0)])] + counts.map(JSONValue.int)
            return .object([("status", .string(theirs == ours ? "ok" : "bad")), ("c", .array(theirs)), ("s", .array(ours))])
        }
    }

    /// `finish`: the app's changes brought into the words (or left for after the answer,
    /// `defersReflect`), the collection's number moved on; answers when it last changed (ms),
    /// which the app keeps as its own.
    public func finish(key: String) throws -> JSONValue {
        try store.transaction {
            let session = try session(key)
            if defersReflect {
                // One left before and not done yet: both are done together, from the earlier.
                let earlier = try store.ankiPendingWork().flatMap { $0.kind == .reflect ? $0 : nil }
                try store.setAnkiPendingWork(AnkiPendingWork(kind: .reflect, usn: min(earlier?.usn ?? session.serverUsn, session.serverUsn),
                                                             at: earlier?.at ?? now))
            } else {
                try reflect(session)
            }
            guard var state = try store.ankiCollection() else { throw Refusal.ankiSyncNotStarted }
            state.usn = session.serverUsn + 1
            state.modified = max(now.milliseconds, state.modified + 1)
            try store.saveAnkiCollection(state)
            try store.endAnkiSession()
            return .int(state.modified)
        }
    }

    /// `abort`: ends the sync; what it applied stays (the app sends it again next time, and
    /// applying it again changes nothing).
    public func abort() throws -> JSONValue {
        try store.endAnkiSession()
        return .null
    }

    // MARK: Helpers

    /// The sync under way, if it is `key`'s.
    private func session(_ key: String) throws -> AnkiSyncSession {
        guard let session = try store.ankiSession(), session.key == key else { throw Refusal.ankiSyncNotStarted }
        return session
    }

    /// Keeps an object the app sent at the sync's number, the word, book or review it mirrors
    /// kept. A note, card or log entry is marked as the app's (no stamp) until brought into the
    /// words; a deck keeps its stamp (the app's own changes to it, as its counts of the day, are
    /// no change of its book's).
    func keep(_ kind: AnkiObjectKind, id: Int64, _ body: JSONValue, session: AnkiSyncSession) throws {
        let held = try store.ankiObject(kind, id: String(id))
        let stamp = [.note, .card, .revlog].contains(kind) ? nil : held?.stamp
        try store.putAnkiObject(AnkiObject(kind: kind, id: String(id), usn: session.serverUsn, body: body.compact, source: held?.source,
                                           stamp: stamp))
    }

    private func applyGraves(_ graves: JSONValue, session: AnkiSyncSession) throws {
        for (kind, key) in [(AnkiObjectKind.note, "notes"), (.card, "cards"), (.deck, "decks")] {
            for id in graves[key]?.arrayValue ?? [] {
                guard let id = id.int64Value ?? id.stringValue.flatMap({ Int64($0) }) else { throw Refusal.ankiChangesUnreadable }
                try bury(kind, id: id, usn: session.serverUsn, fromApp: true)
            }
        }
    }

    /// Removes an object and leaves its grave; `fromApp`: the app deleted it, so the word or
    /// book it mirrors goes too (a book only once it holds no word).
    func bury(_ kind: AnkiObjectKind, id: Int64, usn: Int64, fromApp: Bool) throws {
        if fromApp, let source = try store.ankiObject(kind, id: String(id))?.source, let sourceId = UUID(text: source) {
            do {
                if kind == .note, try store.wordExists(id: sourceId) { try store.deleteWord(id: sourceId, now: now) }
                if kind == .deck, try store.book(id: sourceId) != nil, try store.wordCount(WordFilter(bookId: sourceId)) == 0 {
                    _ = try store.deleteBook(id: sourceId, now: now)
                }
            } catch is VocabError {
                // A followed book's word stays: with its mirror gone, the next sync sends it back.
                if kind == .note { try store.noteAnkiChanged(word: sourceId) }
            }
        }
        try store.removeAnkiObject(kind, id: String(id))
        try store.addAnkiGrave(kind, id: id, usn: usn)
    }

    private func unchunkedChanges(since usn: Int64, withConfiguration: Bool) throws -> JSONValue {
        func bodies(_ kind: AnkiObjectKind) throws -> JSONValue {
            .array(try store.ankiObjects(kind, usnAtLeast: usn).compactMap { object in
                object.json.map { AnkiWire.withUsn($0, kind: kind, usn: object.usn) }
            })
        }
        var members: [(String, JSONValue)] = [
            ("models", try bodies(.notetype)), ("decks", .array([try bodies(.deck), try bodies(.deckconfig)])),
            ("tags", .array(try store.ankiObjects(.tag, usnAtLeast: usn).map { .string($0.id) })),
        ]
        if withConfiguration {
            members.append(("conf", .object(try store.ankiObjects(.config).map { ($0.id, $0.json ?? .null) })))
            members.append(("crt", .int(try store.ankiCollection()?.created ?? 0)))
        }
        return .object(members)
    }

    private func applyUnchunked(_ changes: JSONValue, session: AnkiSyncSession) throws {
        let decks = changes["decks"]?.arrayValue ?? []
        let groups: [(AnkiObjectKind, [JSONValue])] = [
            (.notetype, changes["models"]?.arrayValue ?? []), (.deck, decks.first?.arrayValue ?? []),
            (.deckconfig, decks.count > 1 ? decks[1].arrayValue ?? [] : []),
        ]
        for (kind, objects) in groups {
            for object in objects {
                guard let id = object["id"]?.int64Value ?? object["id"]?.stringValue.flatMap({ Int64($0) }) else {
                    throw Refusal.ankiChangesUnreadable
                }
                let modified = object["mod"]?.int64Value ?? 0
                if let held = try store.ankiObject(kind, id: String(id)),
                   (held.json?["mod"]?.int64Value ?? 0) > modified {
                    continue
                }
                try keep(kind, id: id, object, session: session)
            }
        }
        for tag in changes["tags"]?.arrayValue ?? [] {
            guard let name = tag.stringValue else { throw Refusal.ankiChangesUnreadable }
            try store.putAnkiObject(AnkiObject(kind: .tag, id: name, usn: session.serverUsn, body: tag.compact))
        }
        if case .object(let configuration)? = changes["conf"] {
            for old in try store.ankiObjects(.config) { try store.removeAnkiObject(.config, id: old.id) }
            for (key, value) in configuration {
                try store.putAnkiObject(AnkiObject(kind: .config, id: key, usn: session.serverUsn, body: value.compact))
            }
        }
        if let created = changes["crt"]?.int64Value, var state = try store.ankiCollection() {
            state.created = created
            try store.saveAnkiCollection(state)
        }
    }
}

/// How objects go over Anki's wire: notes, cards and log entries as arrays, the rest as
/// objects, each with its update number in its place.
enum AnkiWire {
    /// The members of a log entry, in the order its array carries them.
    static let revlogMembers = ["id", "cid", "usn", "ease", "ivl", "lastIvl", "factor", "time", "type"]

    /// A log entry as an array (an older app sends an object).
    static func revlogRow(_ entry: JSONValue) -> [JSONValue]? {
        if let row = entry.arrayValue, row.count == revlogMembers.count { return row }
        guard case .object = entry else { return nil }
        let row = revlogMembers.map { entry[$0] ?? .int(0) }
        return row.allSatisfy { $0.int64Value != nil } ? row : nil
    }

    /// The update number an object carries in its place (nil for a tag or a configuration value).
    static func usn(of body: JSONValue, kind: AnkiObjectKind) -> Int64? {
        switch (kind, body) {
        case (.revlog, .array(let row)) where row.count > 2: return row[2].int64Value
        case (.note, .array(let row)) where row.count > 4: return row[4].int64Value
        case (.card, .array(let row)) where row.count > 5: return row[5].int64Value
        case (.notetype, .object), (.deck, .object), (.deckconfig, .object): return body["usn"]?.int64Value
        default: return nil
        }
    }

    static func withUsn(_ body: JSONValue, kind: AnkiObjectKind, usn: Int64) -> JSONValue {
        switch (kind, body) {
        case (.revlog, .array(var row)) where row.count > 2:
            row[2] = .int(usn)
            return .array(row)
        case (.note, .array(var row)) where row.count > 4:
            row[4] = .int(usn)
            return .array(row)
        case (.card, .array(var row)) where row.count > 5:
            row[5] = .int(usn)
            return .array(row)
        case (_, .object):
            return body.setting([("usn", .int(usn))])
        default:
            return body
        }
    }
}
