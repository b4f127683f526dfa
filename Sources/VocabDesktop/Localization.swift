import Foundation

/// The window's strings in the user's language: one gettext catalogue (`po/*.po`, compiled by
/// `msgfmt` into `vocab.mo`), chosen by the locale (LC_ALL, LC_MESSAGES, LANG). English source
/// text is the key; a string missing from the catalogue shows in English.
enum Localization {
    nonisolated(unsafe) private static var catalog: [String: String] = [:]

    /// Loads the catalogue for the environment's language from the first place that has one:
    /// `$VOCAB_LOCALEDIR/<lang>/LC_MESSAGES/vocab.mo`, `<prefix>/share/locale/…` beside the
    /// installed binary, or the build's resources beside a binary built from source (where the
    /// package's build plugin put `<lang>.mo`).
    static func load(environment: [String: String], executable: String) {
        guard let language = language(environment), language != "en" else { return }
        let binFolder = (executable as NSString).deletingLastPathComponent
        let installed = [environment["VOCAB_LOCALEDIR"], (binFolder as NSString).deletingLastPathComponent + "/share/locale"]
            .compactMap { $0 }.filter { !$0.isEmpty }.map { "\($0)/\(language)/LC_MESSAGES/vocab.mo" }
        for path in installed + ["\(binFolder)/Vocab_VocabDesktop.resources/\(language).mo"] {
            if let data = FileManager.default.contents(atPath: path), let parsed = MOFile.parse([UInt8](data)) {
                catalog = parsed
                return
            }
        }
    }

    /// "ko" for ko_KR.UTF-8; nil for C/POSIX.
    static func language(_ environment: [String: String]) -> String? {
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = value.prefix { $0.isLetter }
        return code.isEmpty || value == "C" || value == "POSIX" ? nil : String(code).lowercased()
    }

    static func translate(_ text: String) -> String {
        catalog[text] ?? text
    }
}

/// The text in the user's language.
func tr(_ text: String) -> String {
    Localization.translate(text)
}

/// Reads gettext's binary catalogue format (what `msgfmt` writes).
enum MOFile {
    static func parse(_ bytes: [UInt8]) -> [String: String]? {
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

/// The text in the user's language with `%@` (or `%d`) replaced by the arguments, in order.
func tr(_ text: String, _ arguments: CustomStringConvertible...) -> String {
    var result = ""
    var remaining = Substring(tr(text))
    var values = arguments.makeIterator()
    while let marker = remaining.range(of: "%@") ?? remaining.range(of: "%d") {
        // Take whichever marker comes first.
        let at = [remaining.range(of: "%@"), remaining.range(of: "%d")].compactMap { $0 }.min { $0.lowerBound < $1.lowerBound } ?? marker
        result += remaining[..<at.lowerBound]
        result += values.next()?.description ?? ""
        remaining = remaining[at.upperBound...]
    }
    return result + remaining
}
