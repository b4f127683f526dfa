import FoundationEssentials
import VocabCore
import VocabDictionary
import VocabSystem

/// The dictionaries a session can ask: WordNet offline (with IPA from espeak-ng), the web
/// dictionary page for a word, and speech. Built from the environment and the user's config.
public struct DictionaryService: Sendable {
    /// How many of a word's senses, most met first, a learner is offered to fill from (in the
    /// terminal, the window and on the phone).
    public static let sensesOffered = 5

    public let environment: [String: String]
    /// The config's `webDictionary` URL template, if it sets one (checked when used).
    public let webTemplate: String?

    public init(environment: [String: String], webTemplate: String? = nil) {
        self.environment = environment
        self.webTemplate = webTemplate
    }

    /// WordNet's entry for the word, with IPA when espeak-ng is there.
    public func lookUp(_ word: String) throws -> DictionaryEntry {
        let folder = environment["VOCAB_WORDNET"].flatMap { $0.isEmpty ? nil : $0 } ?? WordNetDatabase.defaultFolder
        var entry = try WordNetDatabase(folder: folder).lookUp(word)
        if let speech = try? Speech(environment: environment) {
            entry.pronunciation = try? speech.ipa(entry.query)
        }
        return entry
    }

    /// The web dictionary page for the word; throws when the configured template is unusable.
    public func webURL(for word: String) throws -> String {
        try (webTemplate.map { try WebDictionary(template: $0) } ?? WebDictionary()).url(for: word)
    }

    /// Speaks the text (or writes a WAV file).
    public func say(_ text: String, voice: String? = nil, wavPath: String? = nil) throws {
        guard !text.trimmingSpaces().isEmpty else { throw DictionaryError.emptyWord }
        try Speech(environment: environment).say(text, voice: voice, wavPath: wavPath)
    }

    /// Opens the URL with xdg-open when there is a display; false when nothing was opened (the
    /// caller shows the URL instead).
    public func openInBrowser(_ url: String) -> Bool {
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let paths = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard hasDisplay, let opener = paths.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return false }
        return (try? Subprocess(opener, [url]).run())?.succeeded ?? false
    }
}
