import FoundationEssentials
import VocabCore
import VocabStore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// A collection an Anki app sent whole (a full upload): the file it sent, kept in a private
/// folder of the server's for as long as it is read, its stamps, and its objects in the shape
/// the sync keeps them (notes, cards and log entries as the rows the wire carries, note types,
/// decks and deck options as its JSON, `AnkiSchema18`). A file that is not a sound collection
/// is refused (`AnkiPackageError`), and nothing is read from it.
public final class AnkiUploadedCollection {
    /// When it was created (s), last changed and had its schema changed (ms).
    public let created: Int64
    public let modified: Int64
    public let schema: Int64
    /// Its update number (what its objects were last synced at).
    public let usn: Int64
    private let folder: PrivateFolder?
    private var path: String
    private let database: Database

    /// Unpacks `compressed` (zstd, as the app sends it) within `bound` bytes straight into a file
    /// of the server's own (in a private folder made in `folder`, or in the system's temporary
    /// folder), never whole in memory, and opens it; checks it is a sound collection. A body
    /// that is not zstd or unpacks past `bound` is a `Zstd.Failure`.
    public convenience init(compressed: [UInt8], bound: Int, unpackingIn folder: String? = nil) throws {
        let folder = try PrivateFolder(in: folder)
        let path = folder.file("upload.anki2")
        do {
            let file = try OutputFile(path: path)
            defer { file.close() }
            try Zstd.decompress(compressed, bound: bound, into: file)
            try file.sync()
        } catch let failure as Zstd.Failure {
            guard case .cannotWrite(let reason) = failure else { throw failure }
            throw AnkiPackageError.cannotWrite(reason: "the upload could not be kept (\(reason))")
        } catch {
            throw AnkiPackageError.cannotWrite(reason: "the upload could not be kept (\(error))")
        }
        try self.init(folder: folder, path: path)
    }

    /// Opens a collection an upload left at `path` (`keep(as:)`), checked again.
    public convenience init(kept path: String) throws {
        try self.init(folder: nil, path: path)
    }

    /// Opens the collection kept at `path` in `folder` (which goes when it does).
    private init(folder: PrivateFolder?, path: String) throws {
        self.folder = folder
        self.path = path
        do {
            database = try Database(path: path, create: false, readOnly: true)
            database.addUnicaseCollation()
            // A file from outside: nothing in its schema runs (no view stands in for a table, no
            // function is called from its schema), and it is checked before anything is read.
            try database.execute("PRAGMA trusted_schema = OFF")
            let kinds = Dictionary(try database.query("SELECT name, type FROM sqlite_master") { ($0.text(0), $0.text(1)) },
                                   uniquingKeysWith: { first, _ in first })
            let current = ["notetypes", "fields", "templates", "decks", "deck_config", "config", "tags"]
            let needed = ["col", "notes", "cards", "revlog"] + (kinds["notetypes"] == nil ? [] : current)
            guard needed.allSatisfy({ kinds[$0] == "table" }),
                  try database.first("PRAGMA quick_check", [], { $0.text(0) }) == "ok",
                  let stamps = try database.first("SELECT crt, mod, scm, usn FROM col", [], { ($0.int(0), $0.int(1), $0.int(2), $0.int(3)) })
            else {
                throw AnkiPackageError.notACollection(path: "upload", reason: "is damaged")
            }
            (created, modified, schema, usn) = stamps
        } catch let error as SQLiteError {
            throw AnkiPackageError.notACollection(path: "upload", reason: "cannot be read (\(error.message))")
        }
    }

    /// Moves its file to `path` (in the folder it was unpacked in, so a rename), where it stays
    /// when this goes: a server keeps an upload it brings in after answering. Its objects are
    /// read first (`forEachObject` stops at no other fault than a file that cannot be read).
    public func keep(as path: String) throws {
        try forEachCollectionObject { _, _, _ in }
        guard rename(self.path, path) == 0 else {
            throw AnkiPackageError.cannotWrite(reason: "the upload could not be kept (\(String(cString: strerror(errno))))")
        }
        let folder = open(FilePath.folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)  // the new name, through a crash
            close(folder)
        }
        self.path = path
    }

    /// Calls `body` with each of its objects: the configuration, tags, note types, decks, deck
    /// options, then its notes, cards and log entries.
    public func forEachObject(_ body: (AnkiObjectKind, String, JSONValue) throws -> Void) throws {
        try forEachCollectionObject(body)
        do {
            try database.forEachRow("SELECT id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data FROM notes") { row in
                try body(.note, String(row.int(0)), .array([.int(row.int(0)), .string(row.text(1)), .int(row.int(2)), .int(row.int(3)),
                                                              .int(row.int(4)), .string(row.text(5)), .string(row.text(6)),
                                                              .string(row.text(7)), .int(row.int(8)), .int(row.int(9)), .string(row.text(10))]))
            }
            try database.forEachRow("SELECT * FROM cards") { row in
                try body(.card, String(row.int(0)), .array((0..<17).map { .int(row.int(Int32($0))) } + [.string(row.text(17))]))
            }
            try database.forEachRow("SELECT * FROM revlog") { row in
                try body(.revlog, String(row.int(0)), .array((0..<9).map { .int(row.int(Int32($0))) }))
            }
        } catch let error as SQLiteError {
            throw AnkiPackageError.notACollection(path: "upload", reason: "cannot be read (\(error.message))")
        }
    }

    /// The objects that are not rows of notes, cards or log entries (what can be unreadable).
    private func forEachCollectionObject(_ body: (AnkiObjectKind, String, JSONValue) throws -> Void) throws {
        do {
            let current = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'notetypes'") == 1
            try current ? forEachSchema18Object(body) : forEachSchema11Object(body)
        } catch let error as SQLiteError {
            throw AnkiPackageError.notACollection(path: "upload", reason: "cannot be read (\(error.message))")
        }
    }

    private func forEachSchema18Object(_ body: (AnkiObjectKind, String, JSONValue) throws -> Void) throws {
        func message(_ row: Row, _ column: Int32) -> ProtobufFields {
            (try? ProtobufFields(row.blob(column) ?? [])) ?? ProtobufFields.empty
        }
        try database.forEachRow("SELECT KEY, val FROM config") { row in
            if let value = try? JSONParser.parse(row.blob(1) ?? Array(row.text(1).utf8)) { try body(.config, row.text(0), value) }
        }
        try database.forEachRow("SELECT tag FROM tags") { try body(.tag, $0.text(0), .string($0.text(0))) }
        var fields: [Int64: [(ord: Int64, name: String, config: ProtobufFields)]] = [:]
        try database.forEachRow("SELECT ntid, ord, name, config FROM fields ORDER BY ntid, ord") { row in
            fields[row.int(0), default: []].append((row.int(1), row.text(2), message(row, 3)))
        }
        var templates: [Int64: [(ord: Int64, name: String, config: ProtobufFields)]] = [:]
        try database.forEachRow("SELECT ntid, ord, name, config FROM templates ORDER BY ntid, ord") { row in
            templates[row.int(0), default: []].append((row.int(1), row.text(2), message(row, 3)))
        }
        try database.forEachRow("SELECT id, name, mtime_secs, usn, config FROM notetypes") { row in
            let id = row.int(0)
            try body(.notetype, String(id), AnkiSchema18.noteType(id: id, name: row.text(1), modified: row.int(2), usn: row.int(3),
                                                                 config: message(row, 4), fields: fields[id] ?? [],
                                                                 templates: templates[id] ?? []))
        }
        try database.forEachRow("SELECT id, name, mtime_secs, usn, common, kind FROM decks") { row in
            try body(.deck, String(row.int(0)), AnkiSchema18.deck(id: row.int(0), name: row.text(1), modified: row.int(2), usn: row.int(3),
                                                                 common: message(row, 4), kind: message(row, 5)))
        }
        try database.forEachRow("SELECT id, name, mtime_secs, usn, config FROM deck_config") { row in
            try body(.deckconfig, String(row.int(0)), AnkiSchema18.deckConfig(id: row.int(0), name: row.text(1), modified: row.int(2),
                                                                             usn: row.int(3), config: message(row, 4)))
        }
    }

    /// An old app's collection (schema 11): everything but the rows is JSON in its one `col` row.
    private func forEachSchema11Object(_ body: (AnkiObjectKind, String, JSONValue) throws -> Void) throws {
        guard let row = try database.first("SELECT conf, models, decks, dconf, tags FROM col", [], { row in
            (0..<5).map { row.text(Int32($0)) }
        }) else { return }
        for (index, kind) in [AnkiObjectKind.config, .notetype, .deck, .deckconfig, .tag].enumerated() {
            guard case .object(let members)? = try? JSONParser.parse(Array(row[index].utf8)) else {
                throw AnkiPackageError.notACollection(path: "upload", reason: "has unreadable \(kind.rawValue)s")
            }
            for (key, value) in members { try body(kind, key, kind == .tag ? .string(key) : value) }
        }
    }
}
