import FoundationEssentials
import VocabCore

/// The insert a bulk import runs for its new words: prepared once and bound value by value,
/// with the book's key looked up once per book (no per-row arrays or statement lookups).
/// Words come one at a time (`insertIfNew`) or in batches (`insertAll`): one statement for a
/// batch keeps SQLite's cursors on the table and its indexes open from row to row, where a
/// statement per row opens them and walks each index down from its root again.
struct BulkWordInsert {
    /// Words per statement in `insertAll`.
    static let batchSize = 128

    private let database: Database
    private let single: Statement
    private let batch: Statement
    private var bookId: UUID?
    private var bookKey: SQLValue = .null
    /// The texts of the word or batch being bound.
    private let texts = TextBuffer()
    /// How each column's value is read from a word, in the statement's order (the fields
    /// themselves are not copied row by row).
    private let readers = WordFields.all.map(\.read)
    /// Where the book goes: its key is found once per book, not once per word.
    private let bookIdOffset = WordFields.all.firstIndex { $0.name == "bookId" } ?? -1
    private static let valuesPerWord = WordFields.all.count + 1

    init(database: Database) throws {
        self.database = database
        let marks = "(" + Array(repeating: "?", count: Self.valuesPerWord).joined(separator: ", ") + ")"
        single = try database.statement("""
            INSERT INTO words (\(Columns.wordInsert)) VALUES \(marks) ON CONFLICT DO NOTHING
            """)
        // OR IGNORE rather than ON CONFLICT: no row can make it stop halfway, so SQLite keeps no
        // statement journal of the pages it changes.
        batch = try database.statement("""
            INSERT OR IGNORE INTO words (\(Columns.wordInsert))
            VALUES \(Array(repeating: marks, count: Self.batchSize).joined(separator: ", "))
            """)
    }

    /// Inserts `word` unless its id, or its text in its book, is taken; returns whether it did.
    mutating func insertIfNew(_ word: Word) throws -> Bool {
        single.reset()
        texts.removeAll()
        defer { single.clearBindings() }  // they point into `texts`
        try bind(word, to: single, from: 1)
        while try single.step() {}
        return database.changes == 1
    }

    /// Inserts each of `words` unless its id, or its text in its book, is taken (by a word
    /// before it in the list, too); returns the key of each word, nil for those left out.
    /// A full batch goes in as one statement, fewer words one by one.
    mutating func insertAll(_ words: [Word]) throws -> [Int64?] {
        guard words.count == Self.batchSize else {
            return try words.map { try insertIfNew($0) ? database.lastInsertedRowid : nil }
        }
        let before = try database.integer("SELECT coalesce(max(key), 0) FROM words")
        batch.reset()
        texts.removeAll()
        defer { batch.clearBindings() }  // they point into `texts`, which the next batch reuses
        for row in words.indices {
            try bind(words[row], to: batch, from: Int32(row * Self.valuesPerWord + 1))
        }
        while try batch.step() {}
        // Keys are handed out in order, one above the largest: when none was left out, the
        // batch's keys follow the last one; else each word's own id tells whether it went in.
        if database.changes == words.count {
            let last = database.lastInsertedRowid
            return words.indices.map { last - Int64(words.count - 1 - $0) }
        }
        return try words.map { word in
            try database.first("SELECT key FROM words WHERE id = ? AND key > ?",
                               [.text(word.id.storageText), .integer(before)]) { $0.int(0) }
        }
    }

    /// Binds one word's values from parameter `first` on, its texts from `texts` (no copy for
    /// SQLite to own and free).
    private mutating func bind(_ word: Word, to statement: Statement, from first: Int32) throws {
        if word.bookId != bookId { try lookUpBook(of: word) }
        for offset in readers.indices {
            let index = first + Int32(offset)
            if offset == bookIdOffset {
                try statement.bind(bookKey, at: index)
                continue
            }
            switch readers[offset](word) {
            case .text(let text): try statement.bindUnowned(texts.append(text), at: index)
            case .id(let id): try statement.bindUnowned(id.withLowercaseText { texts.append(UnsafeRawBufferPointer($0)) }, at: index)
            case .time(let time): try statement.bind(time.milliseconds, at: index)
            case .flag(let flag): try statement.bind(flag ? 1 : 0, at: index)
            case .bytes(let value): try statement.bind(value.map { .blob($0) } ?? .null, at: index)
            }
        }
        try statement.bindUnowned(texts.append(TextRules.lookupKey(word.word)), at: first + Int32(readers.count))
    }

    private mutating func lookUpBook(of word: Word) throws {
        bookId = word.bookId
        bookKey = try database.first("SELECT key FROM books WHERE id = ?", [.text(word.bookId.storageText)]) { .integer($0.int(0)) } ?? .null
    }
}

/// Text bytes that bound values point into, kept in chunks that never move until
/// `removeAll()`, which keeps them for the next batch.
final class TextBuffer {
    private static let chunkSize = 64 * 1024
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    /// The chunk being filled, and how much of it is.
    private var chunk = 0
    private var used = 0

    /// Forgets what was appended; the memory stays for the next batch.
    func removeAll() {
        chunk = 0
        used = 0
    }

    /// Copies `text`'s UTF-8 in; returns where it is, until `removeAll()`.
    func append(_ text: String) -> UnsafeRawBufferPointer {
        var text = text
        return text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Copies `bytes` in; returns where they are, until `removeAll()`.
    func append(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        while chunk < chunks.count, used + bytes.count > chunks[chunk].count {
            chunk += 1
            used = 0
        }
        if chunk == chunks.count {
            chunks.append(.allocate(byteCount: max(Self.chunkSize, bytes.count), alignment: 1))
        }
        let start = chunks[chunk].baseAddress.unsafelyUnwrapped + used
        if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return UnsafeRawBufferPointer(start: start, count: bytes.count)
    }

    deinit { chunks.forEach { $0.deallocate() } }
}
