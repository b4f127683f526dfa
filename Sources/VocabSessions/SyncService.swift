import Foundation
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

    /// Checks the login against the server and, when the account is available, saves it
    /// (0600). Throws the refusal otherwise, saving nothing. Connects: call it off the main thread.
    public func logIn(url: String, password: String?) throws -> ServerAddress {
        let address = try ServerAddress(url: url)
        let login = CloudLogin(address: address, password: password.flatMap { $0.isEmpty ? nil : $0 })
        if let refusal = AccountStatus.check(login, timeouts: timeouts).refusal { throw refusal }
        try login.save(to: loginPath)
        return address
    }

    /// Forgets the login; local words stay. Returns whether there was one.
    @discardableResult
    public func logOut() throws -> Bool {
        guard FileManager.default.fileExists(atPath: loginPath) else { return false }
        try FileManager.default.removeItem(atPath: loginPath)
        return true
    }

    /// The account gate: connects with the saved login and checks the account, or throws the
    /// refusal (not logged in, cannot reach server, access denied) having changed nothing.
    public func connect() throws -> CloudSession {
        let login = try login()
        let (status, checked) = AccountStatus.open(login, timeouts: timeouts)
        if let refusal = status.refusal { throw refusal }
        guard let login, let connection = checked else { throw CloudError.notLoggedIn }
        return CloudSession(login: login, connection: connection)
    }

    /// Runs one two-way sync of `store` over a connection from `connect()`. Throws a
    /// `SyncFailure` when it stopped part-way (nothing lost), or the refusal of a store bound
    /// to another account (nothing sent). `copyIntoAnotherAccount`: the user asked by name to
    /// copy a store bound to another account into this one.
    public func run(_ session: CloudSession, store: Store, copyIntoAnotherAccount: Bool = false,
                    progress: @escaping (SyncProgress) -> Void = { _ in },
                    isCancelled: @escaping () -> Bool = { false }) throws -> SyncOutcome {
        let engine = SyncEngine(store: store, connection: session.connection, progress: progress)
        engine.isCancelled = isCancelled
        engine.copyIntoAnotherAccount = copyIntoAnotherAccount
        do {
            return SyncOutcome(report: try engine.run(), server: session.login.address)
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

/// A checked connection to the account, from `SyncService.connect()`.
public struct CloudSession {
    public let login: CloudLogin
    let connection: PostgresConnection
}
