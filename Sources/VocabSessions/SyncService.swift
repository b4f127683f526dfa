import FoundationEssentials
import VocabCore
import VocabStore
import VocabSync

/// How a sync went.
public struct SyncOutcome: Sendable {
    public var report: SyncReport
    public var server: ServerAddress
}

/// A sync stopped part-way: what failed, and that nothing was lost.
public struct SyncFailure: UserFacingError {
    public let underlying: UserFacingError
    public var category: ErrorCategory { .cloudUnavailable }
    public var message: String {
        if case CloudError.cancelled? = underlying as? CloudError {
            return "Sync cancelled. Nothing was lost: what finished is saved; sync again to go on."
        }
        return "Sync stopped: \(underlying.message) Nothing was lost: what finished is saved; sync again to go on."
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

    /// Signs this device in: checks the learner's password against the server (PostgreSQL
    /// checks it), adds a device with a secret of its own, and saves the device's login (0600);
    /// the password is forgotten. Throws the refusal otherwise, saving nothing. `label` names the
    /// device in the account's list. Connects: call it off the main thread.
    public func logIn(url: String, password: String?, label: String, caFile: String? = nil) throws -> ServerAddress {
        if ServerConnection.isServerURL(url) { return try logInToServer(url: url, password: password, label: label, caFile: caFile) }
        let address = try ServerAddress(url: url)
        let learner = CloudLogin(address: address, password: password.flatMap { $0.isEmpty ? nil : $0 })
        let (status, checked) = AccountStatus.open(learner, timeouts: timeouts)
        if let refusal = status.refusal { throw refusal }
        guard let connection = checked else { throw CloudError.notLoggedIn }
        let previous = try? login()
        let device = try CloudDevices.add(label: label, on: connection)
        do {
            try saveDevice(device)
        } catch CloudError.deviceSignedOut {
            // Refused the moment it was made, its role known to PostgreSQL: a pooler in between
            // that does not look roles up. The device is taken back; nothing is saved.
            _ = try? CloudDevices.signOut(device.address.user, on: connection)
            throw CloudError.newDeviceUnknownToPooler(server: address.server)
        }
        if let previous, previous.isDevice {
            _ = signOutOnServer(previous, everywhere: false)  // the device it replaces; best effort
        }
        return address
    }

    /// `logIn` through a Vocab server (`https://USER@HOST[:PORT]`): the server checks the
    /// password and makes the device; its login is saved (0600), the password forgotten.
    private func logInToServer(url: String, password: String?, label: String, caFile: String?) throws -> ServerAddress {
        let (base, user) = try Self.splitUser(url)
        guard let password, !password.isEmpty else { throw CloudError.emptyPassword }
        let previous = try? login()
        let device = try ServerAccount.signIn(url: base, user: user, password: password, label: label, caFile: caFile, timeouts: timeouts)
        try device.save(to: loginPath)
        if let previous, previous.isDevice, previous != device {
            _ = signOutOnServer(previous, everywhere: false)  // the device it replaces; best effort
        }
        return device.accountAddress
    }

    /// "https://USER@HOST…" as the server's address and the user (who must be named).
    public static func splitUser(_ url: String) throws -> (base: String, user: String) {
        guard let match = url.wholeMatch(of: #/(https?://)([^@/]*)@(.+)/#) else { throw CloudError.invalidServerURL(url) }
        let user = String(match.2)
        guard user.wholeMatch(of: #/[A-Za-z][A-Za-z0-9_]{0,62}/#) != nil else { throw CloudError.invalidRoleName(user) }
        return (String(match.1) + String(match.3), user)
    }

    /// Checks a new device's login and saves it; returns the checked connection.
    @discardableResult
    private func saveDevice(_ device: CloudLogin) throws -> PostgresConnection {
        let (status, checked) = AccountStatus.open(device, timeouts: timeouts)
        if let refusal = status.refusal { throw refusal }
        guard let checked else { throw CloudError.notLoggedIn }
        try device.save(to: loginPath)
        return checked
    }

    /// Forgets the login; local words stay. Signs this device out on the server first (all of
    /// the account's devices when `everywhere`); when the server cannot be reached the login
    /// is forgotten all the same and the result says so. Nil when there was no login.
    @discardableResult
    public func logOut(everywhere: Bool = false) throws -> LogOutResult? {
        guard FileManager.default.fileExists(atPath: loginPath) else { return nil }
        var result = LogOutResult(signedOut: 0, serverError: nil)
        if let login = try? login(), login.isDevice || everywhere {
            result = signOutOnServer(login, everywhere: everywhere)
        }
        try FileManager.default.removeItem(atPath: loginPath)
        return result
    }

    /// Signs `login`'s device (or all of its account's) out on the server, saying why not.
    private func signOutOnServer(_ login: CloudLogin, everywhere: Bool) -> LogOutResult {
        var result = LogOutResult(signedOut: 0, serverError: nil)
        if login.isServerLogin {
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
        let (status, connection) = AccountStatus.open(login, timeouts: timeouts)
        if let connection {
            do {
                result.signedOut = try CloudDevices.signOut(everywhere ? nil : login.address.user, on: connection)
            } catch let error as CloudError {
                result.serverError = error
            } catch {
                result.serverError = .serverError("\(error)")
            }
        } else if let refusal = status.refusal, refusal != .deviceSignedOut(server: login.address.server) {
            result.serverError = refusal
        }
        return result
    }

    /// The account's devices (connects).
    public func devices() throws -> [CloudDevice] {
        switch try connect().door {
        case .database(let connection): return try CloudDevices.list(on: connection)
        case .server(let account): return try account.devices()
        }
    }

    /// Signs out one of the account's devices by its id (connects); false when none has it.
    public func signOut(device id: String) throws -> Bool {
        switch try connect().door {
        case .database(let connection): return try CloudDevices.signOut(id, on: connection) > 0
        case .server(let account): return try account.signOut(id) > 0
        }
    }

    /// The account gate: connects with the saved login and checks the account, or throws the
    /// refusal (not logged in, cannot reach server, access denied) having changed nothing.
    /// A login of an older Vocab (the learner's password on disk) is replaced here by a device
    /// of its own, so the password leaves the disk at the next sync.
    public func connect() throws -> CloudSession {
        let login = try login()
        if let login, login.isServerLogin {
            let (status, account) = ServerAccount.status(of: login, timeouts: timeouts)
            if let refusal = status.refusal { throw refusal }
            guard let account else { throw CloudError.notLoggedIn }
            return CloudSession(login: login, door: .server(account))
        }
        let (status, checked) = AccountStatus.open(login, timeouts: timeouts)
        if let refusal = status.refusal { throw refusal }
        guard let login, let connection = checked else { throw CloudError.notLoggedIn }
        if !login.isDevice {
            let device = try CloudDevices.add(label: CloudDevices.label(for: "Vocab"), on: connection)
            return CloudSession(login: device, door: .database(try saveDevice(device)))
        }
        return CloudSession(login: login, door: .database(connection))
    }

    /// Runs one two-way sync of `store` over a connection from `connect()`. Throws a
    /// `SyncFailure` when it stopped part-way (nothing lost), or the refusal of a store bound
    /// to another account (nothing sent). `copyIntoAnotherAccount`: the user asked by name to
    /// copy a store bound to another account into this one.
    public func run(_ session: CloudSession, store: Store, copyIntoAnotherAccount: Bool = false,
                    progress: @escaping (SyncProgress) -> Void = { _ in },
                    isCancelled: @escaping () -> Bool = { false }) throws -> SyncOutcome {
        let engine: SyncEngine
        switch session.door {
        case .database(let connection):
            engine = SyncEngine(store: store, connection: connection, account: session.login.accountAddress, progress: progress)
        case .server(let account):
            let learner = session.login.accountAddress
            engine = SyncEngine(store: store, channel: ServerSyncChannel(account: account), account: learner.url, learner: learner.user,
                                progress: progress)
        }
        engine.isCancelled = isCancelled
        engine.copyIntoAnotherAccount = copyIntoAnotherAccount
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
    public func run(store: Store, copyIntoAnotherAccount: Bool = false,
                    progress: @escaping (SyncProgress) -> Void = { _ in },
                    isCancelled: @escaping () -> Bool = { false }) throws -> SyncOutcome {
        try run(try connect(), store: store, copyIntoAnotherAccount: copyIntoAnotherAccount, progress: progress,
                isCancelled: isCancelled)
    }
}

/// What signing out did: how many devices the server signed out, or why it could not (the
/// login was forgotten all the same).
public struct LogOutResult: Sendable {
    public var signedOut: Int
    public var serverError: CloudError?
}

/// A checked connection to the account, from `SyncService.connect()`.
public struct CloudSession {
    public let login: CloudLogin
    let door: Door

    /// How the device reaches its account: a Vocab server (HTTPS), or PostgreSQL itself (a
    /// login made before the Vocab server was the door).
    enum Door {
        case database(PostgresConnection)
        case server(ServerAccount)
    }
}
