import VocabCore
import FoundationEssentials

/// The web dictionary page for a word: a URL template with `{word}`, percent-encoded.
public struct WebDictionary: Sendable {
    /// The Naver English dictionary's search, for Korean learners of English (and English
    /// learners of Korean: it searches both ways).
    public static let defaultTemplate = "https://en.dict.naver.com/#/search?query={word}"

    public let template: String

    public init(template: String = WebDictionary.defaultTemplate) throws {
        guard template.contains("{word}") else { throw DictionaryError.invalidTemplate(template) }
        self.template = template
    }

    /// The URL for `word`: every byte outside RFC 3986's unreserved set is percent-encoded
    /// (UTF-8), so spaces, Korean and `&` or `#` in a word stay part of the query.
    public func url(for word: String) -> String {
        let trimmed = TextRules.trimmingWhiteSpace(word)
        return template.replacingText("{word}", with: PercentEncoding.encodeAllButUnreserved(trimmed))
    }
}
