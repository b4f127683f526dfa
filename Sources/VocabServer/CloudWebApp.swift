import Dispatch
import FoundationEssentials
import Synchronization
import VocabCatalog
import VocabCore
import VocabSessions
import VocabCloud
import VocabCloudAPI
import VocabSystem
import VocabWeb

/// Many learners on one server, signed in with their cloud accounts: the Vocab server, the
/// cloud's only door. A learner signs in with the account's password, which this server checks
/// against the verifier the cloud keeps; the browser (or terminal, or window) becomes a device
/// of the account and keeps the device's secret (a browser in its cookie: HttpOnly, SameSite
/// Strict, Secure over HTTPS) — the server keeps it nowhere, and the cloud only its SHA-256.
/// The server reaches the cloud through a few connections of its own role (`CloudConnections`);
/// every cloud function a request runs takes the device's id and secret and acts for that
/// device's learner alone, so a device signed out on any server is refused at its next request
/// here. Each learner's words live in a store of the server's (`LearnerStores`, a cache)
/// synced with the cloud: pulled when the cloud has news, pushed after each change.
public final class CloudWebApp: Sendable {
    /// Where the cloud is, and how the server behaves.
    public struct Settings: Sendable {
        /// The cloud's host, port and database, and the server tier's role (`vocab_server`).
        public var server: ServerAddress
        /// The role's password; nil: libpq's own (PGPASSWORD, ~/.pgpass).
        public var serverPassword: String?
        /// Connections to the cloud, shared by every learner's requests.
        public var connections: Int
        public var cacheFolder: String
        public var cacheBytes: Int64
        /// "https" behind TLS or a proxy that terminates it (cookies then `Secure`), "http" on this machine.
        public var scheme: String
        public var timeouts: CloudTimeouts

        public init(server: ServerAddress, serverPassword: String? = nil, connections: Int = 4, cacheFolder: String, cacheBytes: Int64,
                    scheme: String,
                    timeouts: CloudTimeouts = CloudTimeouts(connectSeconds: 5, statementSeconds: 30, lockSeconds: 10)) {
            self.server = server
            self.serverPassword = serverPassword
            self.connections = connections
            self.cacheFolder = cacheFolder
            self.cacheBytes = cacheBytes
            self.scheme = scheme
            self.timeouts = timeouts
        }
    }

    let settings: Settings
    let catalogs: [String: Catalog]
    let stores: LearnerStores
    /// Wrong passwords per address network from strangers to the accounts they try: 30 free (a
    /// school's learners share one), then waits that double. Every failure is forgotten 15
    /// minutes after it (`SignInLimiter`).
    let limiter = SignInLimiter(free: 30)
    /// Device tokens the cloud refused (signed out, or made up), per address and apart from
    /// passwords: a signed-out device retrying from a school's address never keeps anyone there
    /// from signing in. A device id is held back after 5 from one address, before it counts
    /// against the address; from another address it is not (a stranger who knows a device's id
    /// cannot hold the device back: its 256-bit secret is no guess anyway).
    let tokenFailures = SignInLimiter(free: 100)
    let deviceFailures = SignInLimiter(free: 5)
    /// Wrong passwords per account from one source (a browser's mark, or else an address
    /// network): 5 free, then waits that double.
    let accountFromAddress = SignInLimiter()
    /// Wrong passwords per account from strangers together (sources the owner was never seen
    /// at): past 20, every stranger waits — guessing from fresh addresses stops — while the
    /// owner, from where he signed in before, is never held by it (`KnownSources`).
    let accountCeiling = SignInLimiter(free: 20, firstLock: 60, longestLock: 3_600)
    /// Pulls into a learner's store after a sign-in, off the request: four at a time, one
    /// waiting per learner (a second sign-in meanwhile finds his first pull under way).
    let firstFills = FairWorkQueue(workers: 4, pendingPerKey: 1, pendingInAll: 1_000)
    /// Where each account's owner has been seen.
    let knownSources = KnownSources()
    static let markCookieName = "vocab_known"
    /// The server's connections to the cloud.
    let cloud: CloudConnections
    /// Passwords checked at once (Argon2id takes 64 MiB and a core's time each): two, known
    /// accounts from clean addresses first; more wait, 30 s at most.
    private let passwordChecks = PasswordChecks(places: 2)
    /// The devices that proved themselves lately, by id (the cloud checks them again in
    /// every function a request runs; this only names their learner).
    private let devices = ShardedDictionary<SignedInDevice>()
    /// Requests per learner: `requestsPerLearner` in flight (until each answer is sent), the next answered 429 (Retry-After)
    /// at once — one learner's flood queues behind himself (his devices back off), never in front
    /// of everyone else. None waits its turn here: even a short wait took away the devices'
    /// backing off (DESIGN.md §10).
    let turns = LearnerTurns(inFlight: CloudWebApp.requestsPerLearner) {
        WebProblem(status: 429, message: "Too many requests of this account at once: try again in a moment.", retryAfter: 1)
    }
    static let requestsPerLearner = 3
    /// How long a device's last check with the cloud answers its reads (a device signed out
    /// on another server is refused here within this time; issue 39 allows a second).
    static let freshFor: Duration = .milliseconds(500)
    static let cookieName = "vocab_device"

    /// `makeApp` builds a learner's web app over their store (dictionaries, speech, clock…).
    public init(settings: Settings, catalogs: [Catalog], makeApp: @escaping @Sendable (LibraryPool) throws -> WebApp) throws {
        self.settings = settings
        self.catalogs = Dictionary(catalogs.compactMap { catalog in catalog.language.map { ($0, catalog) } }, uniquingKeysWith: { first, _ in first })
        stores = try LearnerStores(folder: settings.cacheFolder, budget: settings.cacheBytes, makeApp: makeApp)
        cloud = CloudConnections(address: settings.server, password: settings.serverPassword, timeouts: settings.timeouts,
                                 capacity: settings.connections)
        // Once a minute: devices and stores nobody used for 10 minutes are let go (a device comes
        // back with its cookie, a store from its file), and the cache is kept within its budget.
        let sweep = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        sweep.schedule(deadline: .now() + 60, repeating: 60)
        sweep.setEventHandler { [weak self] in self?.letGoOfIdle(seconds: 600) }
        sweep.resume()
        self.sweep = sweep
    }

    nonisolated(unsafe) private var sweep: DispatchSourceTimer?

    deinit { sweep?.cancel() }

    /// Forgets the devices not used for `seconds`, closes the stores of learners not seen
    /// as long, and brings the cache back within its budget (stores grow with what they pull).
    func letGoOfIdle(seconds: Int) {
        let now = ContinuousClock.now
        devices.forEachShard { devices in
            devices = devices.filter { now - $0.value.lastUsed.withLock { $0 } < .seconds(seconds) }
        }
        stores.closeIdle(seconds: seconds)
        stores.evictIfOverBudget()
    }

    /// Checks that the cloud answers this server's role and speaks this Vocab's schema;
    /// throws the refusal otherwise.
    public func checkCloud() throws {
        try cloud.with(for: nil) { try CloudSchema.requireThisVersion(on: $0) }
    }

    /// How many devices are signed in to this server now (in memory).
    public var signedInCount: Int { devices.count }

    /// Answers one request (on a server thread).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try route(request)
        } catch {
            response = WebApp.refusal(error, wording: WebApp.wording(for: request, catalogs: catalogs))
        }
        response.headers += WebApp.securityHeaders
        return response
    }

    /// Whose request it is, from its headers and what this server holds in memory alone (asked
    /// on the server's polling threads, so it never waits on the cloud): a learner whose device
    /// proved itself here lately, a refusal for a request that names no device at all (its
    /// upload or batch is never read), or not known yet (the handler asks the cloud).
    public func bodySender(_ request: HTTPRequest) -> BodySender {
        switch DeviceRoute(method: request.method, path: request.path) {
        case .health?:
            // For a load balancer's check: answered at once, never behind anyone's request.
            var answer = WebApp.json(DeviceAPI.Health(ok: true))
            answer.headers += WebApp.securityHeaders
            return .answerNow(answer)
        case .signIn?: return .shared("sign-in")
        default: break
        }
        if WebRoute.match(request)?.route == .signIn { return .shared("sign-in") }
        guard let token = deviceToken(request) else {
            var response = WebApp.refusal(Self.signedOut("Sign in with your cloud account."), wording: WebApp.wording(for: request, catalogs: catalogs))
            response.headers += WebApp.securityHeaders
            return .refused(response)
        }
        guard let key = DeviceKey(token: token), let known = devices[key.id], known.accepts(key.secret) else { return .unproved }
        return .learner(known.owner)
    }

    /// The device token a request carries (a device's bearer, or a browser's cookie).
    private func deviceToken(_ request: HTTPRequest) -> String? {
        let bearer = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        return bearer ?? WebApp.cookie(Self.cookieName, in: request.header("Cookie") ?? "")
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.path == "/catalog.json" { return WebApp.catalog(request.query["lang"] ?? "", catalogs: catalogs) }
        if request.path.hasPrefix(DeviceRoute.prefix) { return try deviceAPI(request) }
        guard request.path.hasPrefix("/api/") else { return try WebApp.page(request) }
        let route = WebRoute.match(request)
        switch route?.route {
        case .signIn?: return try signIn(request)
        case .pair?: throw WebProblem(status: 404, message: "This server signs in with a cloud account, not a pairing code.")
        case .meta?: return WebApp.json(WebMeta())
        case .session?:
            // Asked first by every page load, answered without a refusal when nobody is signed in.
            guard let caller = try? signedInCaller(request) else {
                return WebApp.json(SessionAnswer(mode: "cloud", signedIn: false, signIn: "account"))
            }
            return WebApp.json(SessionAnswer(mode: "cloud", signedIn: true, account: caller.owner))
        default: break
        }
        let caller = try signedInCaller(request)
        return try turns.answer(for: caller.owner) { try answer(request, route, caller) }
    }


    /// A signed-in learner's request: the account's own routes here, the rest (and a route
    /// that does not exist, which it refuses) by the learner's web app over their store.
    private func answer(_ request: HTTPRequest, _ route: (route: WebRoute, ids: [String])?, _ caller: Caller) throws -> HTTPResponse {
        if request.method != "GET" { try WebApp.checkWrite(request, scheme: settings.scheme) }
        if let (route, ids) = route {
            switch route {
            case .signOut: return try signOut(caller, request)
            case .devices: return try listDevices(caller)
            case .signOutDevice: return try signOut(caller, other: ids[0])
            case .shareBook, .unshareBook, .follow, .sharePreview, .unfollow, .catalog:
                return try pageSharing(route, ids, request, caller)
            case .signIn, .pair, .meta, .session: break  // answered before a learner is known
            case .changes, .books, .addBook, .editBook, .deleteBook, .cover, .words, .export, .addWord, .editWord, .deleteWord, .sound,
                 .dictionary, .nextCard, .studyQueue, .addReviews, .startGame, .answerGame, .finishGame, .memorizeGame,
                 .startImport, .importState, .cancelImport, .progress:
                break  // the learner's words and study: their web app below
            }
        }
        let learner = try stores.learner(caller.owner, server: settings.server)
        defer { learner.busy.subtract(1, ordering: .relaxed) }
        // A read within `freshFor` of the device's last word with the cloud is answered from the
        // learner's store as it is; anything else asks the cloud first (news, and whether the
        // device is still signed in: a sign-out elsewhere is refused here within that time).
        var counts: CloudCounts?
        if request.method != "GET" || !caller.device.checked(within: Self.freshFor) {
            let asking = ContinuousClock.now
            counts = try freshen(learner, caller, pushing: false, waitingForOthers: request.method != "GET")
            caller.device.markChecked(at: asking)  // a cloud out of reach too: reads go on from the store meanwhile
        }
        let response = learner.app.handle(request, device: caller.key.id)
        // A write that was refused changed nothing: nothing to push. One that was not is pushed
        // with the counts asked just before it (the device proved itself then).
        if request.method != "GET", response.status < 400 { try freshen(learner, caller, pushing: true, known: counts) }
        return response
    }

    // MARK: Signing in and out

    /// The key a request from its address is limited by (the client's address network: the
    /// connection's, or behind a trusted proxy the one it forwarded; an IPv6 address's /64).
    func limitKeys(_ request: HTTPRequest) -> [String] {
        ["address:" + AddressNetwork.of(request.peer)]
    }

    /// Where a sign-in comes from: its address network, and the browser's mark if it sent one.
    func source(of request: HTTPRequest) -> KnownSources.Source {
        KnownSources.Source(network: AddressNetwork.of(request.peer),
                            mark: WebApp.cookie(Self.markCookieName, in: request.header("Cookie") ?? ""))
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
        let given = try Self.signInBody(request)
        let caller = try addDevice(request, user: given.user, password: given.password, label: Self.label(userAgent: request.header("User-Agent")))
        // The browser is marked as the owner's: strangers' failures never hold it back.
        let mark = knownSources.mark(for: caller.owner)
        // The learner's store is pulled from now, off the request (a large account takes minutes
        // the first time): the sign-in waits for it 2 s at most, so that the first page of most
        // learners shows their words at once; past that, the pages show what has come so far.
        let store = try stores.learner(caller.owner, server: settings.server)
        let pulled = DispatchSemaphore(value: 0)
        let filling = firstFills.submit(key: caller.owner) { [self] in
            defer {
                store.busy.subtract(1, ordering: .relaxed)
                pulled.signal()
            }
            _ = try? freshen(store, caller, pushing: false)
            stores.evictIfOverBudget()
        }
        if filling { _ = pulled.wait(timeout: .now() + 2) } else { store.busy.subtract(1, ordering: .relaxed) }
        return HTTPResponse(status: 200, headers: [("Set-Cookie", cookie(value: caller.key.token, maxAge: 31_536_000)),
                                                   ("Set-Cookie", cookie(Self.markCookieName, value: mark, maxAge: 31_536_000)),
                                                   ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: DeviceAPI.encode(SignInAnswer(account: caller.owner)))
    }

    /// A sign-in's user name and password (the page's and a device's), or a 400.
    static func signInBody(_ request: HTTPRequest) throws -> DeviceAPI.SignIn {
        guard let given = try? DeviceAPI.decode(DeviceAPI.SignIn.self, from: request.body) else {
            throw WebProblem(status: 400, message: "Send the user name and the password.")
        }
        return given
    }

    /// Checks the learner's password against the verifier the cloud keeps and adds a device to
    /// the account. The rules (README, "Signing in"):
    /// - From a source the owner was seen at (an address network he signed in from, or a browser
    ///   marked at a sign-in that passed), only that source's own failures for the account count
    ///   (5 free, then waits that double): strangers never hold the owner back.
    /// - From any other source, also its address network's failures for every account (30 free)
    ///   and the account's ceiling, which counts strangers' failures together: past 20, every
    ///   stranger waits, whatever his address.
    /// - Every failure is forgotten 15 minutes after it; a success clears its source's.
    /// - An account with no room for another device, asked from a known source, is refused at
    ///   once: no password is checked for a device that would be refused anyway.
    /// Each limit takes its place before the password is checked: tries sent at once count as they come.
    func addDevice(_ request: HTTPRequest, user: String, password: String, label: String) throws -> Caller {
        let wrong = WebProblem(status: 403, message: "The user name or the password is wrong.", field: "password")
        guard UserName.isValid(user), !password.isEmpty,
              password.utf8.count <= 1_024 else {
            throw wrong
        }
        let account = user.lowercased(), from = source(of: request)
        let known = knownSources.knows(account, at: from)
        let networkKeys = limitKeys(request)
        let addressKeys = known ? [] : networkKeys
        let pair = ["account:" + account + "@" + (known ? from.mark.map { "mark:" + SHA256.hex(Array($0.utf8)) } ?? from.network : from.network)]
        let ceiling = known ? [] : ["account:" + account]
        let taken = try reserveTries([(limiter, addressKeys), (accountFromAddress, pair), (accountCeiling, ceiling)])
        var settled = false
        defer { if !settled { taken.forEach { $0.limiter.settled($0.keys) } } }  // no verdict: nothing counted
        let clean = known || !limiter.hasFailed(networkKeys)
        let device: DeviceKey?
        do {
            device = try CloudDevices.signIn(user: user, password: password, label: label, lending: { step in
                try cloud.with(for: nil) { try step($0) }  // none held while the password is checked
            }, checking: { found, check in
                if known, let full = found.full { throw CloudError.quotaExceeded(full) }
                let standing: PasswordChecks.Standing = found.exists && clean ? .likelyOwner : .other
                guard try passwordChecks.run(as: standing, check) != nil else {
                    throw WebProblem(status: 503, message: "The server is busy signing others in: try again in a moment.", retryAfter: 2)
                }
            })
        } catch let error as CloudError {
            if case .quotaExceeded(let limit) = error {
                let hourly: Bool = { if case .devicesThisHour = limit { return true } else { return false } }()
                throw WebProblem(status: 429, message: error.message, cause: error, retryAfter: hourly ? 600 : nil)
            }
            throw WebProblem(status: 503, message: "The cloud cannot be reached now: try again in a moment.", retryAfter: 5)
        }
        settled = true
        guard let device else {
            taken.forEach { $0.limiter.failed($0.keys, reserved: true) }
            throw wrong
        }
        accountFromAddress.succeeded(pair)
        limiter.settled(addressKeys)  // the address stays counted: others may guess from it
        accountCeiling.settled(ceiling)
        knownSources.saw(account, at: from.network)
        return remember(device, owner: user)
    }

    /// Takes a try in each limiter for its keys, or none (429 with the longest wait).
    private func reserveTries(_ wanted: [(limiter: SignInLimiter, keys: [String])]) throws -> [(limiter: SignInLimiter, keys: [String])] {
        var taken: [(limiter: SignInLimiter, keys: [String])] = []
        for entry in wanted where !entry.keys.isEmpty {
            let wait = entry.limiter.reserve(entry.keys)
            guard wait == 0 else {
                taken.forEach { $0.limiter.settled($0.keys) }
                throw tooMany(wait)
            }
            taken.append(entry)
        }
        return taken
    }

    private func cookie(_ name: String = CloudWebApp.cookieName, value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (settings.scheme == "https" ? "; Secure" : "")
    }

    /// Remembers a device that proved itself, with its learner.
    private func remember(_ key: DeviceKey, owner: String) -> Caller {
        let device = SignedInDevice(id: key.id, owner: owner, secretHash: SHA256.hash(Array(key.secret.utf8)))
        devices[key.id] = device
        return Caller(key: key, owner: owner, device: device)
    }

    /// The device a request names (a device's `Authorization: Bearer ID.SECRET`, or a
    /// browser's cookie) when its secret is right and it is signed in.
    func signedInCaller(_ request: HTTPRequest) throws -> Caller {
        guard let token = deviceToken(request), let key = DeviceKey(token: token) else {
            throw Self.signedOut("Sign in with your cloud account.")
        }
        let keys = limitKeys(request), deviceKey = ["device:" + key.id + "@" + AddressNetwork.of(request.peer)]
        if let known = devices[key.id] {
            guard known.accepts(key.secret) else {
                tokenFailures.failed(keys, reserved: false)
                throw Self.signedOut("Sign in with your cloud account.")
            }
            known.lastUsed.withLock { $0 = .now }
            let network = AddressNetwork.of(request.peer)
            if known.movedTo(network) { knownSources.saw(known.owner, at: network) }
            return Caller(key: key, owner: known.owner, device: known)
        }
        // Not seen since this server started (or signed out here): the cloud checks the secret.
        let wait = max(deviceFailures.wait(deviceKey), tokenFailures.wait(keys))
        if wait > 0 { throw tooMany(wait) }
        do {
            let owner = try cloud.with(for: nil) { try CloudDevices.learner(of: key, on: $0) }
            knownSources.saw(owner, at: AddressNetwork.of(request.peer))  // the owner's device proved itself from there
            return remember(key, owner: owner)
        } catch CloudError.accessDenied {
            deviceFailures.failed(deviceKey, reserved: false)
            tokenFailures.failed(keys, reserved: false)
            throw Self.signedOut("This device was signed out: sign in again with your cloud account.")
        } catch {
            throw WebProblem(status: 503, message: "The cloud cannot be reached now: try again in a moment.")
        }
    }

    func forget(devices ids: [String]) {
        for id in ids { devices[id] = nil }
    }

    func signOut(_ caller: Caller, _ request: HTTPRequest) throws -> HTTPResponse {
        _ = try signOutCaller(caller, request)
        return HTTPResponse(status: 204, headers: [("Set-Cookie", cookie(value: "", maxAge: 0)), ("Cache-Control", "no-store")])
    }

    /// Signs the caller's device out (its account's every device when the body says
    /// `everywhere`) and forgets them here; returns how many the cloud signed out.
    func signOutCaller(_ caller: Caller, _ request: HTTPRequest) throws -> Int {
        let everywhere = (try? DeviceAPI.decode(DeviceAPI.SignOut.self, from: request.body))?.everywhere ?? false
        let count = try cloud.with(for: caller.owner) { try CloudDevices.signOut(everywhere ? nil : caller.key.id, by: caller.key, on: $0) }
        if everywhere {
            var ids: [String] = []
            devices.forEachShard { ids += $0.values.filter { $0.owner == caller.owner }.map(\.id) }
            forget(devices: ids)
        } else {
            forget(devices: [caller.key.id])
        }
        return count
    }

    func signOut(_ caller: Caller, other id: String) throws -> HTTPResponse {
        let count = try cloud.with(for: caller.owner) { try CloudDevices.signOut(id, by: caller.key, on: $0) }
        guard count > 0 else { throw WebProblem(status: 404, message: "No device of this account has that id.") }
        forget(devices: [id])
        return WebApp.json(DeviceAPI.SignedOut(signedOut: count))
    }

    func listDevices(_ caller: Caller) throws -> HTTPResponse {
        let list = try cloud.with(for: caller.owner) { try CloudDevices.list(by: caller.key, on: $0) }
        return WebApp.json(list.map(DeviceAPI.Device.init))
    }

    // MARK: Keeping the learner's store in step with the cloud

    /// Asks the cloud how far the account is (which also proves the device is still signed in)
    /// and syncs the learner's store when either side has news; `pushing`: after a change.
    /// `known`: the counts this request asked before its change, used instead of asking again
    /// (the push checks that the account is still there). Returns the counts it asked or used
    /// (nil when the cloud could not be reached).
    /// A device signed out is refused (401). A cloud that cannot be reached leaves the store as
    /// it is: the learner goes on with it, and what they change waits for the next request.
    /// Whenever the cloud was asked (counts, a push, a pull: each checks the device), the device
    /// counts as checked from the moment the cloud was asked (after any wait for the learner's
    /// lock or a connection) — so the next card after a grade, which pushed, is answered from
    /// the store even when the grade waited long.
    @discardableResult
    /// `waitingForOthers`: false for a read, answered from the store as it is while another
    /// request of the learner's syncs it (nil is returned then).
    func freshen(_ learner: Learner, _ caller: Caller, pushing: Bool, known: CloudCounts? = nil, sharedNow: Bool = false,
                 waitingForOthers: Bool = true) throws -> CloudCounts? {
        // The books the learner follows: at once after a follow; else every few seconds (an
        // owner's change shows on an open phone within them), off the request's way.
        let due = learner.sharedChecked.withLock { checked in
            guard sharedNow || checked.map({ ContinuousClock.now - $0 > Self.sharedEvery }) ?? true else { return false }
            checked = .now
            return true
        }
        if sharedNow {
            try bringFollowedBooksUpToDate(learner, caller)
        } else if due {
            learner.busy.add(1, ordering: .relaxed)  // not evicted meanwhile
            DispatchQueue.global(qos: .utility).async { [self] in
                defer { learner.busy.subtract(1, ordering: .relaxed) }
                try? bringFollowedBooksUpToDate(learner, caller)
            }
        }
        do {
            let bringUpToDate = { [self] () throws -> CloudCounts? in
                try cloud.with(for: caller.owner) { connection in
                    // The cloud checks the device in what runs from now: the time it answers
                    // for (not when the request began to wait for the lock or a connection).
                    let asked = ContinuousClock.now
                    let counts = try known ?? DatabaseSyncChannel(connection: connection, device: caller.key).counts()
                    let (token, waiting) = try learner.pool.read { library in (try library.pulledThrough(for: learner.account.url), try library.outboxCount()) }
                    let syncing = counts.latest != token || waiting > 0
                    if syncing {
                        try learner.pool.write { library in
                            try ChannelSync.run(library, through: DatabaseSyncChannel(connection: connection, device: caller.key),
                                                account: learner.account, known: counts)
                        }
                    }
                    if known == nil || syncing { caller.device.markChecked(at: asked) }
                    return counts
                }
            }
            if !waitingForOthers {
                // A read while another request brings the store up to date (a sign-in's first
                // pull of a large account, say) is answered from the store as it is: it never
                // holds a worker for as long as that takes.
                return try learner.syncLock.withLockIfAvailable { _ in try bringUpToDate() } ?? nil
            }
            return try learner.syncLock.withLock { _ in try bringUpToDate() }
        } catch CloudError.accessDenied, CloudError.deviceSignedOut {
            forget(devices: [caller.key.id])
            throw Self.signedOut("This device was signed out: sign in again with your cloud account.")
        } catch let error as CloudError {
            if case .unreachable = error { return nil }
            if case .timedOut = error { return nil }
            if pushing, case .quotaExceeded = error {
                throw WebProblem(status: 507, message: error.message)
            }
            if case .serverError = error { throw problem(error, caller) }
            throw Self.cloudTrouble
        }
    }

    /// Pulls what changed in the books the learner follows into his store.
    private func bringFollowedBooksUpToDate(_ learner: Learner, _ caller: Caller) throws {
        do {
            try learner.syncLock.withLock { _ in
                try cloud.with(for: caller.owner) { connection in
                    try learner.pool.write { library in
                        try ChannelSync.bringFollowedBooks(into: library, through: DatabaseSharing(connection: connection, device: caller.key))
                    }
                }
            }
        } catch let error as CloudError {
            throw problem(error, caller)
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

/// A device that proved itself to this server: its id, its learner, and its secret's hash
/// (to check the next request's token without asking the cloud who it is). The secret itself
/// is not kept.
final class SignedInDevice: Sendable {
    let id: String
    let owner: String
    private let secretHash: [UInt8]
    /// When a request last came from it.
    let lastUsed = Mutex(ContinuousClock.now)
    /// When the cloud last said it is signed in (and the learner's store was brought up to date).
    private let lastChecked = Mutex<ContinuousClock.Instant?>(nil)
    /// The address network its last request came from.
    private let lastNetwork = Mutex<String?>(nil)

    /// Whether `network` is not where its last request came from (remembered from now).
    func movedTo(_ network: String) -> Bool {
        lastNetwork.withLock { last in
            defer { last = network }
            return last != network
        }
    }

    init(id: String, owner: String, secretHash: [UInt8]) {
        self.id = id
        self.owner = owner
        self.secretHash = secretHash
    }

    /// Whether the cloud was asked about this device less than `duration` ago.
    func checked(within duration: Duration) -> Bool {
        lastChecked.withLock { $0.map { ContinuousClock.now - $0 < duration } ?? false }
    }

    /// The cloud said at `instant` (or later) that this device is signed in.
    func markChecked(at instant: ContinuousClock.Instant) {
        lastChecked.withLock { checked in
            if checked.map({ $0 < instant }) ?? true { checked = instant }
        }
    }

    /// Whether `secret` is this device's (compared in time that depends on the length only).
    func accepts(_ secret: String) -> Bool {
        Secrets.sameBytes(SHA256.hash(Array(secret.utf8)), secretHash)
    }
}

/// A request's device: its key (for as long as the request lasts; every cloud function it
/// runs checks it) and its learner.
struct Caller {
    let key: DeviceKey
    let owner: String
    /// What this server keeps of the device (when it last asked the cloud about it).
    let device: SignedInDevice
}

private extension String {
    func nonEmpty(or fallback: String) -> String { isEmpty ? fallback : self }
}
