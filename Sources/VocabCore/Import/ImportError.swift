/// Errors of reading an import file. `invalidLine` concerns one record and can be skipped
/// with `--skip-invalid`; the others stop the import.
public enum ImportError: UserFacingError, Equatable {
    case invalidLine(line: Int, reason: String)
    case missingHeader(found: [String])
    case noBook(line: Int)
    case unknownFormat(String)
    case emptyFile
    /// A record (line) longer than the readers accept: not a word list.
    case recordTooLong(line: Int, limit: Int)
    /// The first row names no column and has more fields than word and definition.
    case noHeader(fields: Int)
    /// The user stopped the import; the store is as it was.
    case cancelled

    public var category: ErrorCategory { .userInput }

    public var message: String {
        switch self {
        case .invalidLine(let line, let reason):
            return "Line \(line): \(reason). Nothing was imported."
        case .missingHeader(let found):
            let shown = found.prefix(6).map { "\"\($0)\"" }.joined(separator: ", ")
            return "The first line must be a header naming the columns, with at least \"word\" (found \(shown))."
        case .noBook(let line):
            return "Line \(line) names no book: add a \"book\" column or choose a book."
        case .unknownFormat(let name):
            return "Cannot tell the format of \"\(name)\" (Vocab reads CSV, TSV, Anki text, JSON Lines, Excel and Anki packages)."
        case .emptyFile:
            return "The file is empty: nothing to import."
        case .recordTooLong(let line, let limit):
            return "Line \(line) is longer than \(limit / 1_048_576) MiB: this is not a word list. Nothing was imported."
        case .noHeader(let fields):
            return "The first line names no column and has \(fields) fields: name the columns or add a header line."
        case .cancelled:
            return "Import cancelled; nothing was imported."
        }
    }

    /// The line and reason of a skippable error, for `--skip-invalid` reports.
    public var skippable: (line: Int, reason: String)? {
        if case .invalidLine(let line, let reason) = self { return (line, reason) }
        if case .noBook(let line) = self { return (line, "it names no book") }
        return nil
    }
}
