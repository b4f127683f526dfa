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
    Localization.catalog.translate(text, arguments)
}
