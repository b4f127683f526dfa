import FoundationEssentials
import Synchronization
import VocabAnkiSync
import VocabCatalog
import VocabCore
import VocabDictionary
import VocabSessions
import VocabCloudAPI
import VocabWording

/// The web app's requests: the pages (from the binary, by name: no path from a request reaches
/// the file system) and the JSON API under `/api/`, over the session layer and a `StorePool`
/// that many requests share. The server holds no rule of its own. Every API request but
/// pairing needs a paired device's cookie; every write also needs the `X-Vocab-Request` header
/// (a cross-site form cannot send it) and, when the browser says where it comes from, an
/// Origin that is this server.
public final class WebApp: Sendable {
    package let pool: LibraryPool
    /// Who may ask, on a server of one learner; nil when a front (`CloudWebApp`) signs
    /// learners in and hands each request over with its device.
    let pairing: DevicePairing?
    let dictionaries: DictionaryService?
    /// espeak-ng, to speak a word (nil: not installed).
    let speech: Speech?
    /// The window's catalogue, by language: the page's words in English or Korean.
    let catalogs: [String: Catalog]
    let clock: SessionClock
    let studyDay: StudyDay
    /// When to back up the store (before a book with words is deleted, before an import).
    let backups: BackupPolicy
    /// "https" behind TLS or a proxy that terminates it (cookies then `Secure`), "http" on this machine.
    let scheme: String
    let scratch: ScratchFolder
    let games = WebGames()
    let imports = WebImports()
    /// The start of the study day worked out last (`studyDayStart`).
    let dayStartCache = Mutex<Timestamp?>(nil)
    /// Anki's apps, on a server of one learner (they pair with its code).
    let anki: AnkiSyncServer?
    /// Keeps the store ready for an Anki app's full download, once started.
    let ankiReadiness: AnkiDownloadReadiness?

    public init(pool: LibraryPool, pairing: DevicePairing?, dictionaries: DictionaryService? = nil, speech: Speech? = nil,
                catalogs: [Catalog] = [], clock: SessionClock = SystemClock(), studyDay: StudyDay = StudyDay(),
                backups: BackupPolicy = BackupPolicy(), scheme: String = "http") throws {
        self.pool = pool
        self.pairing = pairing
        self.dictionaries = dictionaries
        self.speech = speech
        self.catalogs = Dictionary(catalogs.compactMap { catalog in catalog.language.map { ($0, catalog) } }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
        self.studyDay = studyDay
        self.backups = backups
        self.scheme = scheme
        scratch = try ScratchFolder()
        if let pairing {
            let account = try AnkiCollections.storeAccount(of: pool)
            let readiness = AnkiDownloadReadiness(pool: pool, account: account, folder: AnkiDownloadReadiness.folder(of: pool), clock: clock)
            anki = AnkiSyncServer(accounts: PairedAnkiAccounts(pool: pool, pairing: pairing, account: account, readiness: readiness), clock: clock)
            ankiReadiness = readiness
        } else {
            anki = nil
            ankiReadiness = nil
        }
    }

    /// Answers one request (on a server thread).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        if let anki, AnkiSyncServer.serves(path: request.path) { return anki.answer(AnkiSyncExchange(request)).response }
        return answer(request) { try route(request, device: nil) }
    }

    /// Answers a request of `device`, a device the caller has already let in (a signed-in
    /// learner's, on a server of many).
    public func handle(_ request: HTTPRequest, device: String) -> HTTPResponse {
        answer(request) { try route(request, device: device) }
    }

    /// The response `route` makes, or its refusal worded in the page's language.
    private func answer(_ request: HTTPRequest, _ route: () throws -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try route()
        } catch {
            response = Self.refusal(error, wording: wording(for: request))
        }
        response.headers += Self.securityHeaders
        return response
    }

    /// What a request that threw is answered, on either server (one learner's or many's): a
    /// `WebProblem` as it says; a user's mistake 422 (a book or word not there 404), worded in
    /// the page's language as the window words it, when a page asks (the page translates
    /// the server's other sentences itself); anything else 500, changing nothing.
    package static func refusal(_ error: Error, wording: Wording?) -> HTTPResponse {
        func worded(_ problem: WebProblem) -> HTTPResponse {
            var worded = problem  // its status, field, wait and refusal as they are; its words the page's
            worded.message = wording?.message(for: problem.cause) ?? problem.cause.message
            return worded.response
        }
        switch error {
        case let problem as WebProblem: return worded(problem)
        case let refusal as Refusal: return worded(WebProblem(refusal))
        case let error as WordFormError:
            // A book that is not there (or not this learner's) is not found, as everywhere.
            if case .bookNotFound = error.underlying { return worded(WebProblem(status: 404, cause: error)) }
            return worded(WebProblem(status: 422, cause: error, field: error.field?.rawValue))
        case let error as UserFacingError:
            switch error as? VocabError {
            case .bookNotFound?, .wordNotFound?: return worded(WebProblem(status: 404, cause: error))
            default: return worded(WebProblem(status: error.category == .userInput ? 422 : 500, cause: error))
            }
        default:
            return worded(WebProblem(.somethingWentWrong))
        }
    }

    /// The words of the page's language (`X-Vocab-Language`); nil for a device's request.
    func wording(for request: HTTPRequest) -> Wording? {
        Self.wording(for: request, catalogs: catalogs)
    }

    /// The words of the page's language (`X-Vocab-Language`; English when `catalogs` has none
    /// for it). Nil for a request that is not a page's (a device's): the layers' own sentences.
    package static func wording(for request: HTTPRequest, catalogs: [String: Catalog]) -> Wording? {
        request.header("X-Vocab-Language").map { String($0.prefix { $0.isLetter }).lowercased() }
            .map { Wording(catalog: catalogs[$0] ?? Catalog()) }
    }

    package static let securityHeaders = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    private func route(_ request: HTTPRequest, device signedIn: String?) throws -> HTTPResponse {
        if request.path == "/catalog.json" { return Self.catalog(request.query["lang"] ?? "", catalogs: catalogs) }
        guard request.path.hasPrefix("/api/") else { return try Self.page(request) }
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)  // after "api"
        if parts == ["pair"], signedIn == nil { return try pair(request) }
        let matched = WebRoute.match(method: request.method, path: parts)
        if matched?.route == .session {
            // Asked first by every page load: whether this device is paired, answered without a
            // refusal (a 401 would be an error in the browser's console on every first visit).
            return Self.session(paired: signedIn != nil || (try? checkDevice(request)) != nil)
        }
        let device = try signedIn ?? checkDevice(request)
        if !request.isRead { try Self.checkWrite(request, scheme: scheme) }
        guard let (route, ids) = matched else {
            if WebRoute.knows(path: parts) { throw Refusal.methodNotAllowed(request.method) }
            throw Refusal.noSuchPath(request.path)
        }
        let id = { try self.uuid(ids[0]) }
        switch route {
        case .meta: return Self.json(WebMeta())
        case .session: return Self.session(paired: true)  // answered above already
        case .changes: return Self.json(ChangesAnswer(version: changeCounter.value))
        case .books: return Self.json(try books())
        case .addBook: return Self.json(try addBook(try decode(BookInput.self, request)), status: 201)
        case .editBook: return Self.json(try editBook(try id(), try decode(BookInput.self, request)))
        case .deleteBook: return Self.json(try deleteBook(try id()))
        case .cover: return try cover(try id())
        case .words: return Self.json(try words(bookId: try id(), query: request.query))
        case .export: return try export(bookId: try id(), format: request.query["format"] ?? "csv")
        case .addWord: return try addWord(try decode(NewWord.self, request))
        case .editWord: return Self.json(try editWord(try id(), try decode(WordChanges.self, request)))
        case .deleteWord: return Self.json(try deleteWord(try id()))
        case .sound: return try sound(wordId: try id())
        case .dictionary: return Self.json(try fillFromDictionary(try decode(DictionaryRequest.self, request)))
        case .nextCard: return Self.json(try nextCard(request.query, wording: wording(for: request)))
        case .studyQueue: return Self.json(try queue())
        case .progress: return try progress(request.query)
        case .addReviews: return Self.json(try addReviews(try decode(ReviewsRequest.self, request)))
        case .startGame: return Self.json(try startGame(try decode(GameRequest.self, request), device: device), status: 201)
        case .answerGame: return Self.json(try answerGame(try id(), try decode(GameAnswerRequest.self, request), device: device))
        case .finishGame: return Self.json(try finishGame(try id(), device: device))
        case .memorizeGame: return Self.json(try memorizeGame(try id(), device: device))
        case .startImport: return Self.json(try startImport(request, device: device), status: 202)
        case .importState: return Self.json(try importState(try id(), device: device, wording: wording(for: request)))
        case .cancelImport: return Self.json(try cancelImport(try id(), device: device))
        case .pair:
            throw Refusal.pairedAlready
        case .signIn, .shareBook, .follow, .sharePreview, .unfollow:
            // The server of many learners answers these itself.
            throw Refusal.signsInOtherwise(withAccounts: false)
        }
    }

    // MARK: Who may ask

    /// `GET /api/session` on a server of one learner: whether this device is paired, and if
    /// not, that it pairs with a code.
    static func session(paired: Bool) -> HTTPResponse {
        json(SessionAnswer(mode: "paired", signedIn: paired, signIn: paired ? nil : "code"))
    }

    private func pair(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "POST" else { throw Refusal.methodNotAllowed(request.method) }
        try Self.checkWrite(request, scheme: scheme)
        let code = try decode(PairRequest.self, request).code
        guard let token = pairing?.pair(code: code) else {
            throw Refusal.wrongPairingCode
        }
        let secure = scheme == "https" ? "; Secure" : ""
        return HTTPResponse(status: 204, headers: [("Set-Cookie", "vocab_session=\(token); Path=/; HttpOnly; SameSite=Strict\(secure)"),
                                                   ("Cache-Control", "no-store")])
    }

    /// The paired device asking (its token's hash), or a refusal.
    private func checkDevice(_ request: HTTPRequest) throws -> String {
        guard let token = Self.cookie("vocab_session", in: request.header("Cookie") ?? ""), let device = pairing?.device(token) else {
            throw Refusal.pairFirst
        }
        return device
    }

    /// The value of the cookie `name` in a Cookie header ("a=1; vocab_session=…").
    package static func cookie(_ cookieName: String, in header: String) -> String? {
        let name = (cookieName + "=").utf8
        for part in header.utf8.split(separator: UInt8(ascii: ";")) {
            let cookie = part.drop { $0 == UInt8(ascii: " ") }
            if cookie.starts(with: name) { return String(decoding: cookie.dropFirst(name.count), as: UTF8.self) }
        }
        return nil
    }

    /// A write must say it comes from the app (a header no cross-site form can send) and, when
    /// the browser names its origin, come from this server.
    package static func checkWrite(_ request: HTTPRequest, scheme: String) throws {
        guard request.header("X-Vocab-Request") == "1" else {
            throw Refusal.writeHeaderMissing
        }
        if let origin = request.header("Origin") {
            guard let host = request.header("Host"), origin == "\(scheme)://\(host)" else {
                throw Refusal.crossSiteWrite
            }
        }
    }

    // MARK: Reading and writing JSON

    /// A request's body as the route's type (`WebRoute.bodies`), or the refusal that says what
    /// is wrong with it: not a JSON object (400), a field missing or of the wrong kind (422).
    func decode<Body: Decodable>(_ type: Body.Type, _ request: HTTPRequest) throws -> Body {
        try Self.decode(type, request)
    }

    package static func decode<Body: Decodable>(_ type: Body.Type, _ request: HTTPRequest) throws -> Body {
        do {
            return try DeviceAPI.decode(type, from: request.body)
        } catch .notAnObject {
            throw Refusal.bodyNotJSONObject
        } catch .missing(let field) {
            throw Refusal.missingField(field)
        } catch .wrongType(let field) {
            throw Refusal.wrongKind(field)
        }
    }

    func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(text: text) else { throw Refusal.notAnId(text) }
        return id
    }

    /// `value` (one of the API's types) as JSON; never cached unless said (`cache`).
    package static func json<Body: Encodable>(_ value: Body, status: Int = 200, cache: String = "no-store") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", cache)],
                     body: DeviceAPI.encode(value))
    }

    // MARK: The pages

    /// The catalogue for a language the server has (`ko`), else an empty one (English).
    package static func catalog(_ language: String, catalogs: [String: Catalog]) -> HTTPResponse {
        let code = String(language.prefix { $0.isLetter }).lowercased()
        let entries = catalogs[code]?.entries ?? [:]
        return Self.json(CatalogAnswer(language: catalogs[code] == nil ? "en" : code, entries: entries), cache: "no-cache")
    }

    package static func page(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { throw Refusal.methodNotAllowed(request.method) }
        let name = request.path == "/" ? "/index.html" : request.path
        guard let file = WebPages.files[name] else { throw Refusal.noSuchPath(request.path) }
        // Asked again each time (an update shows at once), answered 304 when unchanged.
        var headers = [("Content-Type", file.type), ("Cache-Control", "no-cache"), ("ETag", file.etag), ("Vary", "Accept-Encoding")]
        if request.header("If-None-Match")?.split(separator: ",").contains(where: { $0.trimmingSpaces() == file.etag }) == true {
            return HTTPResponse(status: 304, headers: headers)
        }
        let takesGzip = request.header("Accept-Encoding")?.split(separator: ",").contains { $0.trimmingSpaces().hasPrefix("gzip") } == true
        guard takesGzip, !file.gzip.isEmpty, file.gzip.count < file.plain.count else { return HTTPResponse(status: 200, headers: headers, body: file.plain) }
        headers.append(("Content-Encoding", "gzip"))
        return HTTPResponse(status: 200, headers: headers, body: file.gzip)
    }

    /// Moves with every commit to the store, so an open page can ask cheaply whether to read again.
    let changeCounter = ChangeCounter()
    nonisolated(unsafe) private var observation: ObservationToken?

    /// Starts counting the store's commits (the pool's and other processes': a word added from
    /// the terminal shows in an open page at its next poll).
    public func watchStore() {
        let counter = changeCounter
        observation = pool.observe { _ in counter.bump() }
    }

    /// Starts keeping the store ready for an Anki app's full download, off the requests (on a
    /// server of one learner: nothing otherwise). `failed` hears why a run could not.
    public func keepAnkiDownloadReady(failed: @escaping @Sendable (Error) -> Void) {
        ankiReadiness?.start(failed: failed)
    }

    /// Brings into the words what an Anki app's last sync left past its answer (a server about
    /// to stop; an upload left is taken at the next start).
    public func finishAnkiWorkLeft() throws {
        try ankiReadiness?.reflectLeftNow()
    }
}

/// A refusal with its status, in the API's JSON form: `{"error": "...", "field": "..."}`. Made
/// from a `Refusal` (what this server refuses, said once there) or from a layer's error with the
/// status its route gives it; never from words of its own.
package struct WebProblem: Error {
    package var status: Int
    /// What is said: worded again in the page's language.
    package var cause: UserFacingError
    package var message: String
    package var field: String?
    /// Seconds before trying again is any use (429, 503): a Retry-After header, and in the JSON.
    package var retryAfter: Int?
    /// How this server signs a device in, said with a 401 ("account": a cloud account's password).
    package var signIn: String?
    /// Why the cloud refused a request about shared books.
    package var refusal: ShareRefusal?
    /// The account's limit that refused, for a device to word itself.
    package var limit: CloudLimit?

    /// A refusal as the API answers it: its status, wait and field are `Refusal`'s.
    package init(_ refusal: Refusal) {
        self.init(status: refusal.status, cause: refusal, field: refusal.field, retryAfter: refusal.retryAfter)
        if refusal.asksForAccountSignIn { signIn = "account" }
        if case .share(let share) = refusal { self.refusal = share }
        if case .accountLimit(let limit) = refusal { self.limit = limit }
    }

    /// What refused, as it is counted: a `Refusal`'s case (`too_many_tries`), or a layer's error
    /// type (`vocab_error`) — a bounded set, never a value.
    package var causeName: String {
        (cause as? Refusal)?.caseName ?? String(describing: type(of: cause)).snakeCased
    }

    /// A layer's error, answered with `status` (its words are the error's).
    package init(status: Int, cause: UserFacingError, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.cause = cause
        self.message = cause.message
        self.field = field
        self.retryAfter = retryAfter
    }

    package var response: HTTPResponse {
        var response = WebApp.json(DeviceAPI.Problem(error: message, field: field, retryAfter: retryAfter, signIn: signIn,
                                                     refusal: refusal?.rawValue, limit: limit?.detail), status: status)
        if let retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
        response.refusalCause = causeName
        return response
    }
}
