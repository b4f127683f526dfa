import FoundationEssentials

/// A field's value in a form each layer turns into its own: an SQL value, a JSON member, a
/// cell of a word file.
public enum FieldValue: Equatable, Sendable {
    case text(String)
    case id(UUID)
    case time(Timestamp)
    case flag(Bool)
    case bytes([UInt8]?)
}

/// One stored field of a model, described once: its Swift name (which is also its JSON key and
/// the key of its sync stamp), its SQL column, its column in word files, whether it syncs field
/// by field (stamped and merged), and how to read and write it on the model. The store's
/// queries, inserts and updates, the sync bodies, stamps and merges, and the file writer are all
/// driven by these lists (`WordFields.all`, `BookFields.all`), so a field is added in one place.
public struct ModelField<Model>: @unchecked Sendable {  // the closures only read and write a value
    /// The kind of value a field holds (what a reader of a stored row decodes it as).
    public enum Kind: Sendable { case text, id, time, flag, bytes }

    public let kind: Kind
    public let name: String
    public let column: String
    public let fileColumn: ImportColumn?
    public let synced: Bool
    public let read: (Model) -> FieldValue
    public let write: (inout Model, FieldValue) -> Void

    // Plain closures, not key paths: a key path read costs a dynamic lookup, and a list of
    // 100,000 words reads and writes a dozen fields of each (key paths doubled its time).
    static func text(_ name: String, _ column: String, file: ImportColumn?, synced: Bool = true,
                     get: @escaping (Model) -> String, set: @escaping (inout Model, String) -> Void) -> ModelField {
        ModelField(kind: .text, name: name, column: column, fileColumn: file, synced: synced, read: { .text(get($0)) }) { model, value in
            if case .text(let text) = value { set(&model, text) }
        }
    }

    static func id(_ name: String, _ column: String, file: ImportColumn?, synced: Bool,
                   get: @escaping (Model) -> UUID, set: @escaping (inout Model, UUID) -> Void) -> ModelField {
        ModelField(kind: .id, name: name, column: column, fileColumn: file, synced: synced, read: { .id(get($0)) }) { model, value in
            if case .id(let id) = value { set(&model, id) }
        }
    }

    static func time(_ name: String, _ column: String, file: ImportColumn?, synced: Bool,
                     get: @escaping (Model) -> Timestamp, set: @escaping (inout Model, Timestamp) -> Void) -> ModelField {
        ModelField(kind: .time, name: name, column: column, fileColumn: file, synced: synced, read: { .time(get($0)) }) { model, value in
            if case .time(let time) = value { set(&model, time) }
        }
    }

    static func flag(_ name: String, _ column: String, file: ImportColumn?, synced: Bool,
                     get: @escaping (Model) -> Bool, set: @escaping (inout Model, Bool) -> Void) -> ModelField {
        ModelField(kind: .flag, name: name, column: column, fileColumn: file, synced: synced, read: { .flag(get($0)) }) { model, value in
            if case .flag(let flag) = value { set(&model, flag) }
        }
    }

    static func bytes(_ name: String, _ column: String, synced: Bool,
                      get: @escaping (Model) -> [UInt8]?, set: @escaping (inout Model, [UInt8]?) -> Void) -> ModelField {
        ModelField(kind: .bytes, name: name, column: column, fileColumn: nil, synced: synced, read: { .bytes(get($0)) }) { model, value in
            if case .bytes(let bytes) = value { set(&model, bytes) }
        }
    }
}

/// Every stored field of a word, in the order of the store's columns and of CSV/TSV exports.
public enum WordFields {
    public static let all: [ModelField<Word>] = [
        .id("id", "id", file: .id, synced: false, get: { $0.id }, set: { $0.id = $1 }),
        .id("bookId", "book", file: .bookId, synced: true, get: { $0.bookId }, set: { $0.bookId = $1 }),
        .text("word", "word", file: .word, get: { $0.word }, set: { $0.word = $1 }),
        .text("definition", "definition", file: .definition, get: { $0.definition }, set: { $0.definition = $1 }),
        .text("detail", "detail", file: .detail, get: { $0.detail }, set: { $0.detail = $1 }),
        .text("pronunciation", "pronunciation", file: .pronunciation, get: { $0.pronunciation }, set: { $0.pronunciation = $1 }),
        .text("synonym", "synonym", file: .synonym, get: { $0.synonym }, set: { $0.synonym = $1 }),
        .text("antonym", "antonym", file: .antonym, get: { $0.antonym }, set: { $0.antonym = $1 }),
        .time("date", "date", file: .date, synced: true, get: { $0.date }, set: { $0.date = $1 }),
        .flag("memorized", "memorized", file: .memorized, synced: true, get: { $0.memorized }, set: { $0.memorized = $1 }),
        .time("createdAt", "created_at", file: .createdAt, synced: false, get: { $0.createdAt }, set: { $0.createdAt = $1 }),
        .time("modifiedAt", "modified_at", file: .modifiedAt, synced: false, get: { $0.modifiedAt }, set: { $0.modifiedAt = $1 }),
    ]

    /// The fields stamped and merged one by one when devices sync.
    public static let synced = all.filter(\.synced)
}

/// Every stored field of a book, in the order of the store's columns.
public enum BookFields {
    public static let all: [ModelField<Book>] = [
        .id("id", "id", file: nil, synced: false, get: { $0.id }, set: { $0.id = $1 }),
        .text("name", "name", file: nil, get: { $0.name }, set: { $0.name = $1 }),
        .text("explain", "explain", file: nil, get: { $0.explain }, set: { $0.explain = $1 }),
        .text("meaning", "meaning", file: nil, get: { $0.meaning }, set: { $0.meaning = $1 }),
        .bytes("image", "image", synced: true, get: { $0.image }, set: { $0.image = $1 }),
        .text("coverWord", "cover_word", file: nil, get: { $0.coverWord }, set: { $0.coverWord = $1 }),
        .time("createdAt", "created_at", file: nil, synced: false, get: { $0.createdAt }, set: { $0.createdAt = $1 }),
        .time("modifiedAt", "modified_at", file: nil, synced: false, get: { $0.modifiedAt }, set: { $0.modifiedAt = $1 }),
    ]

    /// The fields stamped and merged one by one when devices sync.
    public static let synced = all.filter(\.synced)
}
