import FoundationEssentials
import VocabCore

/// The strings every front end but the terminal shows, in the user's language: one gettext
/// catalogue per language (`Translations/*.po`, compiled by `msgfmt` at build time and built
/// into the binary), shared by the window and the web app. English source text is the key;
/// a string missing from the catalogue shows in English.
public struct Catalog: Sendable {
    /// English text → translation.
    public let entries: [String: String]
    /// The language it translates into ("ko"), or nil for English.
    public let language: String?

    public init(entries: [String: String] = [:], language: String? = nil) {
        self.entries = entries
        self.language = language
    }

    /// `text` in the catalogue's language with each `%@` or `%d` replaced by the next of
    /// `arguments`, in order (`Sentence.fill`; the page's `t()` does the same in JavaScript).
    public func translate(_ text: String, _ arguments: [CustomStringConvertible]) -> String {
        Sentence.fill(translate(text), arguments.map(\.description))
    }

    /// The text in this catalogue's language.
    public func translate(_ text: String) -> String { entries[text] ?? text }

    /// The catalogue for `language` from the first place that has one:
    /// `$VOCAB_LOCALEDIR/<lang>/LC_MESSAGES/vocab.mo`, `<prefix>/share/locale/…` beside the
    /// binary (a newer catalogue dropped in), or the one built into the binary. English (or a
    /// language without a catalogue): empty.
    public static func load(language: String?, environment: [String: String], executable: String) -> Catalog {
        guard let language, language != "en", language.allSatisfy(\.isLetter), language.count <= 8 else { return Catalog() }
        let binFolder = FilePath.parentFolder(of: executable)
        let installed = [environment["VOCAB_LOCALEDIR"], FilePath.parentFolder(of: binFolder) + "/share/locale"]
            .compactMap { $0 }.filter { !$0.isEmpty }.map { "\($0)/\(language)/LC_MESSAGES/vocab.mo" }
        for path in installed {
            if let data = FileManager.default.contents(atPath: path), let parsed = MOFile.parse([UInt8](data)) {
                return Catalog(entries: parsed, language: language)
            }
        }
        if let text = embedded[language], let data = Data(base64Encoded: text), let parsed = MOFile.parse([UInt8](data)) {
            return Catalog(entries: parsed, language: language)
        }
        return Catalog()
    }

    /// "ko" for ko_KR.UTF-8; nil for C/POSIX.
    public static func language(_ environment: [String: String]) -> String? {
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = value.prefix { $0.isLetter }
        return code.isEmpty || value == "C" || value == "POSIX" ? nil : String(code).lowercased()
    }

    /// The languages there are catalogues for (besides English): those built in.
    public static var languages: [String] { embedded.keys.sorted() }
}

/// Reads gettext's binary catalogue format (what `msgfmt` writes).
public enum MOFile {
    public static func parse(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.count >= 28 else { return nil }
        func word(_ offset: Int, _ bigEndian: Bool) -> Int? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            let b = bytes[offset..<offset + 4].map(UInt32.init)
            return Int(bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0])
        }
        let bigEndian: Bool
        switch word(0, false) {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return nil
        }
        guard let count = word(8, bigEndian), let originals = word(12, bigEndian), let translations = word(16, bigEndian) else { return nil }
        func string(_ table: Int, _ index: Int) -> String? {
            guard let length = word(table + index * 8, bigEndian), let offset = word(table + index * 8 + 4, bigEndian),
                  offset + length <= bytes.count else { return nil }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }
        var catalog: [String: String] = [:]
        for index in 0..<count {
            guard let key = string(originals, index), let value = string(translations, index) else { return nil }
            if !key.isEmpty { catalog[key] = value }
        }
        return catalog
    }
}
