/// Errors of the domain: validation of fields and lookups of books and words.
public enum VocabError: UserFacingError, Equatable {
    case emptyField(field: String)
    case fieldTooLong(field: String, limit: Int)
    case invalidCharacters(field: String)
    case bookNotFound(String)
    case wordNotFound(String, book: String?)
    case ambiguousWord(String, books: [String])
    case duplicateBookName(String)
    case duplicateWord(String, book: String)
    case imageTooLarge(bytes: Int, limit: Int)
    case unsupportedImage
    /// The book was asked for its cover image and has none.
    case noCoverImage(book: String)
    case invalidDate(String)
    case invalidBoolean(String)
    case retentionOutOfRange(Double, ClosedRange<Double>)
    /// A dictionary was asked before the form had a word to look up.
    case nothingToLookUp
    /// The book is followed from another learner: it is read and studied here, its owner changes it.
    case bookIsShared(String)
    /// A progress report was asked for a number of study days outside `ProgressReport.dayRange`.
    case daysOutOfRange(Int, ClosedRange<Int>)

    public var category: ErrorCategory { .userInput }

    public var sentence: Sentence {
        switch self {
        case .emptyField(let field):
            return Sentence("%@ must not be empty.", .field(field))
        case .fieldTooLong(let field, let limit):
            return Sentence("%@ is too long (at most %@ characters).", .field(field), .number(limit))
        case .invalidCharacters(let field):
            return Sentence("%@ contains control characters; use plain text.", .field(field))
        case .bookNotFound(let name):
            return Sentence("No book named \"%@\".", .text(name))
        case .wordNotFound(let word, let book):
            if let book { return Sentence("No word \"%@\" in book \"%@\".", .text(word), .text(book)) }
            return Sentence("No word \"%@\" in any book.", .text(word))
        case .ambiguousWord(let word, let books):
            return Sentence("The word \"%@\" is in several books (%@): say which.", .text(word), .text(Self.quoted(books)))
        case .duplicateBookName(let name):
            return Sentence("A book named \"%@\" already exists (book names ignore case).", .text(name))
        case .duplicateWord(let word, let book):
            return Sentence("The word \"%@\" is already in book \"%@\".", .text(word), .text(book))
        case .imageTooLarge(let bytes, let limit):
            return Sentence("The image is %@; the limit is %@.", .bytes(bytes), .bytes(limit))
        case .unsupportedImage:
            return Sentence("The image is not a PNG, JPEG, GIF or WebP file.")
        case .noCoverImage(let book):
            return Sentence("Book \"%@\" has no cover image.", .text(book))
        case .invalidDate(let text):
            return Sentence("\"%@\" is not a date: use ISO 8601, e.g. 2026-11-30 or 2026-11-30T09:15:00Z.", .text(text))
        case .invalidBoolean(let text):
            return Sentence("\"%@\" is not a yes/no value: use true/false, yes/no or 1/0.", .text(text))
        case .retentionOutOfRange(let value, let range):
            return Sentence("A desired retention of %@ is outside %@ to %@.",
                            .text(CFormat.string("%.2f", value)), .text(CFormat.string("%.2f", range.lowerBound)),
                            .text(CFormat.string("%.2f", range.upperBound)))
        case .nothingToLookUp:
            return Sentence("Type the word first, then look it up.")
        case .bookIsShared(let name):
            return Sentence("\"%@\" is a shared book: you can study it, but only its owner changes it. Copy it to make a book of your own. Nothing was changed.",
                            .text(name))
        case .daysOutOfRange(let days, let range):
            return Sentence("A progress report covers %@ to %@ study days, not %@.", .number(range.lowerBound), .number(range.upperBound), .number(days))
        }
    }

    /// `"A", "B"`.
    static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

/// Human-readable byte counts for messages.
public enum ByteCount {
    public static func describe(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let kib = Double(bytes) / 1024
        if kib < 1024 { return "\(formatOneDecimal(kib)) KiB" }
        return "\(formatOneDecimal(kib / 1024)) MiB"
    }

    private static func formatOneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
