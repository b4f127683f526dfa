import FoundationEssentials
import VocabCore
import VocabStore

/// Where Vocab keeps its files, from the environment (DESIGN.md §8), shared by every front end:
/// the data folder (`$VOCAB_HOME`, else `${XDG_DATA_HOME:-~/.local/share}/vocab`) and the
/// config folder (`${XDG_CONFIG_HOME:-~/.config}/vocab`: config.json and the cloud login).
public struct AppPaths: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The data folder; throws when neither VOCAB_HOME nor HOME says where it is.
    public func dataFolder() throws -> String {
        if let home = environment["VOCAB_HOME"], !home.isEmpty { return home }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/vocab" }
        guard let home = environment["HOME"], !home.isEmpty else { throw PathError.noDataFolder }
        return home + "/.local/share/vocab"
    }

    /// The config folder, or nil when neither XDG_CONFIG_HOME nor HOME is set.
    public func configFolder() -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/vocab" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/vocab" }
        return nil
    }

    /// The saved cloud login's file (private: 0600).
    public func loginPath() throws -> String {
        guard let folder = configFolder() else { throw PathError.noDataFolder }
        return folder + "/cloud.json"
    }

    /// config.json, parsed; empty when there is none.
    public func config() throws -> [String: JSONValue] {
        guard let folder = configFolder() else { return [:] }
        let path = folder + "/config.json"
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let object = (try? JSONParser.parse(data))?.objectValue else {
            throw PathError.unreadableConfig(path: path)
        }
        return object
    }

    /// When automatic backups are taken and which are kept: config.json's "backups", else the
    /// defaults (an unreadable config gives the defaults too: backups are never the reason a
    /// command fails).
    public func backupPolicy() -> BackupPolicy {
        // An unreadable config.json is reported where the command reads it; backups then follow
        // the defaults (automatic, the fullest retention), never fewer than asked for.
        BackupPolicy(config: (try? config()) ?? [:])
    }

    /// The backups folder of the store in the data folder.
    public func backupFolder() throws -> String {
        StoreBackups.folder(forStoreAt: try dataFolder() + "/" + Store.fileName)
    }

    /// When the learner's study day starts: config.json's `"dayStartHour"` (0-23, default 4),
    /// in this process's local time (`TZ`, else the system's zone).
    public func studyDay() throws -> StudyDay {
        guard let value = try config()["dayStartHour"] else { return StudyDay() }
        guard let whole = value.int64Value, (0...23).contains(whole), case let hour = Int(whole) else {
            throw PathError.invalidSetting(name: "dayStartHour", expected: Sentence("a whole hour from 0 to 23"))
        }
        return StudyDay(startHour: hour)
    }

    /// The dictionaries, with the config's web dictionary template.
    public func dictionaries() throws -> DictionaryService {
        DictionaryService(environment: environment, webTemplate: try config()["webDictionary"]?.stringValue)
    }
}

/// Files Vocab cannot find or read.
public enum PathError: UserFacingError, Equatable {
    case noDataFolder
    case unreadableConfig(path: String)
    case invalidSetting(name: String, expected: Sentence)

    public var category: ErrorCategory { .userInput }

    public var sentence: Sentence {
        switch self {
        case .noDataFolder:
            return Sentence("Neither VOCAB_HOME nor HOME is set, so there is no data folder. Set VOCAB_HOME.")
        case .unreadableConfig(let path):
            return Sentence("Cannot read %@: it is not a JSON object.", .text(path))
        case .invalidSetting(let name, let expected):
            return Sentence("config.json's \"%@\" must be %@.", .text(name), .sentence(expected))
        }
    }
}
