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
        return template.replacingText("{word}", with: WebDictionary.percentEncode(trimmed))
    }

    public static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
