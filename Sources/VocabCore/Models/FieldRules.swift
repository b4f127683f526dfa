/// Limits and checks applied to every field before it reaches the store.
public enum FieldRules {
    public static let maxNameLength = 200
    public static let maxWordLength = 500
    public static let maxTextLength = 20_000
    /// Book cover images are kept small enough to sync comfortably.
    public static let maxImageBytes = 1_048_576

    /// A required single-line field (book name, word): cleaned, non-empty, bounded,
    /// free of control characters.
    public static func requiredLine(_ text: String, field: String, limit: Int) throws -> String {
        let cleaned = TextRules.clean(text)
        guard !cleaned.isEmpty else { throw VocabError.emptyField(field: field) }
        guard fits(cleaned, limit) else { throw VocabError.fieldTooLong(field: field, limit: limit) }
        guard !TextRules.containsControlCharacter(cleaned) else { throw VocabError.invalidCharacters(field: field) }
        return cleaned
    }

    /// An optional free-text field (definition, detail, ...): cleaned and bounded; may be empty
    /// and may span lines.
    public static func optionalText(_ text: String, field: String) throws -> String {
        let cleaned = TextRules.clean(text)
        guard fits(cleaned, maxTextLength) else {
            throw VocabError.fieldTooLong(field: field, limit: maxTextLength)
        }
        return cleaned
    }

    /// Whether `text` has at most `limit` characters (counting bytes first, which is cheaper).
    private static func fits(_ text: String, _ limit: Int) -> Bool {
        text.utf8.count <= limit || text.count <= limit
    }

    /// Checks a cover image's size and type.
    public static func image(_ bytes: [UInt8]) throws -> ImageKind {
        guard bytes.count <= maxImageBytes else {
            throw VocabError.imageTooLarge(bytes: bytes.count, limit: maxImageBytes)
        }
        guard let kind = ImageKind(sniffing: bytes) else { throw VocabError.unsupportedImage }
        return kind
    }

    /// Parses the yes/no spellings spreadsheets use.
    public static func boolean(_ text: String) throws -> Bool {
        switch TextRules.clean(text).lowercased() {
        case "1", "true", "yes", "y", "t", "x", "o": return true
        case "0", "false", "no", "n", "f", "", "-": return false
        default: throw VocabError.invalidBoolean(text)
        }
    }

    /// Parses an ISO 8601 date or date-time.
    public static func date(_ text: String) throws -> Timestamp {
        guard let stamp = Timestamp(iso8601: TextRules.clean(text)) else { throw VocabError.invalidDate(text) }
        return stamp
    }
}

/// The image formats a book cover may have, recognised by their first bytes.
public enum ImageKind: String, Sendable {
    case png, jpeg, gif, webp

    public init?(sniffing bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else { return nil }
    }
}
