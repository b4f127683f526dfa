import VocabCore

/// Errors of dictionary lookups, speech and web dictionaries, each saying what to install or do.
public enum DictionaryError: UserFacingError, Equatable {
    case wordNetMissing(folder: String)
    case wordNetDamaged(file: String)
    case notFound(String)
    case emptyWord
    case espeakMissing
    case speechFailed(String)
    case serverUnreachable(host: String, port: Int, reason: String)
    case serverTimeout(host: String, port: Int)
    case serverProtocol(String)
    case invalidServer(String)
    case invalidTemplate(String)

    public var category: ErrorCategory { .userInput }

    public var remedy: Remedy? {
        switch self {
        case .wordNetMissing: return .installPackage("wordnet-base", setting: "VOCAB_WORDNET")
        case .espeakMissing: return .installPackage("espeak-ng")
        default: return nil
        }
    }

    /// What went wrong; what to install is each front end's to say (a command in the terminal).
    public var sentence: Sentence {
        switch self {
        case .wordNetMissing(let folder):
            return Sentence("WordNet's data files are not in %@.", .text(folder))
        case .wordNetDamaged(let file):
            return Sentence("The WordNet file %@ is damaged or not WordNet 3.0 data; reinstall wordnet-base.", .text(file))
        case .notFound(let word):
            return Sentence("\"%@\" is not in the dictionary.", .text(word))
        case .emptyWord:
            return Sentence("Give a word to look up.")
        case .espeakMissing:
            return Sentence("espeak-ng is not installed, so there is no pronunciation or speech.")
        case .speechFailed(let reason):
            return Sentence("espeak-ng failed: %@.", .text(reason))
        case .serverUnreachable(let host, let port, let reason):
            return Sentence("Cannot reach the DICT server %@ (%@).", .text("\(host):\(port)"), .text(reason))
        case .serverTimeout(let host, let port):
            return Sentence("The DICT server %@ did not answer in time.", .text("\(host):\(port)"))
        case .serverProtocol(let detail):
            return Sentence("The DICT server answered something unexpected: %@.", .text(detail))
        case .invalidServer(let text):
            return Sentence("\"%@\" is not a server: use HOST or HOST:PORT (port 1-65535).", .text(text))
        case .invalidTemplate(let template):
            return Sentence("The web dictionary template \"%@\" must contain {word}.", .text(template))
        }
    }
}
