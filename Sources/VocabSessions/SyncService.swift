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
    public func logIn(url: String, password: String?, label: String) throws -> ServerAddress {
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
        try CloudDevices.list(on: try connect().connection)
    }

    /// Signs out one of the account's devices by its id (connects); false when none has it.
    public func signOut(device id: String) throws -> Bool {
        try CloudDevices.signOut(id, on: try connect().connection) > 0
    }

    /// The account gate: connects with the saved login and checks the account, or throws the
    /// refusal (not logged in, cannot reach server, access denied) having changed nothing.
    /// A login of an older Vocab (the learner's password on disk) is replaced here by a device
    /// of its own, so the password leaves the disk at the next sync.
    public func connect() throws -> CloudSession {
        let login = try login()
        let (status, checked) = AccountStatus.open(login, timeouts: timeouts)
        if let refusal = status.refusal { throw refusal }
        guard let login, let connection = checked else { throw CloudError.notLoggedIn }
        if !login.isDevice {
            let device = try CloudDevices.add(label: CloudDevices.label(for: "Vocab"), on: connection)
            return CloudSession(login: device, connection: try saveDevice(device))
        }
        return CloudSession(login: login, connection: connection)
    }

    /// Runs one two-way sync of `store` over a connection from `connect()`. Throws a
    /// `SyncFailure` when it stopped part-way (nothing lost), or the refusal of a store bound
    /// to another account (nothing sent). `copyIntoAnotherAccount`: the user asked by name to
    /// copy a store bound to another account into this one.
    public func run(_ session: CloudSession, store: Store, copyIntoAnotherAccount: Bool = false,
                    progress: @escaping (SyncProgress) -> Void = { _ in },
                    isCancelled: @escaping () -> Bool = { false }) throws -> SyncOutcome {
        let engine = SyncEngine(store: store, connection: session.connection, account: session.login.accountAddress, progress: progress)
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
    let connection: PostgresConnection
}
