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

    public var sentence: Sentence {
        switch self {
        case .invalidLine(let line, let reason):
            return Sentence("Line %@: %@. Nothing was imported.", .number(line), .text(reason))
        case .missingHeader(let found):
            return Sentence("The first line must be a header naming the columns, with at least \"word\" (found %@).",
                            .text(VocabError.quoted(Array(found.prefix(6)))))
        case .noBook(let line):
            return Sentence("Line %@ names no book: add a \"book\" column or choose a book.", .number(line))
        case .unknownFormat(let name):
            return Sentence("Cannot tell the format of \"%@\" (Vocab reads CSV, TSV, Anki text, JSON Lines, Excel and Anki packages).", .text(name))
        case .emptyFile:
            return Sentence("The file is empty: nothing to import.")
        case .recordTooLong(let line, let limit):
            return Sentence("Line %@ is longer than %@: this is not a word list. Nothing was imported.", .number(line), .bytes(limit))
        case .noHeader(let fields):
            return Sentence("The first line names no column and has %@ fields: name the columns or add a header line.", .number(fields))
        case .cancelled:
            return Sentence("Import cancelled; nothing was imported.")
        }
    }

    /// The line and reason of a skippable error, for `--skip-invalid` reports.
    public var skippable: (line: Int, reason: String)? {
        if case .invalidLine(let line, let reason) = self { return (line, reason) }
        if case .noBook(let line) = self { return (line, "it names no book") }
        return nil
    }
}
