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

    /// An error as the terminal says it: the layers' own sentence, with what to do next in this
    /// program's commands and flags where there is something to do.
    static func message(for error: UserFacingError) -> String {
        switch error {
        case let error as GameSetupError: return game(error)
        case let error as VocabError: return vocab(error)
        case let error as BackupError: return backup(error)
        case let error as CloudError: return cloud(error)
        case let error as ImportError: return importing(error)
        case let error as SyncFailure:
            if case CloudError.cancelled? = error.underlying as? CloudError { return error.message }
            return "Sync stopped: \(message(for: error.underlying)) Nothing was lost: what finished is saved; run `vocab sync` again."
        default: return error.message
        }
    }

    /// The sentence without its closing full stop, to go on with ": what to do".
    private static func clause(_ error: UserFacingError) -> String {
        error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
    }

    private static func game(_ error: GameSetupError) -> String {
        switch error {
        case .noBooks:
            return error.message + " Create one with `vocab book add NAME`, or add the starter book with `vocab starter`."
        case .emptyBooks(let names):
            return clause(error) + ": add some with `vocab word add WORD --book \(names.first ?? "BOOK")` or `vocab import FILE`."
        case .allMemorized: return error.message + " Play them anyway with --include-memorized."
        case .noDefinitions: return error.message + " Try --mode flashcard, or add definitions."
        case .tooFewMeanings: return error.message + " Try --mode spelling."
        }
    }

    private static func vocab(_ error: VocabError) -> String {
        switch error {
        case .bookNotFound: return error.message + " See `vocab book list`."
        case .nothingToLookUp: return "Type the word first, then ? to look it up."
        case .bookIsShared(let name):
            return "\"\(name)\" is a shared book: you can study it, but only its owner changes it. "
                + "Make it your own with `vocab copy \"\(name)\"`, or stop following it with `vocab unfollow \"\(name)\"`. Nothing was changed."
        case .ambiguousWord(let word, let books):
            return "The word \"\(word)\" is in several books (\(books.map { "\"\($0)\"" }.joined(separator: ", "))): name one with --book."
        default: return error.message
        }
    }

    private static func backup(_ error: BackupError) -> String {
        switch error {
        case .noBackups: return clause(error) + ": take one with `vocab backup`."
        case .noSuchBackup(let text):
            return "No backup matches \"\(text)\": see `vocab backup list` (use latest, a time such as 2026-12-01T09:30, or a file)."
        default: return error.message
        }
    }

    private static func cloud(_ error: CloudError) -> String {
        switch error {
        case .notLoggedIn:
            return "Not logged in: run `vocab login https://USER@HOST` first. Nothing was changed."
        case .accessDenied: return clause(error) + " with `vocab login`."
        case .databaseLoginRetired(let server, let user):
            return "This device signed in to the cloud's database \(server) directly, which the cloud no longer allows: devices sync through a Vocab server. "
                + "Run `vocab login https://\(user)@HOST` with the address of your Vocab server (ask its administrator); nothing local is lost. Nothing was changed."
        case .deviceSignedOut(let server):
            return "This device was signed out of its account on \(server) (from another device or by the administrator). Nothing was changed. Sign in again: `vocab login https://USER@HOST`."
        case .schemaMissing(let server):
            return "The cloud server \(server) has no Vocab schema: an administrator runs `vocab cloud init --admin URL`."
        case .schemaTooOld(let server, let found, let needed):
            return "The cloud server \(server) has Vocab schema version \(found); this Vocab needs \(needed): an administrator runs `vocab cloud init --admin URL`. Nothing was changed."
        case .boundToAnotherAccount(let bound, let loggedIn, let user):
            return """
                This data folder syncs with \(loginURL(bound)), but you are logged in as \(loginURL(loggedIn)). Nothing was sent. \
                To keep the two accounts apart, use another data folder for this login (VOCAB_HOME=/path/to/folder vocab sync), \
                or log in to \(loginURL(bound)) again. To copy this folder's books and words into \(user)'s account, run \
                `vocab sync --copy-into-account \(user)`.
                """
        default: return error.message
        }
    }

    /// An account as `vocab login` takes it: a Vocab server's account "https://HOST/USER" as
    /// "https://USER@HOST"; any other as it is.
    static func loginURL(_ account: String) -> String {
        guard let match = account.wholeMatch(of: #/(https?://)([^/@]+)/([A-Za-z][A-Za-z0-9_]*)/#) else { return account }
        return String(match.1) + String(match.3) + "@" + String(match.2)
    }

    private static func importing(_ error: ImportError) -> String {
        switch error {
        case .invalidLine: return clause(error) + " (use --skip-invalid to import the other lines)."
        case .noBook(let line): return "Line \(line) names no book: add a \"book\" column or give --book BOOK."
        case .unknownFormat(let name): return "Cannot tell the format of \"\(name)\": give --format csv, tsv, txt or jsonl."
        case .noHeader(let fields):
            return "The first line names no column and has \(fields) fields: name them with --columns (e.g. --columns word,definition,detail) or add a header line."
        default: return error.message
        }
    }
}
