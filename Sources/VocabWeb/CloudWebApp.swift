import Dispatch
import FoundationEssentials
import Synchronization
import VocabCatalog
import VocabCore
import VocabStore
import VocabSync
import VocabSystem

/// Many learners on one server, signed in with their cloud accounts. A learner signs in with
/// the account's password, which PostgreSQL checks once; the browser becomes a device of the
/// account (cloud schema 5) and keeps the device's secret in its cookie (HttpOnly, SameSite
/// Strict, Secure over HTTPS) — the server keeps it nowhere on disk, only in memory while the
/// browser uses it. Each learner's words live in a store of the server's (`LearnerStores`, a
/// cache) synced with the cloud: pulled when the cloud has news, pushed after each change.
/// Every request asks the cloud, through the device's own connection, whether the device is
/// still signed in (and how far the account is), so a device signed out anywhere is refused
/// at its next request.
public final class CloudWebApp: Sendable {
    /// Where the cloud is, and how the server behaves.
    public struct Settings: Sendable {
        /// The cloud's host, port and database (the user is the learner's, or the device's).
        public var server: ServerAddress
        public var cacheFolder: String
        public var cacheBytes: Int64
        /// "https" behind TLS or a proxy that terminates it (cookies then `Secure`), "http" on this machine.
        public var scheme: String
        /// Behind a proxy: the client's address is the last one the proxy adds to X-Forwarded-For.
        public var behindProxy: Bool
        public var timeouts: CloudTimeouts

        public init(server: ServerAddress, cacheFolder: String, cacheBytes: Int64, scheme: String, behindProxy: Bool,
                    timeouts: CloudTimeouts = CloudTimeouts(connectSeconds: 5, statementSeconds: 30, lockSeconds: 10)) {
            self.server = server
            self.cacheFolder = cacheFolder
            self.cacheBytes = cacheBytes
            self.scheme = scheme
            self.behindProxy = behindProxy
            self.timeouts = timeouts
        }
    }

    let settings: Settings
    let catalogs: [String: Catalog]
    let stores: LearnerStores
    /// Wrong passwords and secrets per address: 30 free (a school's learners share one), then
    /// waits that double.
    let limiter = SignInLimiter(free: 30)
    /// Wrong passwords per account from one address: 5 free, then waits that double.
    let accountFromAddress = SignInLimiter()
    /// Wrong passwords per account from every address together: a slower ceiling, which holds
    /// back only addresses that have failed themselves, so that guessing from many addresses
    /// slows down while the owner, from an address that has not failed, always gets in.
    let accountCeiling = SignInLimiter(free: 20, firstLock: 60, longestLock: 3_600)
    /// The devices signed in lately, by role.
    private let devices = Mutex<[String: SignedInDevice]>([:])
    /// Requests in flight per learner: past `requestsPerLearner`, a learner's next request is
    /// answered 429 at once, so that one learner's flood queues behind himself, not in front of
    /// everyone else (the server has a few threads for all).
    private let inFlight = Mutex<[String: Int]>([:])
    static let requestsPerLearner = 3
    static let cookieName = "vocab_device"

    /// `makeApp` builds a learner's web app over their store (dictionaries, speech, clock…).
    public init(settings: Settings, catalogs: [Catalog], makeApp: @escaping @Sendable (StorePool) throws -> WebApp) throws {
        self.settings = settings
        self.catalogs = Dictionary(catalogs.compactMap { catalog in catalog.language.map { ($0, catalog) } }, uniquingKeysWith: { first, _ in first })
        stores = try LearnerStores(folder: settings.cacheFolder, budget: settings.cacheBytes, makeApp: makeApp)
        // Once a minute: devices and stores nobody used for 10 minutes are let go (their cloud
        // connections closed); a device comes back with its cookie, a store from its file.
        let sweep = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        sweep.schedule(deadline: .now() + 60, repeating: 60)
        sweep.setEventHandler { [weak self] in self?.letGoOfIdle(seconds: 600) }
        sweep.resume()
        self.sweep = sweep
    }

    nonisolated(unsafe) private var sweep: DispatchSourceTimer?

    deinit { sweep?.cancel() }

    /// Forgets the devices not used for `seconds` (closing their connections), and closes the
    /// stores of learners not seen as long.
    func letGoOfIdle(seconds: Int) {
        let now = ContinuousClock.now
        devices.withLock { devices in
            devices = devices.filter { now - $0.value.lastUsed.withLock { $0 } < .seconds(seconds) }
        }
        stores.closeIdle(seconds: seconds)
    }

    /// How many devices are signed in to this server now (in memory).
    public var signedInCount: Int { devices.withLock { $0.count } }

    /// Answers one request (on a server thread).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try route(request)
        } catch let problem as WebProblem {
            response = problem.response
        } catch let error as UserFacingError {
            response = WebProblem(status: 500, message: error.message).response
        } catch {
            response = WebProblem(status: 500, message: "Something went wrong on the server; nothing was changed.").response
        }
        response.headers += WebApp.securityHeaders
        return response
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.path == "/catalog.json" { return WebApp.catalog(request.query["lang"] ?? "", catalogs: catalogs) }
        if request.path.hasPrefix("/api/v1/") { return try deviceAPI(request) }
        guard request.path.hasPrefix("/api/") else { return try WebApp.page(request) }
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)
        if parts == ["signin"] { return try signIn(request) }
        if parts == ["pair"] { throw WebProblem(status: 404, message: "This server signs in with a cloud account, not a pairing code.") }
        let caller = try signedInCaller(request)
        return try withinShare(of: caller.device.owner) { try answer(request, parts, caller) }
    }

    /// Runs `body` as one of the learner's requests in flight, or answers 429 when he has
    /// `requestsPerLearner` already.
    func withinShare<T>(of owner: String, _ body: () throws -> T) throws -> T {
        let admitted = inFlight.withLock { counts in
            guard counts[owner, default: 0] < Self.requestsPerLearner else { return false }
            counts[owner, default: 0] += 1
            return true
        }
        guard admitted else {
            throw WebProblem(status: 429, message: "Too many requests of this account at once: try again in a moment.", retryAfter: 1)
        }
        defer {
            inFlight.withLock { counts in
                counts[owner, default: 1] -= 1
                if counts[owner] == 0 { counts.removeValue(forKey: owner) }
            }
        }
        return try body()
    }

    private func answer(_ request: HTTPRequest, _ parts: [String], _ caller: Caller) throws -> HTTPResponse {
        let device = caller.device
        if request.method != "GET" { try WebApp.checkWrite(request, scheme: settings.scheme) }
        switch (request.method, parts) {
        case ("GET", ["session"]): return WebApp.json(["mode": "cloud", "account": device.owner])
        case ("POST", ["signout"]): return try signOut(caller, request)
        case ("GET", ["devices"]): return try listDevices(caller)
        case ("DELETE", let path) where path.count == 2 && path[0] == "devices": return try signOut(caller, other: path[1])
        default: break
        }
        let learner = try stores.learner(device.owner, server: settings.server)
        defer { learner.busy.subtract(1, ordering: .relaxed) }
        try freshen(learner, caller, pushing: false)
        let response = learner.app.handle(request, device: device.role)
        // A write that was refused changed nothing: nothing to push.
        if request.method != "GET", response.status < 400 { try freshen(learner, caller, pushing: true) }
        return response
    }

    // MARK: Signing in and out

    /// The key a request from its address is limited by.
    func limitKeys(_ request: HTTPRequest) -> [String] {
        ["address:" + clientAddress(request)]
    }

    /// The client's address: the connection's, or behind a proxy the one the proxy saw.
    private func clientAddress(_ request: HTTPRequest) -> String {
        if settings.behindProxy, let forwarded = request.header("X-Forwarded-For")?.split(separator: ",").last {
            return forwarded.trimmingSpaces()
        }
        return request.peer
    }

    /// A 401 that tells the page to show the account's sign-in.
    static func signedOut(_ message: String) -> WebProblem {
        var problem = WebProblem(status: 401, message: message)
        problem.signIn = "account"
        return problem
    }

    func tooMany(_ seconds: Int) -> WebProblem {
        WebProblem(status: 429, message: "Too many tries: try again in \(seconds) s.", retryAfter: seconds)
    }

    private func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "POST" else { throw WebProblem(status: 405, message: "Sign in with POST.") }
        try WebApp.checkWrite(request, scheme: settings.scheme)
        guard let object = (try? JSONParser.parse(request.body))?.plainValue as? [String: Any],
              let user = object["user"] as? String, let password = object["password"] as? String else {
            throw WebProblem(status: 400, message: "Send the user name and the password.")
        }
        let (login, learner) = try addDevice(request, user: user, password: password, label: Self.label(userAgent: request.header("User-Agent")))
        let secret = login.password ?? ""
        let device: SignedInDevice
        do {
            device = try connectDevice(role: login.address.user, secret: secret)
        } catch {
            _ = try? CloudDevices.signOut(login.address.user, on: learner)  // no cookie will name it: not left signed in
            throw WebProblem(status: 503, message: "The cloud cannot be reached now: try again in a moment.")
        }
        // The learner's store is pulled now, so the first page shows the words at once.
        let store = try stores.learner(device.owner, server: settings.server)
        try? freshen(store, Caller(device: device, secret: secret), pushing: false)
        store.busy.subtract(1, ordering: .relaxed)
        DispatchQueue.global(qos: .utility).async { [stores] in stores.evictIfOverBudget() }
        return HTTPResponse(status: 200, headers: [("Set-Cookie", cookie(value: device.role + "." + (login.password ?? ""), maxAge: 31_536_000)),
                                                   ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: Array(WebApp.jsonValue(["account": device.owner]).compact.utf8))
    }

    /// Checks the learner's password (PostgreSQL checks it, limited per account and address)
    /// and adds a device to the account; returns the device's login and the learner's connection.
    func addDevice(_ request: HTTPRequest, user: String, password: String, label: String) throws -> (CloudLogin, PostgresConnection) {
        guard user.wholeMatch(of: #/[A-Za-z][A-Za-z0-9_]{0,62}/#) != nil, !user.hasPrefix("vd_") else {
            throw WebProblem(status: 403, message: "The user name or the password is wrong.", field: "user")
        }
        // Limited per address, per account from that address, and — only for an address that
        // has failed with this account — by the account's ceiling across all addresses.
        let keys = limitKeys(request), account = ["account:" + user.lowercased()]
        let pair = ["account:" + user.lowercased() + "@" + clientAddress(request)]
        var wait = max(limiter.wait(keys), accountFromAddress.wait(pair))
        if wait == 0, accountFromAddress.hasFailed(pair) { wait = accountCeiling.wait(account) }
        if wait > 0 { throw tooMany(wait) }
        var address = settings.server
        address.user = user
        let learner: PostgresConnection
        do {
            // Never no password: libpq would then take one from the server's own environment or
            // ~/.pgpass, and sign in whoever that is.
            learner = try PostgresConnection(address, password: password.isEmpty ? "-" : password, timeouts: settings.timeouts)
        } catch CloudError.accessDenied {
            limiter.failed(keys)
            accountFromAddress.failed(pair)
            accountCeiling.failed(account)
            throw WebProblem(status: 403, message: "The user name or the password is wrong.", field: "password")
        } catch {
            throw WebProblem(status: 503, message: "The cloud cannot be reached now: try again in a moment.", retryAfter: 5)
        }
        accountFromAddress.succeeded(pair)  // the address stays counted: others may guess from it
        do {
            return (try CloudDevices.add(label: label, on: learner), learner)
        } catch let error as CloudError {
            if case .quotaExceeded(let detail) = error { throw WebProblem(status: 429, message: "The account cannot sign in more devices now (\(detail)).") }
            throw WebProblem(status: 503, message: error.message)
        }
    }

    private func cookie(value: String, maxAge: Int) -> String {
        "\(Self.cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (settings.scheme == "https" ? "; Secure" : "")
    }

    /// Opens the device's own connection (PostgreSQL checks its secret) and remembers it.
    private func connectDevice(role: String, secret: String) throws -> SignedInDevice {
        var address = settings.server
        address.user = role
        let connection = try PostgresConnection(address, password: secret, timeouts: settings.timeouts)
        guard let owner = try connection.execute("SELECT vocab.me()::text").first?.first ?? nil else {
            throw CloudError.deviceSignedOut(server: address.server)
        }
        let device = SignedInDevice(role: role, owner: owner, secretHash: SHA256.hash(Array(secret.utf8)), connection: connection)
        devices.withLock { $0[role] = device }
        return device
    }

    /// The device role and secret a request carries (a role `vd_` and 32 hex digits, a secret
    /// of 64): a device's `Authorization: Bearer ROLE.SECRET`, or a browser's cookie.
    private func cookieParts(_ request: HTTPRequest) throws -> (role: String, secret: String) {
        let signedOut = Self.signedOut("Sign in with your cloud account.")
        let bearer = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard let value = bearer ?? WebApp.cookie(Self.cookieName, in: request.header("Cookie") ?? ""), value.utf8.count == 35 + 1 + 64 else { throw signedOut }
        let role = String(value.prefix(35)), dot = value.dropFirst(35).first, secret = String(value.suffix(64))
        let hex = { (text: Substring) in text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }
        guard role.hasPrefix("vd_"), hex(role.dropFirst(3)), dot == ".", hex(Substring(secret)) else { throw signedOut }
        return (role, secret)
    }

    /// The device a request's cookie names, with the cookie's secret, when the secret is right
    /// and the device is signed in.
    func signedInCaller(_ request: HTTPRequest) throws -> Caller {
        let (role, secret) = try cookieParts(request)
        if let known = devices.withLock({ $0[role] }) {
            guard known.accepts(secret) else {
                limiter.failed(limitKeys(request))
                throw Self.signedOut("Sign in with your cloud account.")
            }
            known.lastUsed.withLock { $0 = .now }
            return Caller(device: known, secret: secret)
        }
        // Not seen since this server started (or signed out here): PostgreSQL checks the secret.
        let keys = limitKeys(request)
        let wait = limiter.wait(keys)
        if wait > 0 { throw tooMany(wait) }
        do {
            return Caller(device: try connectDevice(role: role, secret: secret), secret: secret)
        } catch CloudError.accessDenied, CloudError.deviceSignedOut {
            limiter.failed(keys)
            throw Self.signedOut("This device was signed out: sign in again with your cloud account.")
        } catch {
            throw WebProblem(status: 503, message: "The cloud cannot be reached now: try again in a moment.")
        }
    }

    func forget(roles: [String]) {
        devices.withLock { devices in roles.forEach { devices.removeValue(forKey: $0) } }
    }

    func signOut(_ caller: Caller, _ request: HTTPRequest) throws -> HTTPResponse {
        _ = try signOutCaller(caller, request)
        return HTTPResponse(status: 204, headers: [("Set-Cookie", cookie(value: "", maxAge: 0)), ("Cache-Control", "no-store")])
    }

    /// Signs the caller's device out (its account's every device when the body says
    /// `everywhere`) and forgets them here; returns how many the cloud signed out.
    func signOutCaller(_ caller: Caller, _ request: HTTPRequest) throws -> Int {
        let device = caller.device
        let everywhere = (try? JSONParser.parse(request.body))?["everywhere"]?.boolValue ?? false
        let count = try caller.withConnection(settings) { try CloudDevices.signOut(everywhere ? nil : device.role, on: $0) }
        if everywhere {
            forget(roles: devices.withLock { $0.values.filter { $0.owner == device.owner }.map(\.role) })
        } else {
            forget(roles: [device.role])
        }
        return count
    }

    func signOut(_ caller: Caller, other id: String) throws -> HTTPResponse {
        let count = try caller.withConnection(settings) { try CloudDevices.signOut(id, on: $0) }
        guard count > 0 else { throw WebProblem(status: 404, message: "No device of this account has that id.") }
        forget(roles: [id])
        return WebApp.json(["signedOut": count])
    }

    func listDevices(_ caller: Caller) throws -> HTTPResponse {
        let list = try caller.withConnection(settings) { try CloudDevices.list(on: $0) }
        return WebApp.json(list.map { item -> [String: Any] in
            ["id": item.id, "label": item.label, "created": Int(item.created), "seen": item.seen.map { Int($0) } ?? JSONValue.null, "this": item.isThis]
        })
    }

    // MARK: Keeping the learner's store in step with the cloud

    /// Asks the cloud how far the account is (which also proves the device is still signed in)
    /// and syncs the learner's store when either side has news; `pushing`: after a change.
    /// A device signed out is refused (401). A cloud that cannot be reached leaves the store as
    /// it is: the learner goes on with it, and what they change waits for the next request.
    private func freshen(_ learner: Learner, _ caller: Caller, pushing: Bool) throws {
        do {
            try learner.syncLock.withLock { _ in
                try caller.withConnection(settings) { connection in
                    // Bounded short: through PgBouncer, a device whose sessions were ended waits for a
                    // server login that can no longer succeed; then `withConnection` connects anew.
                    let latest = try connection.execute("SELECT latest::text FROM vocab.counts()", within: 5).first?.first
                        .flatMap { $0.flatMap { Int64($0) } } ?? 0
                    let (token, waiting) = try learner.pool.read { store in (try store.pulledThrough(for: learner.account.url), try store.outboxCount()) }
                    guard latest != token || waiting > 0 else { return }
                    try learner.pool.write { store in
                        _ = try SyncEngine(store: store, connection: connection, account: learner.account).run()
                    }
                }
            }
        } catch CloudError.accessDenied, CloudError.deviceSignedOut {
            forget(roles: [caller.device.role])
            throw Self.signedOut("This device was signed out: sign in again with your cloud account.")
        } catch let error as CloudError {
            if case .unreachable = error { return }
            if case .timedOut = error { return }
            if pushing, case .quotaExceeded = error {
                throw WebProblem(status: 507, message: error.message)
            }
            throw WebProblem(status: 503, message: error.message)
        }
    }

    /// A device's name in the account's list, from the browser's User-Agent.
    static func label(userAgent: String?) -> String {
        let agent = userAgent ?? ""
        let system = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS", "Mac"), ("Windows", "Windows"),
                      ("CrOS", "Chromebook"), ("Linux", "Linux")].first { agent.contains($0.0) }?.1
        let browser = [("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")].first { agent.contains($0.0) }?.1
        return "Web: " + [browser, system].compactMap { $0 }.joined(separator: " on ").nonEmpty(or: "a browser")
    }
}

/// A browser signed in: its role, its learner, its secret's hash (to check the cookie) and its
/// own connection to the cloud (one statement at a time: `held` is touched only with `lock`
/// held). The secret itself is not kept.
final class SignedInDevice: @unchecked Sendable {
    let role: String
    let owner: String
    private let secretHash: [UInt8]
    fileprivate let lock = ThreadCondition()
    fileprivate var held: PostgresConnection?
    /// When a request last came from it.
    let lastUsed = Mutex(ContinuousClock.now)

    init(role: String, owner: String, secretHash: [UInt8], connection: PostgresConnection) {
        self.role = role
        self.owner = owner
        self.secretHash = secretHash
        held = connection
    }

    /// Whether `secret` is this device's (compared in time that depends on the length only).
    func accepts(_ secret: String) -> Bool {
        Secrets.sameBytes(SHA256.hash(Array(secret.utf8)), secretHash)
    }
}

/// A request's device with the secret its cookie carries (for as long as the request lasts).
struct Caller {
    let device: SignedInDevice
    let secret: String

    /// Runs `body` with the device's connection, connecting again (with the cookie's secret)
    /// once when it was lost: the cloud restarted, or ended the session (a sign-out).
    func withConnection<T>(_ settings: CloudWebApp.Settings, _ body: (PostgresConnection) throws -> T) throws -> T {
        device.lock.lock()
        defer { device.lock.unlock() }
        if let open = device.held {
            do {
                return try body(open)
            } catch let error as CloudError {
                // Lost, or refused by a pooler whose server session was ended (a sign-out ends
                // the device's sessions): connect anew, which says whether the device may.
                switch error {
                case .unreachable, .serverError, .timedOut: device.held = nil
                default: throw error
                }
            }
        }
        var address = settings.server
        address.user = device.role
        let fresh = try PostgresConnection(address, password: secret, timeouts: settings.timeouts)
        device.held = fresh
        return try body(fresh)
    }
}

private extension String {
    func nonEmpty(or fallback: String) -> String { isEmpty ? fallback : self }
}
