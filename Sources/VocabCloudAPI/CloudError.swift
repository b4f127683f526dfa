import VocabCore

/// Errors of the cloud: account status and server failures (exit code 3), never with secrets.
public enum CloudError: UserFacingError, Equatable {
    case notLoggedIn
    case unreachable(server: String, detail: String)
    case accessDenied(server: String, detail: String)
    case schemaMissing(server: String)
    case serverError(String)
    case invalidURL(String)
    case invalidUserName(String)
    case emptyPassword
    /// The user stopped the sync; what finished is saved.
    case cancelled
    /// A statement did not finish in time (the server is stuck, or something holds a lock).
    case timedOut(server: String, seconds: Int)
    /// The server's Vocab schema is older than this Vocab needs, or newer than it knows.
    case schemaTooOld(server: String, found: Int, needed: Int)
    case schemaTooNew(server: String, found: Int, known: Int)
    /// The administrator capped the account's records and a push would pass the cap.
    case quotaExceeded(detail: String)
    /// After a repair by full pull, this store and the server still count differently.
    case countsDisagree(detail: String)
    /// The store syncs with `bound`; the login is `loggedIn`: refused unless asked for by name.
    case boundToAnotherAccount(bound: String, loggedIn: String, user: String)
    /// The saved login exists but cannot be read (its permissions, say).
    case unreadableLogin(path: String, reason: String)
    /// A statement gave up waiting for a lock (its lock_timeout).
    case lockNotAvailable(String)
    /// An administrator's change waited for a lock too long: these sessions hold it.
    case blocked(by: [BlockingSession])
    /// This device was signed out of its account (from another device, or by an administrator).
    case deviceSignedOut(server: String)
    /// The saved login reaches PostgreSQL itself (an older Vocab's): devices now reach the
    /// cloud only through a Vocab server, where `user` signs in again.
    case databaseLoginRetired(server: String, user: String)
    /// Installing or upgrading the schema needs a superuser; `user` is not one.
    case administratorNeeded(String)
    /// PostgreSQL's client library (libpq) is not installed.
    case libpqMissing
    /// libcurl, for a Vocab server's address, is not installed.
    case libcurlMissing
    /// Not a Vocab server's address (https://HOST[:PORT]).
    case invalidServerURL(String)
    /// http:// to another machine: the device's secret would cross the network in the clear.
    case plainHTTPBeyondThisMachine(String)
    /// The Vocab server answered something this Vocab does not understand (another version?).
    case unexpectedAnswer(server: String, detail: String)
    /// The cloud refused a request about shared books (`ShareRefusal` says why).
    case shareRefused(ShareRefusal)

    public var category: ErrorCategory {
        switch self {
        case .invalidURL, .invalidUserName, .emptyPassword, .unreadableLogin, .invalidServerURL, .plainHTTPBeyondThisMachine: return .userInput
        case .countsDisagree: return .conflictOrCorruption
        case .shareRefused: return .userInput
        default: return .cloudUnavailable
        }
    }

    public var message: String {
        switch self {
        case .notLoggedIn:
            return "Not logged in to a cloud account. Nothing was changed."
        case .unreachable(let server, let detail):
            return "Cannot reach the cloud server \(server) (\(detail)). Nothing was changed."
        case .accessDenied(let server, let detail):
            return "The cloud server \(server) refused access (\(detail)). Check the user and password."
        case .schemaMissing(let server):
            return "The cloud server \(server) has no Vocab schema: an administrator must install it."
        case .serverError(let detail):
            return "The cloud server reported an error: \(detail)."
        case .invalidURL(let text):
            return "\"\(text)\" is not a PostgreSQL URL (postgresql://USER@HOST[:PORT]/DATABASE); put no password in it."
        case .invalidUserName(let name):
            return "\"\(name)\" cannot be a user name: use letters, digits and underscores, starting with a letter."
        case .emptyPassword:
            return "The password must not be empty."
        case .cancelled:
            return "Cancelled."
        case .timedOut(let server, let seconds):
            return "The cloud server \(server) did not answer within \(seconds) s (it may be busy or stuck). Nothing was lost."
        case .schemaTooOld(let server, let found, let needed):
            return "The cloud server \(server) has Vocab schema version \(found); this Vocab needs \(needed): an administrator must upgrade it. Nothing was changed."
        case .schemaTooNew(let server, let found, let known):
            return "The cloud server \(server) has Vocab schema version \(found), newer than this Vocab knows (\(known)): update Vocab. Nothing was changed."
        case .shareRefused(let refusal):
            return refusal.message
        case .countsDisagree(let detail):
            return "After syncing, this device and the cloud still disagree (\(detail)), even after pulling everything again. Nothing was deleted; please report this."
        case .quotaExceeded(let detail):
            return "The cloud refused the changes: \(detail). Nothing local was lost; ask the administrator for more room, or delete words you no longer need."
        case .lockNotAvailable(let detail):
            return "The cloud server is busy (\(detail)). Nothing was changed; try again."
        case .blocked(let sessions):
            let held = sessions.isEmpty ? "another session (it ended meanwhile)" : sessions.map(\.description).joined(separator: "; ")
            let pids = sessions.map { String($0.pid) }.joined(separator: ", ")
            return "Nothing was changed: the tables were held by \(held). "
                + (sessions.isEmpty ? "Try again." : "End them with SELECT pg_terminate_backend(pid) (pid \(pids)) as an administrator, then try again.")
        case .libcurlMissing:
            return "A Vocab server is reached through libcurl, which is not installed (Debian: libcurl4). Nothing was changed."
        case .invalidServerURL(let text):
            return "\"\(text)\" is not a Vocab server's address (https://HOST[:PORT]); put no user or password in it."
        case .plainHTTPBeyondThisMachine(let text):
            return "\(text) would send this device's secret over the network unencrypted: use https:// (plain http:// only to this machine)."
        case .unexpectedAnswer(let server, let detail):
            return "The Vocab server \(server) answered something this Vocab does not understand (\(detail)): is it the same version? Nothing was changed."
        case .libpqMissing:
            return "The cloud needs PostgreSQL's client library, libpq, which is not installed (Debian: libpq5). Nothing was changed."
        case .databaseLoginRetired(let server, let user):
            return "This device signed in to the cloud's database \(server) directly, which the cloud no longer allows: devices sync through a Vocab server (https://). Sign in again as \(user) at the Vocab server's address; nothing local is lost. Nothing was changed."
        case .administratorNeeded(let user):
            return "Installing or upgrading the Vocab schema needs a PostgreSQL superuser (it reads the learners' password verifiers and sets the server role's limits); \(user) is not one. Nothing was changed."
        case .deviceSignedOut(let server):
            return "This device was signed out of its account on \(server) (from another device or by the administrator). Nothing was changed; sign in again with the account's password."
        case .unreadableLogin(let path, let reason):
            return "The saved cloud login \(path) cannot be read (\(reason)). Nothing was changed."
        case .boundToAnotherAccount(let bound, let loggedIn, let user):
            return """
                This data folder syncs with \(bound), but you are logged in as \(loggedIn). Nothing was sent. \
                To keep the two accounts apart, use another data folder for this login, or log in to \(bound) again; \
                or copy this folder's books and words into \(user)'s account.
                """
        }
    }
}

/// A server session that holds a lock an administrator's change waits for.
public struct BlockingSession: Equatable, Sendable, CustomStringConvertible {
    public var pid: Int
    public var user: String
    public var state: String
    /// How long its transaction has been open, in seconds.
    public var seconds: Int

    public init(pid: Int, user: String, state: String, seconds: Int) {
        self.pid = pid
        self.user = user
        self.state = state
        self.seconds = seconds
    }

    public var description: String { "\(user) (pid \(pid), \(state) for \(seconds) s)" }
}
