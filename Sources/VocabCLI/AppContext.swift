import Foundation
import VocabCore
import VocabStore

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

    /// The data folder: `$VOCAB_HOME`, else `${XDG_DATA_HOME:-~/.local/share}/vocab`.
    func dataFolder() throws -> String {
        if let home = environment["VOCAB_HOME"], !home.isEmpty { return home }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/vocab" }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw CLIError.noDataFolder
        }
        return home + "/.local/share/vocab"
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
        let folder: String
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { folder = xdg + "/vocab" }
        else if let home = environment["HOME"], !home.isEmpty { folder = home + "/.config/vocab" }
        else { return [:] }
        let path = folder + "/config.json"
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLIError.cannotReadFile(path: path, reason: "it is not a JSON object")
        }
        return object
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
}

/// Errors of the command line that are not about usage.
enum CLIError: UserFacingError {
    case noDataFolder
    case confirmationRequired(String)
    case cancelled
    case cannotReadFile(path: String, reason: String)
    case cannotWriteFile(path: String, reason: String)

    var category: ErrorCategory { .userInput }

    var message: String {
        switch self {
        case .noDataFolder:
            return "Neither VOCAB_HOME nor HOME is set, so there is no data folder. Set VOCAB_HOME."
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
