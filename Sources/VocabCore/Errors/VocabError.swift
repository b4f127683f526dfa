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
    case invalidDate(String)
    case invalidBoolean(String)
    case retentionOutOfRange(Double, ClosedRange<Double>)
    /// A dictionary was asked before the form had a word to look up.
    case nothingToLookUp
    /// The book is followed from another learner: it is read and studied here, its owner changes it.
    case bookIsShared(String)

    public var category: ErrorCategory { .userInput }

    public var message: String {
        switch self {
        case .emptyField(let field):
            return "The \(field) must not be empty."
        case .fieldTooLong(let field, let limit):
            return "The \(field) is too long (at most \(limit) characters)."
        case .invalidCharacters(let field):
            return "The \(field) contains control characters; use plain text."
        case .bookNotFound(let name):
            return "No book named \"\(name)\"."
        case .wordNotFound(let word, let book):
            if let book { return "No word \"\(word)\" in book \"\(book)\"." }
            return "No word \"\(word)\" in any book."
        case .ambiguousWord(let word, let books):
            let names = books.map { "\"\($0)\"" }.joined(separator: ", ")
            return "The word \"\(word)\" is in several books (\(names)): say which."
        case .duplicateBookName(let name):
            return "A book named \"\(name)\" already exists (book names ignore case)."
        case .duplicateWord(let word, let book):
            return "The word \"\(word)\" is already in book \"\(book)\"."
        case .imageTooLarge(let bytes, let limit):
            return "The image is \(ByteCount.describe(bytes)); the limit is \(ByteCount.describe(limit))."
        case .unsupportedImage:
            return "The image is not a PNG, JPEG, GIF or WebP file."
        case .invalidDate(let text):
            return "\"\(text)\" is not a date: use ISO 8601, e.g. 2026-11-30 or 2026-11-30T09:15:00Z."
        case .invalidBoolean(let text):
            return "\"\(text)\" is not a yes/no value: use true/false, yes/no or 1/0."
        case .retentionOutOfRange(let value, let range):
            return CFormat.string("A desired retention of %.2f is outside %.2f to %.2f.", value, range.lowerBound, range.upperBound)
        case .nothingToLookUp:
            return "Type the word first, then look it up."
        case .bookIsShared(let name):
            return "\"\(name)\" is a shared book: you can study it, but only its owner changes it. Copy it to make a book of your own. Nothing was changed."
        }
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
