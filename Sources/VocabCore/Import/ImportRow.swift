import FoundationEssentials

/// The columns an import file may have, by their canonical names (DESIGN.md §9).
public enum ImportColumn: String, CaseIterable, Sendable {
    case id, bookId, book, word, definition, detail, pronunciation, synonym, antonym, date, memorized
    case createdAt, modifiedAt

    /// The column a header cell names: canonical names in any case, with spaces, dashes or
    /// underscores, plus common spreadsheet and Korean headings.
    public init?(header: String) {
        let key = TextRules.clean(header).lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" }
        if let column = ImportColumn.allCases.first(where: { $0.rawValue.lowercased() == key }) {
            self = column
            return
        }
        switch key {
        case "term", "front", "expression", "vocabulary", "text", "단어": self = .word
        case "meaning", "back", "뜻", "의미": self = .definition
        case "note", "notes", "example", "examples", "sentence", "context", "backextra", "메모", "예문": self = .detail
        case "ipa", "reading", "발음": self = .pronunciation
        case "synonyms", "유의어", "동의어": self = .synonym
        case "antonyms", "반의어": self = .antonym
        case "bookname", "deck", "단어장": self = .book
        case "dateadded", "added": self = .date
        case "memorised", "known", "암기": self = .memorized
        default: return nil
        }
    }
}

extension ImportColumn {
    /// The column's position in `allCases`, for array-backed lookups on the import hot path.
    var ordinal: Int {
        switch self {
        case .id: return 0
        case .bookId: return 1
        case .book: return 2
        case .word: return 3
        case .definition: return 4
        case .detail: return 5
        case .pronunciation: return 6
        case .synonym: return 7
        case .antonym: return 8
        case .date: return 9
        case .memorized: return 10
        case .createdAt: return 11
        case .modifiedAt: return 12
        }
    }
}

/// A row's values by column: a small fixed array rather than a dictionary, since an import
/// builds one per line.
public struct ImportValues: Sendable, ExpressibleByDictionaryLiteral {
    private var slots = [String?](repeating: nil, count: 13)

    public init() {}

    public init(dictionaryLiteral elements: (ImportColumn, String)...) {
        for (column, value) in elements { self[column] = value }
    }

    public subscript(column: ImportColumn) -> String? {
        get { slots[column.ordinal] }
        set { slots[column.ordinal] = newValue }
    }

    /// The columns that have a value.
    public var columns: ColumnSet {
        var set = ColumnSet()
        for column in ImportColumn.allCases where slots[column.ordinal] != nil { set.insert(column) }
        return set
    }
}

/// A set of columns as bits.
public struct ColumnSet: Sendable, Equatable {
    private var bits: UInt16 = 0

    public init() {}

    public func contains(_ column: ImportColumn) -> Bool { bits & (1 << column.ordinal) != 0 }

    public mutating func insert(_ column: ImportColumn) { bits |= 1 << column.ordinal }
}

/// One record of an import file: the line it starts on and its values by column.
public struct ImportRow: Sendable {
    public var line: Int
    public var values: ImportValues

    public init(line: Int, values: ImportValues) {
        self.line = line
        self.values = values
    }
}

/// A word as an import row describes it, checked and cleaned.
public struct ImportedWord: Sendable {
    public var line: Int
    public var id: UUID?
    public var bookId: UUID?
    /// The book's name from the row, or the default book.
    public var bookName: String?
    public var draft: WordDraft
    public var createdAt: Timestamp?
    public var modifiedAt: Timestamp?
    /// The columns the file has: on update, only these fields change.
    public var present: ColumnSet

    /// Validates a row's values; throws `ImportError.invalidLine` naming the first problem.
    /// A row that names no book (by name or id) goes to `defaultBookId`, else `defaultBook`.
    public init(row: ImportRow, defaultBook: String?, defaultBookId: UUID? = nil) throws {
        func value(_ column: ImportColumn) -> String { row.values[column] ?? "" }
        func fail(_ reason: String) -> ImportError { .invalidLine(line: row.line, reason: reason) }
        func uuid(_ column: ImportColumn) throws -> UUID? {
            let text = TextRules.clean(value(column))
            if text.isEmpty { return nil }
            guard let id = UUID(text: text) else { throw fail("\(column.rawValue) \"\(text)\" is not a UUID") }
            return id
        }
        func stamp(_ column: ImportColumn) throws -> Timestamp? {
            let text = TextRules.clean(value(column))
            if text.isEmpty { return nil }
            guard let stamp = Timestamp(iso8601: text) else {
                throw fail("\(column.rawValue) \"\(text)\" is not a date (use ISO 8601, e.g. 2026-11-30)")
            }
            return stamp
        }

        line = row.line
        present = row.values.columns
        id = try uuid(.id)
        bookId = try uuid(.bookId)
        let named = TextRules.clean(value(.book))
        bookName = named.isEmpty ? defaultBook : named
        if bookId == nil, named.isEmpty, let defaultBookId { bookId = defaultBookId }
        createdAt = try stamp(.createdAt)
        modifiedAt = try stamp(.modifiedAt)
        var draft = WordDraft(word: value(.word), definition: value(.definition), detail: value(.detail),
                              pronunciation: value(.pronunciation), synonym: value(.synonym), antonym: value(.antonym),
                              date: try stamp(.date))
        do {
            draft.memorized = try FieldRules.boolean(value(.memorized))
            self.draft = try draft.validated()
        } catch let error as VocabError {
            throw fail(error.message.trimmingSuffix(".").lowercasingFirstLetter())
        }
        if bookName == nil && bookId == nil { throw ImportError.noBook(line: row.line) }
    }
}

extension String {
    func lowercasingFirstLetter() -> String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }

    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
