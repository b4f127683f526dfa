import FoundationEssentials
import VocabCore
import VocabSessions

/// `word list`'s output, written as bytes straight from the store's rows: a list of 100,000
/// words costs about what producing its bytes costs. The output is exactly what `Word.json`
/// and `TextTable` make (tested side by side); text that is not plain ASCII takes their way.
struct WordListWriter {
    private let names: [UUID: String]
    private var lastBookId: [UInt8] = []
    private var lastBookName: String?
    private static let fields = WordFields.all
    private static let bookIdField = WordFields.all.firstIndex { $0.name == "bookId" } ?? 1

    init(bookNames: [UUID: String]) {
        names = bookNames
    }

    // MARK: JSON

    /// One word as an element of the top-level array: `Word.json(bookName:).pretty(level: 1)`.
    mutating func writeJSON(_ row: WordFieldsView, to out: inout [UInt8]) throws {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (index, field) in Self.fields.enumerated() {
            if field.kind == .bytes { continue }
            Self.member(field.name, first: first, to: &out)
            first = false
            switch field.kind {
            case .text: Self.writeText(row.bytes(index), to: &out)
            case .id: try Self.writeId(row.bytes(index), column: field.column, to: &out)
            case .time:
                out.append(UInt8(ascii: "\""))
                Timestamp(milliseconds: row.integer(index)).writeISO8601(to: &out)
                out.append(UInt8(ascii: "\""))
            case .flag: out.append(contentsOf: (row.integer(index) != 0 ? "true" : "false").utf8)
            case .bytes: break
            }
            if index == Self.bookIdField, let name = try bookName(row.bytes(index)) {
                Self.member("book", first: false, to: &out)
                JSONValue.writeString(name, to: &out)
            }
        }
        out.append(contentsOf: "\n  }".utf8)
    }

    private static func member(_ name: String, first: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: (first ? "\n    \"" : ",\n    \"").utf8)
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: "\": ".utf8)
    }

    /// Text as a JSON string: plain ASCII as it is, anything else the way a String is written
    /// (invalid UTF-8 repaired as when it is read into a String).
    private static func writeText(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isValidUTF8(bytes) {
            JSONValue.writeString(utf8: bytes, to: &out)
        } else {
            JSONValue.writeString(String(decoding: bytes, as: UTF8.self), to: &out)
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int, low: UInt8, high: UInt8
            switch lead {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xE1...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return false
            }
            guard index + length <= count, (low...high).contains(bytes[index + 1]) else { return false }
            for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// An id as its lowercase text (as `UUID.lowercaseText` prints it).
    private static func writeId(_ bytes: UnsafeBufferPointer<UInt8>, column: String, to out: inout [UInt8]) throws {
        guard let id = plainId(bytes) else {
            guard let parsed = UUID(text: String(decoding: bytes, as: UTF8.self)) else {
                throw Library.malformedValue(table: "words", column: column)
            }
            return JSONValue.writeString(parsed.lowercaseText, to: &out)
        }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: id)
        out.append(UInt8(ascii: "\""))
    }

    /// The id's bytes when they already are lowercase 8-4-4-4-12 hex, else nil.
    private static func plainId(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let dash = index == 8 || index == 13 || index == 18 || index == 23
            guard dash ? byte == UInt8(ascii: "-") : ((48...57).contains(byte) || (97...102).contains(byte)) else { return nil }
        }
        return bytes
    }

    /// The name of the book whose id's bytes are `bytes` (the last one is remembered: a list
    /// mostly stays in one book).
    private mutating func bookName(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String? {
        if bytes.elementsEqual(lastBookId) { return lastBookName }
        guard let id = UUID(text: String(decoding: bytes, as: UTF8.self)) else {
            throw Library.malformedValue(table: "words", column: "book")
        }
        lastBookId = Array(bytes)
        lastBookName = names[id]
        return lastBookName
    }

    // MARK: The table

    /// The word's line of the table (as `TextTable.line` makes it from `TextWidth.fit` cells:
    /// book when shown, word, definition, memorised), written without making the cells when
    /// `simpleFit` can cut them: the second of the table's two passes.
    mutating func writeRow(_ row: WordFieldsView, showingBook: Bool, word: Int, definition: Int, memorized: Int,
                           widths: [Int], to out: inout [UInt8]) throws {
        var column = 0
        func put(_ text: UnsafeBufferPointer<UInt8>, most: Int) {
            if column > 0 { out.append(contentsOf: [0x20, 0x20]) }
            let used = Self.writeFitted(text, most: most, to: &out)
            if used < widths[column] { out.append(contentsOf: repeatElement(0x20, count: widths[column] - used)) }
            column += 1
        }
        if showingBook {
            let name = Array((try bookName(row.bytes(Self.bookIdField)) ?? "").utf8)
            name.withUnsafeBufferPointer { put($0, most: 20) }
        }
        put(row.bytes(word), most: 30)
        put(row.bytes(definition), most: 50)
        out.append(contentsOf: [0x20, 0x20])
        if row.integer(memorized) != 0 { out.append(contentsOf: "yes".utf8) }
        while out.last == 0x20 { out.removeLast() }
        out.append(0x0A)
    }

    /// The width in columns of each of the word's cells (as `writeRow` writes them), without
    /// making them: the first of the table's two passes.
    mutating func widths(_ row: WordFieldsView, showingBook: Bool, word: Int, definition: Int, memorized: Int,
                         into widths: inout [Int]) throws {
        var column = 0
        func widen(_ columns: Int) {
            widths[column] = max(widths[column], columns)
            column += 1
        }
        if showingBook { widen(Cell(text: try bookName(row.bytes(Self.bookIdField)) ?? "", most: 20).columns) }
        widen(Self.columns(row.bytes(word), most: 30))
        widen(Self.columns(row.bytes(definition), most: 50))
        widen(row.integer(memorized) != 0 ? 3 : 0)
    }

    private static func columns(_ text: UnsafeBufferPointer<UInt8>, most: Int) -> Int {
        simpleFit(text, most: most)?.columns ?? Cell(text: String(decoding: text, as: UTF8.self), most: most).columns
    }

    /// Appends `text` cut to `most` columns (as `TextWidth.fit` cuts it) and returns the columns
    /// it takes: by bytes when `simpleFit` can, else through `TextWidth`.
    private static func writeFitted(_ text: UnsafeBufferPointer<UInt8>, most: Int, to out: inout [UInt8]) -> Int {
        guard let fit = simpleFit(text, most: most) else {
            let cell = Cell(text: String(decoding: text, as: UTF8.self), most: most)
            out.append(contentsOf: cell.bytes)
            return cell.columns
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<fit.keep]))
        if fit.cut { out.append(contentsOf: [0xE2, 0x80, 0xA6]) }  // …
        return fit.columns
    }

    /// The cut `TextWidth.fit` makes, for text whose every scalar is a character of its own on a
    /// terminal line — printable ASCII, Latin (U+00A0-U+02FF) and Hangul syllables (two
    /// columns): the bytes kept, whether "…" follows them, and the columns taken. Nil for any
    /// other text (line breaks, marks, other scripts), which `TextWidth` handles.
    static func simpleFit(_ text: UnsafeBufferPointer<UInt8>, most: Int) -> (keep: Int, cut: Bool, columns: Int)? {
        var index = 0, used = 0, keep = 0, keptColumns = 0
        let count = text.count
        while index < count {
            let lead = text[index]
            let length: Int, size: Int
            if lead >= 0x20 && lead < 0x7F {
                (length, size) = (1, 1)
            } else if lead >= 0xC2 && lead <= 0xCB, index + 1 < count, text[index + 1] & 0xC0 == 0x80,
                      lead != 0xC2 || text[index + 1] >= 0xA0 {
                (length, size) = (2, 1)
            } else if lead >= 0xEA && lead <= 0xED, index + 2 < count, text[index + 1] & 0xC0 == 0x80, text[index + 2] & 0xC0 == 0x80 {
                let value = (UInt32(lead & 0x0F) << 12) | (UInt32(text[index + 1] & 0x3F) << 6) | UInt32(text[index + 2] & 0x3F)
                guard value >= 0xAC00 && value <= 0xD7A3 else { return nil }
                (length, size) = (3, 2)
            } else {
                return nil
            }
            used += size
            index += length
            if used <= most - 1 {
                keep = index
                keptColumns = used
            }
        }
        return used <= most ? (count, false, used) : (keep, true, keptColumns + 1)
    }

    /// A table cell's bytes and its width on a terminal.
    struct Cell {
        var bytes: [UInt8]
        var columns: Int

        init(bytes: [UInt8], columns: Int) {
            self.bytes = bytes
            self.columns = columns
        }

        init(text: String, most: Int) {
            let fitted = most == .max ? text : TextWidth.fit(text, width: most)
            self.init(bytes: Array(fitted.utf8), columns: TextWidth.columns(fitted))
        }
    }

    /// One line of the table (`TextTable.line`): cells padded to `widths` but the last, two
    /// spaces between, no trailing spaces.
    static func writeLine(_ cells: [Cell], widths: [Int], to out: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { out.append(contentsOf: [0x20, 0x20]) }
            out.append(contentsOf: cell.bytes)
            if index < cells.count - 1, cell.columns < widths[index] {
                out.append(contentsOf: repeatElement(0x20, count: widths[index] - cell.columns))
            }
        }
        while out.last == 0x20 { out.removeLast() }
        out.append(0x0A)
    }
}
