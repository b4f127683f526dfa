import FoundationEssentials

/// A word book (단어장): a named collection of words.
public struct Book: Identifiable, Hashable, Sendable {
    public var id: UUID
    /// Unique per user, ignoring case.
    public var name: String
    /// What the book is about.
    public var explain: String
    /// What the book means to its owner (the original app's "meaning" field).
    public var meaning: String
    /// Cover image bytes (PNG, JPEG, GIF or WebP), at most `FieldRules.maxImageBytes`.
    public var image: [UInt8]?
    /// A word shown on the book's cover.
    public var coverWord: String
    public var createdAt: Timestamp
    public var modifiedAt: Timestamp

    public init(id: UUID = .timeOrdered(), name: String, explain: String = "", meaning: String = "",
                image: [UInt8]? = nil, coverWord: String = "",
                createdAt: Timestamp, modifiedAt: Timestamp) {
        self.id = id
        self.name = name
        self.explain = explain
        self.meaning = meaning
        self.image = image
        self.coverWord = coverWord
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    /// The kind of the cover image, if there is one.
    public var imageKind: ImageKind? { image.flatMap { ImageKind(sniffing: $0) } }
}

/// A book with the counts the home screen and `book list` show.
public struct BookSummary: Hashable, Sendable {
    public var book: Book
    public var wordCount: Int
    public var memorizedCount: Int

    public init(book: Book, wordCount: Int, memorizedCount: Int) {
        self.book = book
        self.wordCount = wordCount
        self.memorizedCount = memorizedCount
    }
}

/// The fields of a new book, as typed; `validated()` cleans and checks them.
public struct BookDraft: Sendable {
    public var name: String
    public var explain: String = ""
    public var meaning: String = ""
    public var image: [UInt8]? = nil
    public var coverWord: String = ""

    public init(name: String, explain: String = "", meaning: String = "", image: [UInt8]? = nil, coverWord: String = "") {
        self.name = name
        self.explain = explain
        self.meaning = meaning
        self.image = image
        self.coverWord = coverWord
    }

    /// The draft with every field cleaned; throws the first rule it breaks.
    public func validated() throws -> BookDraft {
        var draft = self
        draft.name = try FieldRules.requiredLine(name, field: BookField.name.rawValue, limit: FieldRules.maxNameLength)
        draft.explain = try FieldRules.optionalText(explain, field: BookField.explain.rawValue)
        draft.meaning = try FieldRules.optionalText(meaning, field: BookField.meaning.rawValue)
        draft.coverWord = try FieldRules.optionalText(coverWord, field: BookField.coverWord.rawValue)
        if let image { _ = try FieldRules.image(image) }
        return draft
    }
}

/// An edit of some of a book's fields; nil leaves a field as it is.
public struct BookChanges: Sendable {
    public enum ImageChange: Sendable { case set([UInt8]), remove }

    public var name: String?
    public var explain: String?
    public var meaning: String?
    public var image: ImageChange?
    public var coverWord: String?

    public init(name: String? = nil, explain: String? = nil, meaning: String? = nil,
                image: ImageChange? = nil, coverWord: String? = nil) {
        self.name = name
        self.explain = explain
        self.meaning = meaning
        self.image = image
        self.coverWord = coverWord
    }

    public var isEmpty: Bool {
        name == nil && explain == nil && meaning == nil && image == nil && coverWord == nil
    }

    /// `book` with these changes applied and validated; `modifiedAt` is left to the caller.
    public func applied(to book: Book) throws -> Book {
        var draft = BookDraft(name: name ?? book.name, explain: explain ?? book.explain,
                              meaning: meaning ?? book.meaning, image: book.image,
                              coverWord: coverWord ?? book.coverWord)
        switch image {
        case .set(let bytes): draft.image = bytes
        case .remove: draft.image = nil
        case nil: break
        }
        draft = try draft.validated()
        var result = book
        result.name = draft.name
        result.explain = draft.explain
        result.meaning = draft.meaning
        result.image = draft.image
        result.coverWord = draft.coverWord
        return result
    }
}
