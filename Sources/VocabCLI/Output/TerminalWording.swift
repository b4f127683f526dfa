import FoundationEssentials
import VocabCore
import VocabSessions
import VocabCloudAPI

/// The terminal's words for what the layers below report as values: due times, why there is
/// nothing to study, what a question takes — in English, naming this program's commands and
/// flags where a person at a terminal can act on them (nothing below a front end names one).
enum TerminalWording {
    /// "now", "in 10 minutes", "in 3 days".
    static func due(_ interval: DueInterval) -> String {
        switch interval {
        case .now: return "now"
        case .minutes(let count): return "in " + plural(count, "minute")
        case .hours(let count): return "in " + plural(count, "hour")
        case .days(let count): return "in " + plural(count, "day")
        }
    }

    /// "Next review in 3 days." or "No reviews scheduled."
    static func nextReview(_ due: Timestamp?, from time: Timestamp) -> String {
        guard let due else { return "No reviews scheduled." }
        return "Next review \(self.due(DueInterval(due, from: time)))."
    }

    static func nothingToStudy(_ reason: NothingToStudy, at time: Timestamp) -> String {
        switch reason {
        case .noWords: return "No words yet: add some with `vocab word add` or `vocab import`."
        case .nothingDue(let next): return "Nothing to study now. " + nextReview(next, from: time)
        }
    }

    /// What to tell a player whose answer was not one.
    static func expected(_ answer: ExpectedAnswer) -> String {
        switch answer {
        case .text: return "Type an answer, or q to quit."
        case .number(let count): return "Type a number from 1 to \(count)."
        }
    }
}

extension TerminalWording {
    /// Any error as the terminal says it: a layer's as `message(for:)` words it, another as it is
    /// (a long-running command reporting a failure it goes on after).
    static func message(forAny error: Error) -> String {
        (error as? any UserFacingError).map { message(for: $0) } ?? "\(error)"
    }

    /// An error as the terminal says it: the layers' own sentence, then what to do next in this
    /// program's commands and flags where there is something to do.
    static func message(for error: UserFacingError) -> String {
        let said = sentence(error.sentence)
        return whatToDo(error).map { said + " " + $0 } ?? said
    }

    /// A layer's sentence in English, an account as `vocab login` takes it.
    static func sentence(_ sentence: Sentence) -> String {
        sentence.filled { value in
            switch value {
            case .account(let account): return loginURL(account)
            case .sentence(let inner): return self.sentence(inner)
            default: return value.english
            }
        }
    }

    /// What to do next, in this program's commands and flags; nil where the layer's sentence
    /// says it or there is nothing to do.
    static func whatToDo(_ error: UserFacingError) -> String? {
        switch error {
        case let error as GameSetupError: return game(error)
        case let error as VocabError: return vocab(error)
        case let error as BackupError: return backup(error)
        case let error as CloudError: return cloud(error)
        case let error as ImportError: return importing(error)
        case let error as WordFormError: return vocab(error.underlying)
        case let error as SyncFailure:
            if case CloudError.cancelled? = error.underlying as? CloudError { return "Run `vocab sync` again to go on." }
            return whatToDo(error.underlying) ?? "Run `vocab sync` again."
        default: return error.remedy.map(remedy)
        }
    }

    private static func remedy(_ remedy: Remedy) -> String {
        switch remedy {
        case .installPackage(let package, let setting?):
            return "Install it with `apt-get install \(package)` (or set \(setting) to where it is)."
        case .installPackage(let package, nil): return "Install it with `apt-get install \(package)`."
        case .chooseWritableDataFolder: return "Set VOCAB_HOME to a folder you can write to."
        case .restoreBackup: return "See `vocab backup list` and `vocab backup restore`."
        }
    }

    private static func game(_ error: GameSetupError) -> String? {
        switch error {
        case .noBooks: return "Create one with `vocab book add NAME`, or add the starter book with `vocab starter`."
        case .emptyBooks(let names): return "Add some with `vocab word add WORD --book \(names.first ?? "BOOK")` or `vocab import FILE`."
        case .allMemorized: return "Play them anyway with --include-memorized."
        case .noDefinitions: return "Try --mode flashcard, or add definitions."
        case .tooFewMeanings: return "Try --mode spelling."
        case .countOutOfRange: return "Choose it with --count N."
        }
    }

    private static func vocab(_ error: VocabError) -> String? {
        switch error {
        case .bookNotFound: return "See `vocab book list`."
        case .nothingToLookUp: return "(? after the word looks it up.)"
        case .bookIsShared(let name):
            return "Make it your own with `vocab copy \"\(name)\"`, or stop following it with `vocab unfollow \"\(name)\"`."
        case .ambiguousWord: return "Name one with --book."
        case .daysOutOfRange: return "Choose the span with --days N."
        default: return nil
        }
    }

    private static func backup(_ error: BackupError) -> String? {
        switch error {
        case .noBackups: return "Take one with `vocab backup`."
        case .noSuchBackup: return "See `vocab backup list`."
        default: return nil
        }
    }

    private static func cloud(_ error: CloudError) -> String? {
        switch error {
        case .notLoggedIn: return "Log in with `vocab login https://USER@HOST` first."
        case .accessDenied: return "Log in again with `vocab login`."
        case .databaseLoginRetired(_, let user):
            return "Run `vocab login https://\(user)@HOST` with the address of your Vocab server (ask its administrator)."
        case .deviceSignedOut: return "Sign in again: `vocab login https://USER@HOST`."
        case .schemaMissing, .schemaTooOld: return "An administrator runs `vocab cloud init --admin URL`."
        case .boundToAnotherAccount(_, _, let user):
            return "Another data folder for this login: VOCAB_HOME=/path/to/folder vocab sync. "
                + "Copying this folder's words into \(user)'s account: `vocab sync --copy-into-account \(user)`."
        default: return nil
        }
    }

    /// An account as `vocab login` takes it: a Vocab server's account "https://HOST/USER" as
    /// "https://USER@HOST"; any other as it is.
    static func loginURL(_ account: String) -> String {
        guard let match = account.wholeMatch(of: #/(https?://)([^/@]+)/([A-Za-z][A-Za-z0-9_]*)/#) else { return account }
        return String(match.1) + String(match.3) + "@" + String(match.2)
    }

    private static func importing(_ error: ImportError) -> String? {
        switch error {
        case .invalidLine: return "To import the other lines, use --skip-invalid."
        case .noBook: return "Give --book BOOK."
        case .unknownFormat: return "Give --format csv, tsv, txt or jsonl."
        case .noHeader: return "Name them with --columns (e.g. --columns word,definition,detail)."
        default: return nil
        }
    }
}
