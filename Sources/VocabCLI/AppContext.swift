import FoundationEssentials
import VocabCore
import VocabSessions

/// What a running command can reach: its arguments, the console, the environment and the
/// store (opened on first use).
final class AppContext {
    let console: Console
    let environment: [String: String]
    private var openedLibrary: Library?
    private var storeObservation: ObservationToken?
    /// Whether a command committed a change to the store (an automatic backup may follow).
    private(set) var storeChanged = false
    var openedStorePath: String? { openedLibrary?.path }

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

    /// The learner's library (his store), opened (and created) on first use.
    func library() throws -> Library {
        if let openedLibrary { return openedLibrary }
        let library: Library
        do {
            library = try Library.open(folder: try dataFolder(), backupFolder: try paths.backupFolder())
        } catch let damaged as DamagedLibrary {
            throw DamagedStore(damaged: damaged)
        }
        storeObservation = library.observe { [weak self] _ in self?.storeChanged = true }
        openedLibrary = library
        return library
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

/// A damaged store, worded with the command that puts its newest good backup back.
struct DamagedStore: TerminalOnlyError {
    let damaged: DamagedLibrary

    var category: ErrorCategory { damaged.category }
    var english: String {
        damaged.message + " `vocab backup restore latest` puts it back (the damaged store is kept aside)."
    }
}

/// Errors of the command line that are not about usage.
enum CLIError: TerminalOnlyError {
    case confirmationRequired(String)
    case cancelled

    var category: ErrorCategory { .userInput }

    var english: String {
        switch self {
        case .confirmationRequired(let what):
            return "\(what) Pass --yes to confirm (standard input is not a terminal)."
        case .cancelled:
            return "Cancelled; nothing was changed."
        }
    }
}
