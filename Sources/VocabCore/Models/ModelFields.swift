import Foundation

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

    static func text(_ name: String, _ column: String, file: ImportColumn?, synced: Bool = true,
                     _ path: WritableKeyPath<Model, String>) -> ModelField {
        ModelField(kind: .text, name: name, column: column, fileColumn: file, synced: synced, read: { .text($0[keyPath: path]) }) { model, value in
            if case .text(let text) = value { model[keyPath: path] = text }
        }
    }

    static func id(_ name: String, _ column: String, file: ImportColumn?, synced: Bool, _ path: WritableKeyPath<Model, UUID>) -> ModelField {
        ModelField(kind: .id, name: name, column: column, fileColumn: file, synced: synced, read: { .id($0[keyPath: path]) }) { model, value in
            if case .id(let id) = value { model[keyPath: path] = id }
        }
    }

    static func time(_ name: String, _ column: String, file: ImportColumn?, synced: Bool,
                     _ path: WritableKeyPath<Model, Timestamp>) -> ModelField {
        ModelField(kind: .time, name: name, column: column, fileColumn: file, synced: synced, read: { .time($0[keyPath: path]) }) { model, value in
            if case .time(let time) = value { model[keyPath: path] = time }
        }
    }

    static func flag(_ name: String, _ column: String, file: ImportColumn?, synced: Bool, _ path: WritableKeyPath<Model, Bool>) -> ModelField {
        ModelField(kind: .flag, name: name, column: column, fileColumn: file, synced: synced, read: { .flag($0[keyPath: path]) }) { model, value in
            if case .flag(let flag) = value { model[keyPath: path] = flag }
        }
    }

    static func bytes(_ name: String, _ column: String, synced: Bool, _ path: WritableKeyPath<Model, [UInt8]?>) -> ModelField {
        ModelField(kind: .bytes, name: name, column: column, fileColumn: nil, synced: synced, read: { .bytes($0[keyPath: path]) }) { model, value in
            if case .bytes(let bytes) = value { model[keyPath: path] = bytes }
        }
    }
}

/// Every stored field of a word, in the order of the store's columns and of CSV/TSV exports.
public enum WordFields {
    public static let all: [ModelField<Word>] = [
        .id("id", "id", file: .id, synced: false, \.id),
        .id("bookId", "book_id", file: .bookId, synced: true, \.bookId),
        .text("word", "word", file: .word, \.word),
        .text("definition", "definition", file: .definition, \.definition),
        .text("detail", "detail", file: .detail, \.detail),
        .text("pronunciation", "pronunciation", file: .pronunciation, \.pronunciation),
        .text("synonym", "synonym", file: .synonym, \.synonym),
        .text("antonym", "antonym", file: .antonym, \.antonym),
        .time("date", "date", file: .date, synced: true, \.date),
        .flag("memorized", "memorized", file: .memorized, synced: true, \.memorized),
        .time("createdAt", "created_at", file: .createdAt, synced: false, \.createdAt),
        .time("modifiedAt", "modified_at", file: .modifiedAt, synced: false, \.modifiedAt),
    ]

    /// The fields stamped and merged one by one when devices sync.
    public static let synced = all.filter(\.synced)
}

/// Every stored field of a book, in the order of the store's columns.
public enum BookFields {
    public static let all: [ModelField<Book>] = [
        .id("id", "id", file: nil, synced: false, \.id),
        .text("name", "name", file: nil, \.name),
        .text("explain", "explain", file: nil, \.explain),
        .text("meaning", "meaning", file: nil, \.meaning),
        .bytes("image", "image", synced: true, \.image),
        .text("coverWord", "cover_word", file: nil, \.coverWord),
        .time("createdAt", "created_at", file: nil, synced: false, \.createdAt),
        .time("modifiedAt", "modified_at", file: nil, synced: false, \.modifiedAt),
    ]

    /// The fields stamped and merged one by one when devices sync.
    public static let synced = all.filter(\.synced)
}
