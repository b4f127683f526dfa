import FoundationEssentials
import VocabCore
import VocabStore

/// A collection's stamps as a sync server keeps them: when it last changed (ms), when its
/// schema last changed (ms: a client whose differs must sync in full), and the server's update
/// sequence number (what a client has seen).
public struct AnkiSyncStamps: Equatable, Sendable {
    public var modified: Int64
    public var schema: Int64
    public var usn: Int64

    public init(modified: Int64, schema: Int64, usn: Int64) {
        self.modified = modified
        self.schema = schema
        self.usn = usn
    }
}

/// The collection an Anki app syncs with, as the store keeps it (`Store.ankiObjects`): what a
/// new one starts with, and the collection file a full download sends, written from the kept
/// objects (so that the app's next sanity check counts what the server counts).
public enum AnkiKeptFile {
    /// The objects a new collection starts with: the "Vocab word" note type, the Default deck
    /// and its options, the collection's configuration.
    public static func startingObjects(modified: Int64) -> [(kind: AnkiObjectKind, id: String, body: JSONValue)] {
        let noteType = AnkiCollectionSchema.noteType(modified: modified, usn: 0, defaultDeck: 1)
        var objects: [(kind: AnkiObjectKind, id: String, body: JSONValue)] = [
            (.notetype, String(AnkiCollectionSchema.noteTypeId), JSONValue(any: noteType)),
            (.deck, "1", JSONValue(any: AnkiCollectionSchema.deck(id: 1, name: "Default", description: "", modified: modified, usn: 0))),
            (.deckconfig, "1", JSONValue(any: AnkiCollectionSchema.deckOptions)),
        ]
        for (key, value) in AnkiCollectionSchema.configuration(nextPosition: 1, current: true).sorted(by: { $0.key < $1.key }) {
            objects.append((.config, key, JSONValue(any: value)))
        }
        return objects
    }

    /// A deck as the collection keeps it.
    public static func deck(id: Int64, name: String, description: String, modified: Int64) -> [String: Any] {
        AnkiCollectionSchema.deck(id: id, name: name, description: description, modified: modified, usn: 0)
    }

    /// The kept collection of `store` as a collection file (schema 11), its stamps `state`'s,
    /// compressed as a full download sends it (read from the file a chunk at a time: never held
    /// whole uncompressed), with the file's size. With `folder`, the file kept ready there
    /// (`AnkiDownloadFile`); a folder that cannot be written (full, read-only) only costs the
    /// download its speed: the file is then written for it alone.
    public static func compressed(of store: Store, state: AnkiCollectionState, keptIn folder: String? = nil) throws -> (bytes: [UInt8], size: Int) {
        if let folder, let kept = try? AnkiDownloadFile.compressed(of: store, state: state, in: folder) { return kept }
        let scratch = try PrivateFolder()
        let path = scratch.file("collection.anki2")
        try write(store, state: state, to: path)
        return try withExtendedLifetime(scratch) { try compressed(path) }
    }

    /// The file at `path` compressed as a download sends it, with its size.
    static func compressed(_ path: String) throws -> (bytes: [UInt8], size: Int) {
        do {
            return try Zstd.compress(file: path)
        } catch {
            throw AnkiPackageError.cannotWrite(reason: "the collection written could not be read back (\(error))")
        }
    }

    /// Writes the kept collection of `store` into a new file at `path`.
    static func write(_ store: Store, state: AnkiCollectionState, to path: String) throws {
        do {
            let collection = try Database(path: path)
            // A file no one reads until it is written: no journal, no syncs; the indexes made
            // after the rows (each sorted once, not grown row by row).
            try collection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try collection.execute(AnkiCollectionSchema.tables)
            try collection.transaction {
                try writeCollectionRow(collection, from: store, state: state)
                try writeRows(collection, from: store)
                try collection.execute(AnkiCollectionSchema.indexes)
            }
        } catch let error as SQLiteError {
            throw AnkiPackageError.cannotWrite(reason: "the collection could not be written (\(error.message))")
        }
    }

    /// Sets the collection's stamps in the file at `path` (its one `col` row).
    static func setStamps(_ state: AnkiCollectionState, in path: String) throws {
        do {
            let collection = try Database(path: path)
            try collection.run("UPDATE col SET crt = ?, mod = ?, scm = ?, usn = ?, ls = ?", [
                .integer(state.created), .integer(state.modified), .integer(state.schema), .integer(state.usn), .integer(state.modified),
            ])
        } catch let error as SQLiteError {
            throw AnkiPackageError.cannotWrite(reason: "the collection could not be stamped (\(error.message))")
        }
    }

    private static func writeCollectionRow(_ collection: Database, from store: Store, state: AnkiCollectionState) throws {
        func members(_ kind: AnkiObjectKind) throws -> String {
            var members: [(String, JSONValue)] = []
            try store.forEachAnkiObject(kind) { object in
                members.append((object.id, object.json ?? .null))
            }
            return JSONValue.object(members).compact
        }
        var tags: [(String, JSONValue)] = []
        try store.forEachAnkiObject(.tag) { tags.append(($0.id, .int($0.usn))) }
        try collection.run("INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, ?, ?, ?, ?, ?, ?, ?)", [
            .integer(state.created), .integer(state.modified), .integer(state.schema), .integer(state.usn), .integer(state.modified),
            .text(try members(.config)), .text(try members(.notetype)), .text(try members(.deck)), .text(try members(.deckconfig)),
            .text(JSONValue.object(tags).compact),
        ])
    }

    /// The cards or log entries into `table`: each row's first `columns` values, integers but
    /// the one at `textAt`, the object's number at `usnAt`. A row is read in place and bound as
    /// it lies (`AnkiFlatRow`); one of another shape as JSON, to the same values (a value not of
    /// its column's kind: 0 or "").
    private static func writeFlatRows(_ collection: Database, from store: Store, kind: AnkiObjectKind, table: String, columns: Int,
                                      usnAt: Int, textAt: Int?) throws {
        let insert = try collection.statement("INSERT INTO \(table) VALUES (\(Array(repeating: "?", count: columns).joined(separator: ", ")))")
        var flat = AnkiFlatRow()
        try store.forEachAnkiBody(kind) { usn, bytes in
            insert.reset()
            insert.clearBindings()
            if flat.read(bytes), flat.values.count >= columns {
                for (index, value) in flat.values.prefix(columns).enumerated() {
                    let parameter = Int32(index + 1)
                    if index == usnAt {
                        try insert.bind(usn, at: parameter)
                    } else if index == textAt {
                        if case .text(let range) = value {
                            try insert.bindUnowned(UnsafeRawBufferPointer(rebasing: bytes[range]), at: parameter)
                        } else {
                            try insert.bind(.text(""), at: parameter)
                        }
                    } else if case .integer(let number) = value {
                        try insert.bind(number, at: parameter)
                    } else {
                        try insert.bind(0, at: parameter)
                    }
                }
            } else {
                guard let row = (try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)))?.arrayValue, row.count >= columns else { return }
                for (index, value) in row.prefix(columns).enumerated() {
                    let parameter = Int32(index + 1)
                    if index == usnAt {
                        try insert.bind(usn, at: parameter)
                    } else if index == textAt {
                        try insert.bind(.text(value.stringValue ?? ""), at: parameter)
                    } else {
                        try insert.bind(value.int64Value ?? 0, at: parameter)
                    }
                }
            }
            while try insert.step() {}
        }
        insert.reset()
        insert.clearBindings()
    }

    private static func writeRows(_ collection: Database, from store: Store) throws {
        try store.forEachAnkiObject(.note) { object in
            guard let row = object.row, row.count >= 11 else { return }
            let fields = row[6].stringValue ?? ""
            let first = String(fields.split(separator: "\u{1F}", omittingEmptySubsequences: false).first ?? "")
            try collection.run("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                .integer(row[0].int64Value ?? 0), .text(row[1].stringValue ?? ""), .integer(row[2].int64Value ?? 0),
                .integer(row[3].int64Value ?? 0), .integer(object.usn), .text(row[5].stringValue ?? ""), .text(fields),
                .text(HTMLText.plain(first).text), .integer(AnkiWordShape.checksum(first)), .integer(row[9].int64Value ?? 0),
                .text(row[10].stringValue ?? ""),
            ])
        }
        try writeFlatRows(collection, from: store, kind: .card, table: "cards", columns: 18, usnAt: 5, textAt: 17)
        try writeFlatRows(collection, from: store, kind: .revlog, table: "revlog", columns: 9, usnAt: 2, textAt: nil)
    }
}
