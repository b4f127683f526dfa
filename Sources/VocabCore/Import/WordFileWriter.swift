import FoundationEssentials

/// Writes words as CSV (RFC 4180, CRLF), TSV (escaped, LF) or JSON Lines, with every field,
/// so that `vocab import` reads the file back to the same words.
public struct WordFileWriter: Sendable {
    public let format: WordFileFormat

    /// The columns of CSV and TSV exports, in order: every word field with a file column
    /// (`WordFields`), and the book's name after its id.
    public static let columns: [ImportColumn] = WordFields.all.compactMap(\.fileColumn).flatMap { $0 == .bookId ? [.bookId, .book] : [$0] }

    public init(format: WordFileFormat) {
        self.format = format
    }

    /// The header line (with its line ending), or "" for JSON Lines.
    public var header: String {
        switch format {
        case .csv: return WordFileWriter.columns.map(\.rawValue).joined(separator: ",") + "\r\n"
        case .tsv: return WordFileWriter.columns.map(\.rawValue).joined(separator: "\t") + "\n"
        case .jsonl, .xlsx, .apkg: return ""
        case .text: return AnkiNotesText.header
        }
    }

    /// One word as a line of the file, with its line ending.
    public func line(for word: Word, bookName: String) -> String {
        switch format {
        case .jsonl, .xlsx, .apkg:  // workbooks are never written and packages by VocabAnki: export sends them elsewhere
            return word.json(bookName: bookName).compact + "\n"
        case .csv:
            return fields(word, bookName).map(WordFileWriter.csvField).joined(separator: ",") + "\r\n"
        case .tsv:
            return fields(word, bookName).map(TSVEscapes.escape).joined(separator: "\t") + "\n"
        case .text:
            return AnkiNotesText.line(for: word, bookName: bookName)
        }
    }

    private func fields(_ word: Word, _ bookName: String) -> [String] {
        WordFields.all.filter { $0.fileColumn != nil }.flatMap { field -> [String] in
            let cell = Self.cell(field.read(word))
            return field.fileColumn == .bookId ? [cell, bookName] : [cell]
        }
    }

    /// A field's value as a cell: ids in lowercase, times in ISO 8601, flags as true/false.
    static func cell(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): return text
        case .id(let id): return id.lowercaseText
        case .time(let time): return time.iso8601
        case .flag(let flag): return flag ? "true" : "false"
        case .bytes: return ""
        }
    }

    /// A CSV field, quoted when it holds a comma, quote, line break or edge spaces.
    public static func csvField(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingText("\"", with: "\"\"") + "\""
    }
}

/// Anki's "Notes in Plain Text" layout, as Anki's File > Import reads it: Basic notes (Front the
/// word; Back the definition, then the other fields on lines of their own), the book as the
/// deck, the word's id as the guid (importing again updates the notes), HTML fields.
enum AnkiNotesText {
    static let header = """
        #separator:tab
        #html:true
        #notetype:Basic
        #guid column:1
        #deck column:2
        #columns:guid\tdeck\tFront\tBack

        """

    static func line(for word: Word, bookName: String) -> String {
        var back = html(word.definition)
        if !word.detail.isEmpty { back += (back.isEmpty ? "" : "<br><br>") + html(word.detail) }
        for (label, value) in [("Pronunciation", word.pronunciation), ("Synonyms", word.synonym), ("Antonyms", word.antonym)]
        where !value.isEmpty {
            back += (back.isEmpty ? "" : "<br>") + label + ": " + html(value)
        }
        return [word.id.lowercaseText, bookName, html(word.word), back].map(field).joined(separator: "\t") + "\n"
    }

    /// Text as HTML: the characters HTML gives meaning escaped, line breaks as <br>.
    static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\r\n": out += "<br>"
            default: out.append(character)
            }
        }
        return out
    }

    /// A field quoted as Anki's reader expects when it holds a tab, quote or line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingText("\"", with: "\"\"") + "\""
    }
}
