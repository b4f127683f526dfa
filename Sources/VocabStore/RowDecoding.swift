import FoundationEssentials
import CSQLite
import VocabCore

/// Column lists and row decoders shared by the store's queries.
/// The select lists, insert lists and updates of words and books, made from their field
/// descriptions (`WordFields`, `BookFields`). Selected columns are named `w_<column>` and
/// `b_<column>`, so a row is decoded by name whatever else the query selects beside them.
enum Columns {
    static let book = BookFields.all.map { "b.\($0.column) AS b_\($0.column)" }.joined(separator: ", ")
    /// A word's book is kept as the book's key (`words.book`); its columns give the book's id.
    static let word = wordColumns(bookId: "(SELECT id FROM books WHERE key = w.book)")
    /// `word` for a query that joins `bookOfWord` (long lists: one join instead of a lookup
    /// per row).
    static let wordJoined = wordColumns(bookId: "wb.id")
    static let bookOfWord = "JOIN books wb ON wb.key = w.book"
    /// The names the rows of `book` and `word` give their columns, field by field.
    static let bookNames = BookFields.all.map { "b_" + $0.column }
    static let wordNames = WordFields.all.map { "w_" + $0.column }
    /// How many columns `word` has, for queries that select more after it.
    static let wordCount = Int32(WordFields.all.count)
    /// The columns every insert of a word writes, in the order of `Store.wordValues`: every
    /// field, and the look-up key derived from the text.
    static let wordInsert = (WordFields.all.map(\.column) + ["word_key"]).joined(separator: ", ")
    /// Its values: the book's key found from the book id bound in its place.
    static let wordPlaceholders = (WordFields.all.enumerated().map { wordValue($0.element, parameter: "?") } + ["?"])
        .joined(separator: ", ")
    /// `col = ?n` for every field but the id (`?1`), then the key: an update of a whole word.
    static let wordAssignments = (WordFields.all.enumerated().dropFirst().map {
        "\($0.element.column) = \(wordValue($0.element, parameter: "?\($0.offset + 1)"))"
    } + ["word_key = ?\(WordFields.all.count + 1)"]).joined(separator: ", ")
    /// `col = excluded.col` for every field but the id, and the key: an upsert's update.
    static let wordExcluded = (WordFields.all.dropFirst().map(\.column) + ["word_key"])
        .map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// The book key of the book whose id is bound to `parameter`.
    static func bookKey(_ parameter: String) -> String { "(SELECT key FROM books WHERE id = \(parameter))" }
    /// The keys of the books whose ids are bound to `marks` (`?, ?, …`).
    static func bookKeys(_ marks: String) -> String { "(SELECT key FROM books WHERE id IN (\(marks)))" }
    /// The word key of the word whose id is bound to `parameter`.
    static func wordKey(_ parameter: String) -> String { "(SELECT key FROM words WHERE id = \(parameter))" }
    /// The text form of the 16-byte id in `column` (a review's), in plain SQL.
    static func idText(_ column: String) -> String {
        "lower(substr(hex(\(column)), 1, 8) || '-' || substr(hex(\(column)), 9, 4) || '-' || substr(hex(\(column)), 13, 4) || '-' "
            + "|| substr(hex(\(column)), 17, 4) || '-' || substr(hex(\(column)), 21))"
    }
    /// Every field of the word row `w`, its book's id given by `bookId`.
    private static func wordColumns(bookId: String) -> String {
        WordFields.all.map { "\($0.name == "bookId" ? bookId : "w." + $0.column) AS w_\($0.column)" }.joined(separator: ", ")
    }

    private static func wordValue(_ field: ModelField<Word>, parameter: String) -> String {
        field.name == "bookId" ? bookKey(parameter) : parameter
    }
}

extension FieldValue {
    /// The value as the store keeps it: ids as lowercase text, times as ms, flags as 0/1.
    var sqlValue: SQLValue {
        switch self {
        case .text(let text): return .text(text)
        case .id(let id): return .text(id.storageText)
        case .time(let time): return .integer(time.milliseconds)
        case .flag(let flag): return .integer(flag ? 1 : 0)
        case .bytes(let bytes): return bytes.map { .blob($0) } ?? .null
        }
    }
}

extension Row {
    func uuid(_ column: Int32, table: String, name: String) throws -> UUID {
        guard let id = UUID(text: text(column)) else {
            throw StoreError.malformedRow(table: table, column: name)
        }
        return id
    }

    /// An id kept as its 16 bytes (a review's); nil when the column holds something else.
    func uuidBytes(_ column: Int32) -> UUID? {
        guard let bytes = blob(column), bytes.count == 16 else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    func timestamp(_ column: Int32) -> Timestamp { Timestamp(milliseconds: int(column)) }

    private static let placeholder = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The book in the `b_…` columns of `Columns.book`.
    func decodeBook() throws -> Book {
        var book = Book(id: Self.placeholder, name: "", createdAt: Timestamp(milliseconds: 0), modifiedAt: Timestamp(milliseconds: 0))
        for (field, index) in zip(BookFields.all, try columns(Columns.bookNames)) { field.write(&book, try value(of: field, at: index, table: "books")) }
        return book
    }

    /// The word in the `w_…` columns of `Columns.word`.
    func decodeWord() throws -> Word {
        var word = Word(id: Self.placeholder, bookId: Self.placeholder, word: "", date: Timestamp(milliseconds: 0),
                        createdAt: Timestamp(milliseconds: 0), modifiedAt: Timestamp(milliseconds: 0))
        for (field, index) in zip(WordFields.all, try columns(Columns.wordNames)) { field.write(&word, try value(of: field, at: index, table: "words")) }
        return word
    }

    /// A field's value from its named column, in the kind the field describes.
    private func value<Model>(of field: ModelField<Model>, at index: Int32, table: String) throws -> FieldValue {
        switch field.kind {
        case .text: return .text(text(index))
        case .id: return .id(try uuid(index, table: table, name: field.column))
        case .time: return .time(timestamp(index))
        case .flag: return .flag(bool(index))
        case .bytes: return .bytes(blob(index))
        }
    }

    /// A word (`Columns.word`) followed by its due time (nil when never reviewed).
    func decodeWordWithDue() throws -> (word: Word, due: Timestamp?) {
        (try decodeWord(), isNull(Columns.wordCount) ? nil : timestamp(Columns.wordCount))
    }
}

extension UUID {
    /// The form ids are stored and printed in.
    var storageText: String { lowercaseText }
    /// The form a review's id is kept in: its 16 bytes.
    var storageBytes: SQLValue { .blob(withUnsafeBytes(of: uuid) { [UInt8]($0) }) }
}

extension Statement {
    /// Binds an id's 16 bytes (the form a review's id is kept in) to parameter `index`.
    public func bind(idBytes id: UUID, at index: Int32) throws {
        let code = withUnsafeBytes(of: id.uuid) { vocab_sqlite3_bind_blob(handle, index, $0.baseAddress, 16) }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: database.handle, sql: sql) }
    }

    /// Binds an id's text form to parameter `index` without making a string of it.
    public func bind(idText id: UUID, at index: Int32) throws {
        let code = id.withLowercaseText { text in
            text.withMemoryRebound(to: CChar.self) { vocab_sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count)) }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: database.handle, sql: sql) }
    }
}
