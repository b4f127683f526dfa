import Foundation
import VocabCatalog

/// The window's strings in the user's language, from the catalogue the window and the web app
/// share (`VocabCatalog`), chosen by the locale (LC_ALL, LC_MESSAGES, LANG).
enum Localization {
    nonisolated(unsafe) private(set) static var catalog = Catalog()

    static func load(environment: [String: String], executable: String) {
        catalog = Catalog.load(language: Catalog.language(environment), environment: environment, executable: executable)
    }

    static func language(_ environment: [String: String]) -> String? { Catalog.language(environment) }

    static func translate(_ text: String) -> String {
        catalog.translate(text)
    }
}

/// The text in the user's language.
func tr(_ text: String) -> String {
    Localization.translate(text)
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
