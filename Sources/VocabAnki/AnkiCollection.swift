import FoundationEssentials
import VocabCore
import VocabStore

/// An Anki note type: its name, field names in order, and whether it is a cloze type.
struct AnkiNoteType {
    var name: String
    var fields: [String]
    var isCloze: Bool
}

/// An Anki deck: its full name (`A::B` for a subdeck) and description (HTML).
struct AnkiDeck {
    var name: String
    var description: String
}

/// One review from Anki's log, for the note it belongs to.
struct AnkiReview {
    var noteId: Int64
    var noteGUID: String
    /// The revlog id: the review time in milliseconds since 1970.
    var id: Int64
    var ease: Int
    /// Answer time in milliseconds.
    var time: Int64
    /// Whether it is a review of the note's first card (the one carried); others are counted.
    var ofFirstCard: Bool
}

/// The note types, decks, notes and review log of an unpacked collection, in either schema:
/// 11 (JSON in `col`) or 18 (`notetypes`, `fields` and `decks` tables with protobuf configs).
struct AnkiCollection {
    let database: Database
    let path: String
    private(set) var noteTypes: [Int64: AnkiNoteType] = [:]
    private(set) var decks: [Int64: AnkiDeck] = [:]

    init(database: Database, path: String) throws {
        self.database = database
        self.path = path
        do {
            let hasTables = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('notetypes', 'fields', 'decks')") == 3
            if hasTables {
                try readSchema18()
            } else {
                try readSchema11()
            }
        } catch let error as SQLiteError {
            throw AnkiPackageError.notACollection(path: path, reason: "cannot be read (\(error.message))")
        }
    }

    private mutating func readSchema11() throws {
        guard let row = try database.first("SELECT models, decks FROM col", [], { ($0.text(0), $0.text(1)) }) else {
            throw AnkiPackageError.notACollection(path: path, reason: "has no collection row")
        }
        func object(_ text: String, _ what: String) throws -> [String: JSONValue] {
            guard let parsed = (try? JSONParser.parse(text))?.objectValue else {
                throw AnkiPackageError.notACollection(path: path, reason: "has unreadable \(what)")
            }
            return parsed
        }
        for (key, model) in try object(row.0, "note types") {
            guard let id = Int64(key), case .object = model else { continue }
            let fields = (model["flds"]?.arrayValue ?? [])
                .sorted { ($0["ord"]?.int64Value ?? 0) < ($1["ord"]?.int64Value ?? 0) }
                .map { $0["name"]?.stringValue ?? "" }
            noteTypes[id] = AnkiNoteType(name: model["name"]?.stringValue ?? "", fields: fields, isCloze: model["type"]?.int64Value == 1)
        }
        for (key, deck) in try object(row.1, "decks") {
            guard let id = Int64(key), case .object = deck else { continue }
            decks[id] = AnkiDeck(name: deck["name"]?.stringValue ?? "", description: deck["desc"]?.stringValue ?? "")
        }
    }

    private mutating func readSchema18() throws {
        var fieldNames: [Int64: [String]] = [:]
        try database.forEachRow("SELECT ntid, name FROM fields ORDER BY ntid, ord") { row in
            fieldNames[row.int(0), default: []].append(row.text(1))
        }
        try database.forEachRow("SELECT id, name, config FROM notetypes") { row in
            // NotetypeConfig: field 1 is the kind (0 normal, 1 cloze).
            let config = row.blob(2).flatMap { try? ProtobufFields($0) }
            noteTypes[row.int(0)] = AnkiNoteType(name: row.text(1), fields: fieldNames[row.int(0)] ?? [],
                                                isCloze: config?.varint(1) == 1)
        }
        try database.forEachRow("SELECT id, name, kind FROM decks") { row in
            // DeckKind: field 1 a normal deck, whose field 4 is the description.
            let kind = row.blob(2).flatMap { try? ProtobufFields($0) }
            let normal = kind?.bytes(1).last.flatMap { try? ProtobufFields($0) }
            let name = row.text(1).replacingText("\u{1F}", with: "::")
            decks[row.int(0)] = AnkiDeck(name: name, description: normal?.string(4) ?? "")
        }
    }

    /// The number of notes.
    func noteCount() throws -> Int {
        Int(try database.integer("SELECT count(*) FROM notes"))
    }

    /// Every real review of the notes' cards (ratings 1–4 of learning, review, relearning and
    /// filtered reviews; manual reschedules and resets are not reviews), ordered by note, then
    /// card, then time; each says whether it is of the note's first card (the one with the
    /// lowest template number that has reviews): only those are carried, the others (reverse
    /// cards) are counted for the summary. Reads `database`: a connection of the caller's own
    /// (the import reads the log on a thread of its own).
    static func forEachReview(in database: Database, _ body: (AnkiReview) throws -> Void) throws {
        var currentNote: Int64 = -1
        var currentOrd: Int64 = -1
        var currentGUID = ""
        try database.forEachRow("""
            SELECT c.nid, c.ord, r.id, r.ease, r.time, n.guid FROM revlog r JOIN cards c ON c.id = r.cid JOIN notes n ON n.id = c.nid
            WHERE \(realReview)
            ORDER BY c.nid, c.ord, r.id
            """) { row in
            let note = row.int(0), ord = row.int(1)
            if note != currentNote {
                currentNote = note
                currentOrd = ord
                currentGUID = row.text(5)
            }
            try body(AnkiReview(noteId: note, noteGUID: currentGUID, id: row.int(2), ease: Int(row.int(3)),
                                time: max(0, row.int(4)), ofFirstCard: ord == currentOrd))
        }
    }

    /// How many real reviews `forEachReview` will go through.
    func reviewCount() throws -> Int {
        try AnkiPackageError.readingCollection(of: path) { Int(try database.integer("""
            SELECT count(*) FROM revlog r JOIN cards c ON c.id = r.cid JOIN notes n ON n.id = c.nid WHERE \(Self.realReview)
            """)) }
    }

    /// The log entries that are reviews: a rating of 1–4 in learning, review, relearning or a
    /// filtered deck.
    private static let realReview = "r.ease BETWEEN 1 AND 4 AND r.type BETWEEN 0 AND 3"
}
