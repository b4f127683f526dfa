import FoundationEssentials
import VocabCore
import VocabStore
import VocabSync
import VocabCloudAPI

/// How a sync went.
public struct SyncOutcome: Sendable {
    public var report: SyncReport
    public var server: ServerAddress
}

/// A sync stopped part-way: what failed, and that nothing was lost.
public struct SyncFailure: UserFacingError {
    public let underlying: UserFacingError
    public var category: ErrorCategory { .cloudUnavailable }
    /// What stopped, and that nothing was lost; what to do next is each front end's.
    public var sentence: Sentence {
        if case CloudError.cancelled? = underlying as? CloudError {
            return Sentence("Sync cancelled. Nothing was lost: what finished is saved.")
        }
        return Sentence("Sync stopped: %@ Nothing was lost: what finished is saved.", .sentence(underlying.sentence))
    }
}

/// Sync as a service for any front end: the account gate (nothing is touched when the account
/// is not available), progress while it runs, cancellation between pages and batches, and an
/// honest result — "done" only after the work committed.
public struct SyncService: Sendable {
    public let loginPath: String
    /// How long the cloud may keep us waiting (`VOCAB_CLOUD_TIMEOUT` sets the statement limit).
    public let timeouts: CloudTimeouts

    public init(paths: AppPaths) throws {
        loginPath = try paths.loginPath()
        timeouts = CloudTimeouts.from(environment: paths.environment)
    }

    /// The saved login, if any.
    public func login() throws -> CloudLogin? {
        try CloudLogin.load(from: loginPath)
    }

    /// The user name of the saved login's account, if any.
    public func loggedInUser() throws -> String? {
        try login()?.accountAddress.user
    }

    /// The account's status (connects to the server: call it off the main thread).
    public func accountStatus() -> AccountStatus {
        let saved: CloudLogin?
        do {
            saved = try login()
        } catch let error as CloudError {
            return .accessDenied(error)  // a login file that cannot be read is not "not logged in"
        } catch {
            return .accessDenied(.unreadableLogin(path: loginPath, reason: "\(error)"))
        }
        guard let login = saved else { return .notLoggedIn }
        return AccountStatus.check(login, timeouts: timeouts)
    }

    /// Signs this device in through a Vocab server (`https://USER@HOST[:PORT]`): the server
    /// checks the password and makes a device with a secret of its own, whose login is saved
    /// (0600); the password is forgotten. Throws the refusal otherwise, saving nothing. `label`
    /// names the device in the account's list. A PostgreSQL address is refused: devices reach
    /// the cloud only through a Vocab server. Connects: call it off the main thread.
    public func logIn(url: String, password: String?, label: String, caFile: String? = nil) throws -> ServerAddress {
        let (base, user) = try Self.loginAddress(url)
        guard let password, !password.isEmpty else { throw CloudError.emptyPassword }
        let previous = try? login()
        var device = try ServerAccount.signIn(url: base, user: user, password: password, label: label, caFile: caFile, timeouts: timeouts)
        if let previous, previous.accountAddress.user == user {
            // The same learner as before: the store bound to the old way in follows this login.
            device.formerAccount = previous.isServerLogin ? previous.formerAccount : previous.accountAddress.url
        }
        try device.save(to: loginPath)
        if let previous, previous.isServerLogin, previous.isDevice, previous != device {
            _ = signOutOnServer(previous, everywhere: false)  // the device it replaces; best effort
        }
        return device.accountAddress
    }

    /// The Vocab server and the user a login URL names, checked before anything is asked or
    /// sent: a PostgreSQL address (an older Vocab's kind of login) is refused with what to do
    /// instead, and a server address that cannot be reached safely is refused.
    public static func loginAddress(_ url: String) throws -> (base: String, user: String) {
        guard ServerConnection.isServerURL(url) else {
            let address = try ServerAddress(url: url)
            throw CloudError.databaseLoginRetired(server: address.server, user: address.user)
        }
        let (base, user) = try splitUser(url)
        _ = try ServerConnection.parse(base)
        return (base, user)
    }

    /// "https://USER@HOST…" as the server's address and the user (who must be named).
    static func splitUser(_ url: String) throws -> (base: String, user: String) {
        guard let match = url.wholeMatch(of: #/(https?://)([^@/]*)@(.+)/#) else { throw CloudError.invalidServerURL(url) }
        let user = String(match.2)
        guard UserName.isValid(user) else { throw CloudError.invalidUserName(user) }
        return (String(match.1) + String(match.3), user)
    }

    /// Forgets the login; local words stay. Signs this device out on the server first (all of
    /// the account's devices when `everywhere`); when the server cannot be reached the login
    /// is forgotten all the same and the result says so. Nil when there was no login.
    @discardableResult
    public func logOut(everywhere: Bool = false) throws -> LogOutResult? {
        guard FileManager.default.fileExists(atPath: loginPath) else { return nil }
        var result = LogOutResult(signedOut: 0, serverError: nil)
        if let login = try? login(), login.isServerLogin {
            result = signOutOnServer(login, everywhere: everywhere)
        }
        try FileManager.default.removeItem(atPath: loginPath)
        return result
    }

    /// Signs `login`'s device (or all of its account's) out on the server, saying why not.
    private func signOutOnServer(_ login: CloudLogin, everywhere: Bool) -> LogOutResult {
        var result = LogOutResult(signedOut: 0, serverError: nil)
        do {
            result.signedOut = try ServerAccount(login, timeouts: timeouts).signOut(everywhere ? nil : login.address.user)
        } catch CloudError.deviceSignedOut {
            // already signed out: nothing to do
        } catch let error as CloudError {
            result.serverError = error
        } catch {
            result.serverError = .serverError("\(error)")
        }
        return result
    }

    /// The account's devices (connects).
    public func devices() throws -> [CloudDevice] {
        try connect().account.devices()
    }

    /// Signs out one of the account's devices by its id (connects); false when none has it.
    public func signOut(device id: String) throws -> Bool {
        try connect().account.signOut(id) > 0
    }

    /// The backups the cloud keeps of the account, newest first (connects).
    public func accountBackups() throws -> [AccountBackup] {
        try connect().account.backups()
    }

    /// Brings one of the account's backups back into it, on the server (connects); this
    /// device's store gets its words at its next sync.
    public func restoreAccountBackup(_ id: String) throws -> BackupRestored {
        try connect().account.restoreBackup(id)
    }

    /// The account gate: reaches the Vocab server with the saved login and checks the account,
    /// or throws the refusal (not logged in, cannot reach server, access denied, a login
    /// straight to the database) having changed nothing.
    public func connect() throws -> CloudSession {
        let login = try login()
        let (status, account) = AccountStatus.open(login, timeouts: timeouts)
        if let refusal = status.refusal { throw refusal }
        guard let login, let account else { throw CloudError.notLoggedIn }
        return CloudSession(login: login, account: account)
    }

    /// Runs one two-way sync of `store` through a server from `connect()`. Throws a
    /// `SyncFailure` when it stopped part-way (nothing lost), or the refusal of a store bound
    /// to another account (nothing sent). `copyIntoAnotherAccount`: the user asked by name to
    /// copy a store bound to another account into this one.
    public func run(_ session: CloudSession, library: Library, copyIntoAnotherAccount: Bool = false,
                    progress: @escaping (SyncProgress) -> Void = { _ in },
                    isCancelled: @escaping () -> Bool = { false }) throws -> SyncOutcome {
        let store = library.store
        let learner = session.login.accountAddress
        let engine = SyncEngine(store: store, channel: ServerSyncChannel(account: session.account), account: learner, progress: progress)
        engine.formerAccount = session.login.formerAccount
        engine.isCancelled = isCancelled
        engine.copyIntoAnotherAccount = copyIntoAnotherAccount
        engine.sharing = session.account
        do {
            return SyncOutcome(report: try engine.run(), server: session.login.accountAddress)
        } catch let error as CloudError {
            if case .boundToAnotherAccount = error { throw error }  // refused before anything moved
            throw SyncFailure(underlying: error)
        } catch let error as UserFacingError {
            throw SyncFailure(underlying: error)
        }
    }

    /// `connect` then `run`, for callers that hold no connection.
    public func run(library: Library, copyIntoAnotherAccount: Bool = false,
                    progress: @escaping (SyncProgress) -> Void = { _ in },
                    isCancelled: @escaping () -> Bool = { false }) throws -> SyncOutcome {
        try run(try connect(), library: library, copyIntoAnotherAccount: copyIntoAnotherAccount, progress: progress,
                isCancelled: isCancelled)
    }
}

/// What signing out did: how many devices the server signed out, or why it could not (the
/// login was forgotten all the same).
public struct LogOutResult: Sendable {
    public var signedOut: Int
    public var serverError: CloudError?
}

/// A checked way to the account, from `SyncService.connect()`.
public struct CloudSession {
    public let login: CloudLogin
    let account: ServerAccount
}
