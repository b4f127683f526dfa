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

    public var message: String {
        switch self {
        case .wordNetMissing(let folder):
            return "WordNet's data files are not in \(folder). Install them with `apt-get install wordnet-base` (or set VOCAB_WORDNET to their folder)."
        case .wordNetDamaged(let file):
            return "The WordNet file \(file) is damaged or not WordNet 3.0 data; reinstall wordnet-base."
        case .notFound(let word):
            return "\"\(word)\" is not in the dictionary."
        case .emptyWord:
            return "Give a word to look up."
        case .espeakMissing:
            return "espeak-ng is not installed, so there is no pronunciation or speech. Install it with `apt-get install espeak-ng`."
        case .speechFailed(let reason):
            return "espeak-ng failed: \(reason)."
        case .serverUnreachable(let host, let port, let reason):
            return "Cannot reach the DICT server \(host):\(port) (\(reason))."
        case .serverTimeout(let host, let port):
            return "The DICT server \(host):\(port) did not answer in time."
        case .serverProtocol(let detail):
            return "The DICT server answered something unexpected: \(detail)."
        case .invalidServer(let text):
            return "\"\(text)\" is not a server: use HOST or HOST:PORT (port 1-65535)."
        case .invalidTemplate(let template):
            return "The web dictionary template \"\(template)\" must contain {word}."
        }
    }
}
