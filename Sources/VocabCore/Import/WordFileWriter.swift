import Foundation

/// Writes words as CSV (RFC 4180, CRLF), TSV (escaped, LF) or JSON Lines, with every field,
/// so that `vocab import` reads the file back to the same words.
public struct WordFileWriter: Sendable {
    public let format: WordFileFormat

    /// The columns of CSV and TSV exports, in order.
    public static let columns: [ImportColumn] = [
        .id, .bookId, .book, .word, .definition, .detail, .pronunciation, .synonym, .antonym, .date, .memorized,
        .createdAt, .modifiedAt,
    ]

    public init(format: WordFileFormat) {
        self.format = format
    }

    /// The header line (with its line ending), or "" for JSON Lines.
    public var header: String {
        switch format {
        case .csv: return WordFileWriter.columns.map(\.rawValue).joined(separator: ",") + "\r\n"
        case .tsv: return WordFileWriter.columns.map(\.rawValue).joined(separator: "\t") + "\n"
        case .jsonl: return ""
        }
    }

    /// One word as a line of the file, with its line ending.
    public func line(for word: Word, bookName: String) -> String {
        switch format {
        case .jsonl:
            return word.json(bookName: bookName).compact + "\n"
        case .csv:
            return fields(word, bookName).map(WordFileWriter.csvField).joined(separator: ",") + "\r\n"
        case .tsv:
            return fields(word, bookName).map(TSVEscapes.escape).joined(separator: "\t") + "\n"
        }
    }

    private func fields(_ word: Word, _ bookName: String) -> [String] {
        [word.id.lowercaseText, word.bookId.lowercaseText, bookName, word.word, word.definition,
         word.detail, word.pronunciation, word.synonym, word.antonym, word.date.iso8601,
         word.memorized ? "true" : "false", word.createdAt.iso8601, word.modifiedAt.iso8601]
    }

    /// A CSV field, quoted when it holds a comma, quote, line break or edge spaces.
    public static func csvField(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
