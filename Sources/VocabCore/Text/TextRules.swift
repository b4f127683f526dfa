import Foundation

/// How Vocab treats the text people type: stored as typed, only trimmed and NFC-normalised,
/// never capitalised or "corrected"; matched case-insensitively (DESIGN.md §3).
public enum TextRules {
    /// Trims surrounding white space and newlines and normalises to NFC.
    public static func clean(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.precomposedStringWithCanonicalMapping
    }

    /// The key under which book names are unique: cleaned and case-folded.
    public static func nameKey(_ name: String) -> String {
        clean(name).lowercased()
    }

    /// Whether two answers match: cleaned, case-insensitive; accents count unless
    /// `ignoringAccents` is set.
    public static func answersMatch(_ given: String, _ expected: String, ignoringAccents: Bool = false) -> Bool {
        var options: String.CompareOptions = [.caseInsensitive]
        if ignoringAccents { options.insert(.diacriticInsensitive) }
        return clean(given).compare(clean(expected), options: options) == .orderedSame
    }

    /// The order names are listed in: ignoring case and accents, then exact text as tie-break.
    public static func sortsBefore(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, options: [.caseInsensitive, .diacriticInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a < b
        }
    }

    /// Whether `text` contains `query`, ignoring case.
    public static func contains(_ text: String, _ query: String) -> Bool {
        text.range(of: query, options: [.caseInsensitive]) != nil
    }
}
