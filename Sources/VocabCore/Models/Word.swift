import FoundationEssentials

/// A word in a book, with everything the learner wrote about it.
public struct Word: Identifiable, Hashable, Sendable {
    public var id: UUID
    /// The book this word belongs to, by id (never by name: renaming a book keeps its words).
    public var bookId: UUID
    /// The word itself, exactly as typed (trimmed, NFC); unique within its book.
    public var word: String
    public var definition: String
    public var detail: String
    public var pronunciation: String
    public var synonym: String
    public var antonym: String
    /// The day the word was added (user-editable).
    public var date: Timestamp
    /// Whether the learner marked the word as memorised.
    public var memorized: Bool
    public var createdAt: Timestamp
    public var modifiedAt: Timestamp

    public init(id: UUID = .timeOrdered(), bookId: UUID, word: String, definition: String = "", detail: String = "",
                pronunciation: String = "", synonym: String = "", antonym: String = "",
                date: Timestamp, memorized: Bool = false, createdAt: Timestamp, modifiedAt: Timestamp) {
        self.id = id
        self.bookId = bookId
        self.word = word
        self.definition = definition
        self.detail = detail
        self.pronunciation = pronunciation
        self.synonym = synonym
        self.antonym = antonym
        self.date = date
        self.memorized = memorized
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }
}

/// The text fields of a word, in the order they are shown and exported.
public enum WordField: String, CaseIterable, Sendable {
    case word, definition, detail, pronunciation, synonym, antonym
}

/// The text fields of a book, named as the rules that check them name them.
public enum BookField: String, CaseIterable, Sendable {
    case name = "book name"
    case explain = "explanation"
    case meaning
    case coverWord = "cover word"
}

/// The fields of a new word, as typed; `validated()` cleans and checks them.
public struct WordDraft: Sendable, Equatable {
    public var word: String
    public var definition: String = ""
    public var detail: String = ""
    public var pronunciation: String = ""
    public var synonym: String = ""
    public var antonym: String = ""
    /// Nil means "now".
    public var date: Timestamp? = nil
    public var memorized: Bool = false

    public init(word: String, definition: String = "", detail: String = "", pronunciation: String = "",
                synonym: String = "", antonym: String = "", date: Timestamp? = nil, memorized: Bool = false) {
        self.word = word
        self.definition = definition
        self.detail = detail
        self.pronunciation = pronunciation
        self.synonym = synonym
        self.antonym = antonym
        self.date = date
        self.memorized = memorized
    }

    /// The draft with every field cleaned; throws the first rule it breaks.
    public func validated() throws -> WordDraft {
        var draft = self
        draft.word = try FieldRules.requiredLine(word, field: "word", limit: FieldRules.maxWordLength)
        draft.definition = try FieldRules.optionalText(definition, field: "definition")
        draft.detail = try FieldRules.optionalText(detail, field: "detail")
        draft.pronunciation = try FieldRules.optionalText(pronunciation, field: "pronunciation")
        draft.synonym = try FieldRules.optionalText(synonym, field: "synonym")
        draft.antonym = try FieldRules.optionalText(antonym, field: "antonym")
        return draft
    }
}

/// An edit of some of a word's fields; nil leaves a field as it is.
public struct WordChanges: Sendable {
    public var word: String?
    public var definition: String?
    public var detail: String?
    public var pronunciation: String?
    public var synonym: String?
    public var antonym: String?
    public var date: Timestamp?
    public var memorized: Bool?
    /// Moves the word to another book.
    public var bookId: UUID?

    public init(word: String? = nil, definition: String? = nil, detail: String? = nil, pronunciation: String? = nil,
                synonym: String? = nil, antonym: String? = nil, date: Timestamp? = nil, memorized: Bool? = nil,
                bookId: UUID? = nil) {
        self.word = word
        self.definition = definition
        self.detail = detail
        self.pronunciation = pronunciation
        self.synonym = synonym
        self.antonym = antonym
        self.date = date
        self.memorized = memorized
        self.bookId = bookId
    }

    public var isEmpty: Bool {
        word == nil && definition == nil && detail == nil && pronunciation == nil && synonym == nil
            && antonym == nil && date == nil && memorized == nil && bookId == nil
    }

    /// `word` with these changes applied and validated; `modifiedAt` is left to the caller.
    public func applied(to word: Word) throws -> Word {
        let draft = try WordDraft(
            word: self.word ?? word.word, definition: definition ?? word.definition,
            detail: detail ?? word.detail, pronunciation: pronunciation ?? word.pronunciation,
            synonym: synonym ?? word.synonym, antonym: antonym ?? word.antonym
        ).validated()
        var result = word
        result.word = draft.word
        result.definition = draft.definition
        result.detail = draft.detail
        result.pronunciation = draft.pronunciation
        result.synonym = draft.synonym
        result.antonym = draft.antonym
        result.date = date ?? word.date
        result.memorized = memorized ?? word.memorized
        result.bookId = bookId ?? word.bookId
        return result
    }
}
