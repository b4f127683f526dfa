import FoundationEssentials
import VocabCore
import VocabStore
import VocabSessions

/// What a running command can reach: its arguments, the console, the environment and the
/// store (opened on first use).
final class AppContext {
    let console: Console
    let environment: [String: String]
    private var openedStore: Store?
    private var storeObservation: ObservationToken?
    /// Whether a command committed a change to the store (an automatic backup may follow).
    private(set) var storeChanged = false
    var openedStorePath: String? { openedStore?.path }

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
        let store: Store
        do {
            store = try Store.open(folder: try dataFolder())
        } catch let error as StoreError {
            throw DamagedStore.naming(backupIn: try paths.backupFolder(), for: error)
        }
        storeObservation = store.observe { [weak self] _ in self?.storeChanged = true }
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

/// A store that cannot be opened because it is damaged, with the way back: the newest good backup.
struct DamagedStore: UserFacingError {
    let underlying: StoreError
    let backup: BackupInfo

    var category: ErrorCategory { underlying.category }
    var message: String {
        underlying.message + " The newest good backup is from \(backup.takenAt.iso8601): `vocab backup restore latest` puts it back (the damaged store is kept aside)."
    }

    /// The error itself, or, for a damaged store with a good backup, one that names the backup.
    static func naming(backupIn folder: String, for error: StoreError) -> Error {
        switch error {
        case .corrupt, .malformedRow:
            guard let backup = BackupService.newestGood(folder: folder) else { return error }
            return DamagedStore(underlying: error, backup: backup)
        default:
            return error
        }
    }
}

/// Errors of the command line that are not about usage.
enum CLIError: UserFacingError {
    case confirmationRequired(String)
    case cancelled

    var category: ErrorCategory { .userInput }

    var message: String {
        switch self {
        case .confirmationRequired(let what):
            return "\(what) Pass --yes to confirm (standard input is not a terminal)."
        case .cancelled:
            return "Cancelled; nothing was changed."
        }
    }
}
