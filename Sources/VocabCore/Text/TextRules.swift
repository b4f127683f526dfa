import FoundationEssentials

/// How Vocab treats the text people type: stored as typed, only trimmed and NFC-normalised,
/// never capitalised or "corrected"; matched case-insensitively (DESIGN.md §3).
public enum TextRules {
    /// Trims surrounding white space and newlines and normalises to NFC.
    ///
    /// Hot path of every import: plain text (ASCII, Hangul syllables, CJK, emoji) is already in
    /// NFC and skips the normaliser.
    public static func clean(_ text: String) -> String {
        let trimmed = trimmingWhiteSpace(text)
        return isKnownNFC(trimmed) ? trimmed : TextFolding.nfc(trimmed)
    }

    /// Whether `text` is in NFC already, byte for byte (Swift's `==` would take any form of it).
    public static func isNFC(_ text: String) -> Bool { isKnownNFC(text) || TextFolding.nfc(text).utf8.elementsEqual(text.utf8) }

    /// `text` without leading and trailing Unicode white space (newlines included).
    public static func trimmingWhiteSpace(_ text: String) -> String {
        var copy = text
        let untouched = copy.withUTF8 { bytes -> Bool in
            guard let first = bytes.first else { return true }
            return !mayStartWhiteSpace(first) && !mayEndWhiteSpace(bytes)
        }
        if untouched { return text }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start].properties.isWhitespace { start = scalars.index(after: start) }
        while end > start, scalars[scalars.index(before: end)].properties.isWhitespace { end = scalars.index(before: end) }
        if start == scalars.startIndex && end == scalars.endIndex { return text }
        return String(scalars[start..<end])
    }

    /// Whether a scalar starting with this UTF-8 byte can be white space: ASCII space and
    /// controls, or a lead byte of U+0085/U+00A0 (C2), U+1680 (E1), U+2000–U+205F (E2), U+3000 (E3).
    private static func mayStartWhiteSpace(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || byte == 0xC2 || (0xE1...0xE3).contains(byte)
    }

    /// Whether the last scalar of non-empty UTF-8 `bytes` can be white space.
    private static func mayEndWhiteSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = bytes.count - 1
        while index > 0, bytes.count - index < 4, bytes[index] & 0xC0 == 0x80 { index -= 1 }
        return mayStartWhiteSpace(bytes[index])
    }

    /// True when every scalar is one that NFC leaves alone and that cannot combine with its
    /// neighbours; false means "maybe not NFC" (then the real normaliser runs). Decodes the
    /// UTF-8 by hand: this runs on every field of every imported row.
    static func isKnownNFC(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                var value: UInt32
                if lead < 0x80 {
                    index += 1
                    continue
                } else if lead < 0xE0 {
                    guard index + 1 < bytes.count else { return false }
                    value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                    index += 2
                } else if lead < 0xF0 {
                    guard index + 2 < bytes.count else { return false }
                    value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    index += 3
                } else {
                    guard index + 3 < bytes.count else { return false }
                    value = UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                    index += 4
                }
                switch value {
                case 0..<0x300,             // Latin: no combining marks below U+0300
                     0x2000..<0x2070,       // general punctuation
                     0x3000..<0x3099,       // CJK punctuation, hiragana without voicing marks
                     0x4E00...0x9FFF,       // CJK unified ideographs
                     0xAC00...0xD7A3,       // precomposed Hangul syllables
                     0x1F300...0x1FAFF:     // emoji
                    continue
                default:
                    return false
                }
            }
            return true
        }
    }

    /// Whether `text` holds a control character (C0 or C1), checked on its UTF-8 bytes.
    static func containsControlCharacter(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }

    /// The key under which book names are unique: cleaned and case-folded.
    public static func nameKey(_ name: String) -> String {
        clean(name).lowercased()
    }

    /// Whether two answers match: cleaned, case-insensitive; accents count unless
    /// `ignoringAccents` is set.
    public static func answersMatch(_ given: String, _ expected: String, ignoringAccents: Bool = false) -> Bool {
        TextFolding.fold(clean(given), accents: ignoringAccents) == TextFolding.fold(clean(expected), accents: ignoringAccents)
    }

    /// The order names are listed in: ignoring case and accents, then exact text as tie-break.
    public static func sortsBefore(_ a: String, _ b: String) -> Bool {
        let foldedA = lookupKey(TextFolding.nfc(a)), foldedB = lookupKey(TextFolding.nfc(b))
        return foldedA == foldedB ? a < b : foldedA < foldedB
    }

    /// The key a word is found by, ignoring case and accents ("Café" and "CAFE" → "cafe"):
    /// stored beside each word (`words.word_key`, indexed) so that a look-up that misses costs
    /// what a hit costs. Takes cleaned text; ASCII (most words) takes a shortcut.
    public static func lookupKey(_ text: String) -> String {
        var isASCII = true
        var hasUpper = false
        for byte in text.utf8 {
            if byte >= 0x80 { isASCII = false; break }
            if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
        }
        guard isASCII else { return TextFolding.fold(text, accents: true) }
        return hasUpper ? asciiLowercased(text) : text
    }

    /// `text` with A–Z lower-cased and everything else as it is (what SQLite's lower() does).
    public static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether `text` contains `query`, ignoring case.
    public static func contains(_ text: String, _ query: String) -> Bool {
        !query.isEmpty && TextFolding.fold(TextFolding.nfc(text), accents: false).contains(TextFolding.fold(TextFolding.nfc(query), accents: false))
    }
}
