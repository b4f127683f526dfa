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
    /// One of the cloud's bounds refused the request: an account's cap (set by the
    /// administrator), its devices, a batch's or a record's size.
    case quotaExceeded(CloudLimit)
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

    public var sentence: Sentence {
        switch self {
        case .notLoggedIn:
            return Sentence("Not logged in to a cloud account. Nothing was changed.")
        case .unreachable(let server, let detail):
            return Sentence("Cannot reach the cloud server %@ (%@). Nothing was changed.", .text(server), .text(detail))
        case .accessDenied(let server, let detail):
            return Sentence("The cloud server %@ refused access (%@). Check the user and password.", .text(server), .text(detail))
        case .schemaMissing(let server):
            return Sentence("The cloud server %@ has no Vocab schema: an administrator must install it.", .text(server))
        case .serverError(let detail):
            return Sentence("The cloud server reported an error: %@.", .text(detail))
        case .invalidURL(let text):
            return Sentence("\"%@\" is not a PostgreSQL URL (postgresql://USER@HOST[:PORT]/DATABASE); put no password in it.", .text(text))
        case .invalidUserName(let name):
            return Sentence("\"%@\" cannot be a user name: use letters, digits and underscores, starting with a letter.", .text(name))
        case .emptyPassword:
            return Sentence("The password must not be empty.")
        case .cancelled:
            return Sentence("Cancelled.")
        case .timedOut(let server, let seconds):
            return Sentence("The cloud server %@ did not answer within %@ s (it may be busy or stuck). Nothing was lost.", .text(server), .number(seconds))
        case .schemaTooOld(let server, let found, let needed):
            return Sentence("The cloud server %@ has Vocab schema version %@; this Vocab needs %@: an administrator must upgrade it. Nothing was changed.",
                            .text(server), .number(found), .number(needed))
        case .schemaTooNew(let server, let found, let known):
            return Sentence("The cloud server %@ has Vocab schema version %@, newer than this Vocab knows (%@): update Vocab. Nothing was changed.",
                            .text(server), .number(found), .number(known))
        case .shareRefused(let refusal):
            return refusal.sentence
        case .countsDisagree(let detail):
            return Sentence("After syncing, this device and the cloud still disagree (%@), even after pulling everything again. Nothing was deleted; please report this.",
                            .text(detail))
        case .quotaExceeded(let limit) where limit.isAboutDevices:
            return Sentence("The cloud cannot sign in another device now: %@.", .sentence(limit.sentence))
        case .quotaExceeded(let limit):
            return Sentence("The cloud refused the changes: %@. Nothing local was lost; ask the administrator for more room, or delete words you no longer need.",
                            .sentence(limit.sentence))
        case .lockNotAvailable(let detail):
            return Sentence("The cloud server is busy (%@). Nothing was changed; try again.", .text(detail))
        case .blocked(let sessions):
            guard !sessions.isEmpty else { return Sentence("Nothing was changed: the tables were held by another session (it ended meanwhile). Try again.") }
            return Sentence("Nothing was changed: the tables were held by %@. End them with SELECT pg_terminate_backend(pid) (pid %@) as an administrator, then try again.",
                            .text(sessions.map(\.description).joined(separator: "; ")), .text(sessions.map { String($0.pid) }.joined(separator: ", ")))
        case .libcurlMissing:
            return Sentence("A Vocab server is reached through libcurl, which is not installed (Debian: libcurl4). Nothing was changed.")
        case .invalidServerURL(let text):
            return Sentence("\"%@\" is not a Vocab server's address (https://HOST[:PORT]); put no user or password in it.", .text(text))
        case .plainHTTPBeyondThisMachine(let text):
            return Sentence("%@ would send this device's secret over the network unencrypted: use https:// (plain http:// only to this machine).", .text(text))
        case .unexpectedAnswer(let server, let detail):
            return Sentence("The Vocab server %@ answered something this Vocab does not understand (%@): is it the same version? Nothing was changed.",
                            .text(server), .text(detail))
        case .libpqMissing:
            return Sentence("The cloud needs PostgreSQL's client library, libpq, which is not installed (Debian: libpq5). Nothing was changed.")
        case .databaseLoginRetired(let server, let user):
            return Sentence("This device signed in to the cloud's database %@ directly, which the cloud no longer allows: devices sync through a Vocab server (https://). Sign in again as %@ at the Vocab server's address; nothing local is lost. Nothing was changed.",
                            .text(server), .text(user))
        case .administratorNeeded(let user):
            return Sentence("Installing or upgrading the Vocab schema needs a PostgreSQL superuser (it reads the learners' password verifiers and sets the server role's limits); %@ is not one. Nothing was changed.",
                            .text(user))
        case .deviceSignedOut(let server):
            return Sentence("This device was signed out of its account on %@ (from another device or by the administrator). Nothing was changed; sign in again with the account's password.",
                            .text(server))
        case .unreadableLogin(let path, let reason):
            return Sentence("The saved cloud login %@ cannot be read (%@). Nothing was changed.", .text(path), .text(reason))
        case .boundToAnotherAccount(let bound, let loggedIn, let user):
            return Sentence("This data folder syncs with %@, but you are logged in as %@. Nothing was sent. To keep the two accounts apart, use another data folder for this login, or log in to %@ again; or copy this folder's books and words into %@'s account.",
                            .account(bound), .account(loggedIn), .account(bound), .text(user))
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
