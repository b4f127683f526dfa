import Dispatch
import FoundationEssentials
import Synchronization
import VocabAnkiSync
import VocabCatalog
import VocabCore
import VocabSessions
import VocabCloudSessions
import VocabCloudAPI
import VocabSystem
import VocabWeb

/// Many learners on one server, signed in with their cloud accounts: the Vocab server, the
/// cloud's only door, as HTTP. A learner signs in with the account's password; the browser (or
/// terminal, or window) becomes a device of the account and keeps the device's secret (a
/// browser in its cookie: HttpOnly, SameSite Strict, Secure over HTTPS) — the server keeps it
/// nowhere, and the cloud only its SHA-256. What the cloud does — sign-in and its limits, the
/// devices, each learner's store kept in step, sharing — is the cloud's session layer
/// (`CloudService`); this type reads requests into its calls and writes their values (or
/// `Refusal`s) as answers, for the page's API and the device API alike.
public final class CloudWebApp: Sendable {
    /// Where the cloud is, and how the server behaves.
    public struct Settings: Sendable {
        /// The cloud, the connections to it and the learners' stores (the session layer's).
        var cloud: CloudSettings
        /// "https" behind TLS or a proxy that terminates it (cookies then `Secure`), "http" on this machine.
        public var scheme: String

        public init(server: ServerAddress, serverPassword: String? = nil, connections: Int = 4, cacheFolder: String, cacheBytes: Int64,
                    scheme: String,
                    timeouts: CloudTimeouts = CloudTimeouts(connectSeconds: 5, statementSeconds: 30, lockSeconds: 10)) {
            cloud = CloudSettings(server: server, serverPassword: serverPassword, connections: connections, cacheFolder: cacheFolder,
                                  cacheBytes: cacheBytes, timeouts: timeouts)
            self.scheme = scheme
        }
    }

    let settings: Settings
    let catalogs: [String: Catalog]
    /// What the cloud does, for every protocol.
    let service: CloudService<WebApp>
    static let markCookieName = "vocab_known"
    /// Requests per learner: `requestsPerLearner` in flight (until each answer is sent), the next
    /// answered 429 (Retry-After) at once — one learner's flood queues behind himself (his
    /// devices back off), never in front of everyone else. None waits its turn here: even a
    /// short wait took away the devices' backing off (DESIGN.md §10).
    let turns = LearnerTurns(inFlight: CloudWebApp.requestsPerLearner) { Refusal.tooManyRequestsAtOnce }
    static let requestsPerLearner = 3
    static let cookieName = "vocab_device"
    /// Anki's apps, signed in with the learners' accounts.
    let anki: AnkiSyncServer

    /// `makeApp` builds a learner's web app over their store (dictionaries, speech, clock…).
    public init(settings: Settings, catalogs: [Catalog], makeApp: @escaping @Sendable (LibraryPool) throws -> WebApp) throws {
        self.settings = settings
        self.catalogs = Dictionary(catalogs.compactMap { catalog in catalog.language.map { ($0, catalog) } }, uniquingKeysWith: { first, _ in first })
        let service = try CloudService<WebApp>(settings: settings.cloud) { pool in
            let app = try makeApp(pool)
            app.watchStore()
            return app
        }
        self.service = service
        anki = AnkiSyncServer(accounts: CloudAnkiAccounts(service: service, turns: turns))
    }

    /// Checks that the cloud answers this server's role and speaks this Vocab's schema;
    /// throws the refusal otherwise.
    public func checkCloud() throws { try service.checkCloud() }

    /// How many devices are signed in to this server now (in memory).
    public var signedInCount: Int { service.signedInCount }

    /// The cloud's session layer's load, as Prometheus' gauges (and counters since start).
    package var gauges: [ServerMetrics.Gauge] {
        let load = service.load
        return [
            ServerMetrics.Gauge(name: "vocab_cloud_connections", help: "Connections to the cloud lent to requests, and requests waiting for one.",
                                values: [("state=\"lent\"", Double(load.cloudConnectionsLent)), ("state=\"waiting\"", Double(load.waitingForCloud))]),
            ServerMetrics.Gauge(name: "vocab_cloud_connections_lost_total", help: "Connections the cloud broke (a failover, a restart).",
                                values: [("", Double(load.cloudConnectionsLost))], isCounter: true),
            ServerMetrics.Gauge(name: "vocab_devices_signed_in", help: "Devices that proved themselves to this server lately.",
                                values: [("", Double(load.devicesSignedIn))]),
            ServerMetrics.Gauge(name: "vocab_learner_stores_open", help: "Learners' stores open in the server's cache.",
                                values: [("", Double(load.storesOpen))]),
            ServerMetrics.Gauge(name: "vocab_learner_stores_evicted_total", help: "Learners' stores deleted to keep the cache within its budget.",
                                values: [("", Double(load.storesEvicted))], isCounter: true),
            ServerMetrics.Gauge(name: "vocab_learner_cache_bytes", help: "Bytes the learners' stores take, as the last pass over the cache measured them.",
                                values: [("", Double(load.cacheBytes))]),
            ServerMetrics.Gauge(name: "vocab_password_checks_waiting", help: "Sign-ins waiting for a password check.",
                                values: [("", Double(load.passwordChecksWaiting))]),
        ]
    }

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
        switch DeviceRoute.Shape.match(method: request.method, path: request.path)?.shape {
        case .health?:
            // For a load balancer's check: answered at once, never behind anyone's request.
            var answer = WebApp.json(DeviceAPI.Health(ok: true))
            answer.headers += WebApp.securityHeaders
            return .answerNow(answer)
        case .signIn?: return .shared("sign-in")
        default: break
        }
        if WebRoute.match(request)?.route == .signIn || request.path == AnkiSyncCall.hostKey.path { return .shared("sign-in") }
        guard let token = deviceToken(request) else {
            // An Anki app is refused as Anki's protocol refuses (403: sign in again).
            if AnkiSyncServer.serves(path: request.path) { return .refused(AnkiSyncServer.reply(.signInFirst).response) }
            var response = WebApp.refusal(Refusal.signInFirst, wording: WebApp.wording(for: request, catalogs: catalogs))
            response.headers += WebApp.securityHeaders
            return .refused(response)
        }
        guard let owner = service.knownOwner(token: token) else { return .unproved }
        return .learner(owner)
    }

    /// The device token a request carries (a device's bearer, a browser's cookie, or an Anki
    /// app's key in its `anki-sync` header).
    private func deviceToken(_ request: HTTPRequest) -> String? {
        if AnkiSyncServer.serves(path: request.path) {
            return request.header("anki-sync").flatMap(AnkiSyncWire.Header.parse).map(\.k).flatMap { $0.isEmpty ? nil : $0 }
        }
        let bearer = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        return bearer ?? WebApp.cookie(Self.cookieName, in: request.header("Cookie") ?? "")
    }

    /// The device a request names (a device's `Authorization: Bearer ID.SECRET`, or a
    /// browser's cookie) when its secret is right and it is signed in.
    func signedInCaller(_ request: HTTPRequest) throws -> Caller {
        try service.caller(token: deviceToken(request), network: AddressNetwork.of(request.peer))
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.path == "/catalog.json" { return WebApp.catalog(request.query["lang"] ?? "", catalogs: catalogs) }
        if request.path.hasPrefix(DeviceRoute.prefix) { return try deviceAPI(request) }
        if AnkiSyncServer.serves(path: request.path) { return anki.answer(AnkiSyncExchange(request)).response }
        guard request.path.hasPrefix("/api/") else { return try WebApp.page(request) }
        let route = WebRoute.match(request)
        switch route?.route {
        case .signIn?: return try signIn(request)
        case .pair?: throw Refusal.signsInOtherwise(withAccounts: true)
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
    /// that does not exist, which it refuses) by the learner's web app over their store, which
    /// the cloud's session layer keeps in step with the cloud around it.
    private func answer(_ request: HTTPRequest, _ route: (route: WebRoute, ids: [String])?, _ caller: Caller) throws -> HTTPResponse {
        if !request.isRead { try WebApp.checkWrite(request, scheme: settings.scheme) }
        if let (route, ids) = route {
            switch route {
            case .shareBook, .follow, .sharePreview, .unfollow:
                return try pageSharing(route, ids, request, caller)
            case .signIn, .pair, .meta, .session: break  // answered before a learner is known
            case .changes, .books, .addBook, .editBook, .deleteBook, .cover, .words, .export, .addWord, .editWord, .deleteWord, .sound,
                 .dictionary, .nextCard, .studyQueue, .addReviews, .startGame, .answerGame, .finishGame, .memorizeGame,
                 .startImport, .importState, .cancelImport, .progress:
                break  // the learner's words and study: their web app below
            }
        }
        // A write that was refused changed nothing: nothing to push.
        return try service.serve(caller, writing: !request.isRead, changed: { $0.status < 400 }) { app in
            app.handle(request, device: caller.key.id)
        }
    }

    // MARK: Signing in and out

    /// Where a sign-in comes from: its address network, and the browser's mark if it sent one.
    func source(of request: HTTPRequest) -> KnownSources.Source {
        KnownSources.Source(network: AddressNetwork.of(request.peer),
                            mark: WebApp.cookie(Self.markCookieName, in: request.header("Cookie") ?? ""))
    }

    /// `POST /api/signin`: the page's sign-in; the browser keeps the device's key in a cookie.
    private func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "POST" else { throw Refusal.methodNotAllowed(request.method) }
        try WebApp.checkWrite(request, scheme: settings.scheme)
        let given = try Self.signInBody(request)
        let caller = try service.signIn(user: given.user, password: given.password, label: Self.label(userAgent: request.header("User-Agent")),
                                        from: source(of: request))
        // The browser is marked as the owner's: strangers' failures never hold it back.
        let mark = service.mark(for: caller.owner)
        // The sign-in waits 2 s at most for the learner's store: the first page of most learners
        // shows their words at once; past that, the pages show what has come so far.
        try service.fillStore(of: caller, waitingAtMost: 2)
        return HTTPResponse(status: 200, headers: [("Set-Cookie", cookie(value: caller.key.token, maxAge: 31_536_000)),
                                                   ("Set-Cookie", cookie(Self.markCookieName, value: mark, maxAge: 31_536_000)),
                                                   ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: DeviceAPI.encode(SignInAnswer(account: caller.owner)))
    }

    /// A sign-in's user name and password (the page's and a device's), or a 400.
    static func signInBody(_ request: HTTPRequest) throws -> DeviceAPI.SignIn {
        guard let given = try? DeviceAPI.decode(DeviceAPI.SignIn.self, from: request.body) else { throw Refusal.signInBodyMissing }
        return given
    }

    func cookie(_ name: String = CloudWebApp.cookieName, value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (settings.scheme == "https" ? "; Secure" : "")
    }

    /// Signs the caller's device out (its account's every device when the body says
    /// `everywhere`); returns how many the cloud signed out.
    func signOutCaller(_ caller: Caller, _ request: HTTPRequest) throws -> Int {
        let everywhere = (try? DeviceAPI.decode(DeviceAPI.SignOut.self, from: request.body))?.everywhere ?? false
        return try service.signOut(caller, everywhere: everywhere)
    }

    func signOut(_ caller: Caller, other id: String) throws -> HTTPResponse {
        try service.signOut(caller, device: id)
        return WebApp.json(DeviceAPI.SignedOut(signedOut: 1))
    }

    func listDevices(_ caller: Caller) throws -> HTTPResponse {
        WebApp.json(try service.devices(of: caller).map(DeviceAPI.Device.init))
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

private extension String {
    func nonEmpty(or fallback: String) -> String { isEmpty ? fallback : self }
}
