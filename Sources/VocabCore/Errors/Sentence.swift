/// What a layer says, written once: an English sentence with `%@` where its values go, and the
/// values. The terminal shows it in English (`english`); the window and the web pages show it
/// through their catalogue, whose key is `format` (so a sentence's Korean is one line of the
/// catalogue). What to do next in a front end's own terms is that front end's to add.
public struct Sentence: Sendable, Equatable, CustomStringConvertible {
    /// The English sentence, `%@` where each value goes, in order.
    public let format: String
    public let values: [SentenceValue]

    public init(_ format: String, _ values: SentenceValue...) {
        self.format = format
        self.values = values
    }

    /// The sentence in plain English.
    public var english: String { filled { $0.english } }
    public var description: String { english }

    /// The format with each `%@` replaced by the next value as `word` says it.
    public func filled(_ word: (SentenceValue) -> String) -> String {
        Sentence.fill(format, values.map(word))
    }

    /// The sentence with `text` (a file's path, say) said as `replacement` wherever a value holds
    /// it, in the sentences inside too: what a server says of a file it keeps under another name.
    public func replacingText(_ text: String, with replacement: String) -> Sentence {
        Sentence(format: format, values: values.map { value in
            switch value {
            case .text(let said): return .text(said.replacing(text, with: replacement))
            case .sentence(let inner): return .sentence(inner.replacingText(text, with: replacement))
            default: return value
            }
        })
    }

    private init(format: String, values: [SentenceValue]) {
        self.format = format
        self.values = values
    }

    /// `format` with each `%@` or `%d` replaced by the next of `texts`, in order, and `%%` by
    /// `%`: the one place a sentence is filled, in English here and translated by the catalogue.
    public static func fill(_ format: String, _ texts: [String]) -> String {
        var result = ""
        var next = texts.makeIterator()
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { result.append(character); continue }
            switch characters.next() {
            case "@", "d": result += next.next() ?? ""
            case "%": result.append("%")
            case let other?: result.append("%"); result.append(other)
            case nil: result.append("%")
            }
        }
        return result
    }
}

/// A value in a sentence. Most are shown as they are; a field, a list of books and an account
/// are named in each front end's words, and a sentence inside another is translated with it.
public enum SentenceValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A name, a word, a server, a reason from below: shown as it is.
    case text(String)
    case number(Int)
    /// A word's or book's field by its name ("definition"): "The definition" in English.
    case field(String)
    /// Books by name: `Book "A"` or `Books "A", "B"` in English.
    case books([String])
    /// A size in bytes: "1.5 MiB".
    case bytes(Int)
    /// A cloud account as the store keeps it ("https://HOST/USER"): each front end names it as
    /// its learners sign in to it.
    case account(String)
    /// Another sentence (the cause of a failure), translated with the one it is in.
    indirect case sentence(Sentence)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .number(value) }

    /// The value in plain English.
    public var english: String {
        switch self {
        case .text(let text): return text
        case .number(let number): return String(number)
        case .field(let name): return "The " + name
        case .books(let names):
            return names.count == 1 ? "Book \"\(names[0])\"" : "Books " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        case .bytes(let count): return ByteCount.describe(count)
        case .account(let account): return account
        case .sentence(let sentence): return sentence.english
        }
    }
}
