import Foundation
import VocabCore
import VocabStore
import VocabSessions

/// What a running command can reach: its arguments, the console, the environment and the
/// store (opened on first use).
final class AppContext {
    let console: Console
    let environment: [String: String]
    private var openedStore: Store?

    init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }

    /// Where Vocab's files are, from the environment.
    var paths: AppPaths { AppPaths(environment: environment) }

    /// WordNet, espeak-ng and speech (the web dictionary, which reads the config, comes from
    /// `paths.dictionaries()`).
    var dictionary: DictionaryService { DictionaryService(environment: environment) }

    /// The data folder: `$VOCAB_HOME`, else `${XDG_DATA_HOME:-~/.local/share}/vocab`.
    func dataFolder() throws -> String {
        try paths.dataFolder()
    }

    /// The store, opened (and created) on first use.
    func store() throws -> Store {
        if let openedStore { return openedStore }
        let store = try Store.open(folder: try dataFolder())
        openedStore = store
        return store
    }

    /// `${XDG_CONFIG_HOME:-~/.config}/vocab/config.json`, parsed; empty when there is none.
    func config() throws -> [String: Any] {
        try paths.config()
    }

    /// The current time: `--now` where a command accepts it, else the clock.
    func now(_ arguments: ParsedArguments? = nil) throws -> Timestamp {
        if let text = arguments?.value("now") {
            guard let stamp = Timestamp(iso8601: text) else {
                throw UsageError.invalidValue(option: "now", value: text, expected: "an ISO 8601 time such as 2026-11-30T09:00:00Z")
            }
            return stamp
        }
        return .now()
    }

    /// The clock a session runs on: fixed at `--now` when given, else the system clock.
    func clock(_ arguments: ParsedArguments) throws -> SessionClock {
        arguments.value("now") != nil ? FixedClock(try now(arguments)) : SystemClock()
    }
}

/// Errors of the command line that are not about usage.
enum CLIError: UserFacingError {
    case confirmationRequired(String)
    case cancelled
    case cannotReadFile(path: String, reason: String)
    case cannotWriteFile(path: String, reason: String)

    var category: ErrorCategory { .userInput }

    var message: String {
        switch self {
        case .confirmationRequired(let what):
            return "\(what) Pass --yes to confirm (standard input is not a terminal)."
        case .cancelled:
            return "Cancelled; nothing was changed."
        case .cannotReadFile(let path, let reason):
            return "Cannot read \(path): \(reason)."
        case .cannotWriteFile(let path, let reason):
            return "Cannot write \(path): \(reason)."
        }
    }
}
