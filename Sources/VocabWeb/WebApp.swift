import FoundationEssentials
import Synchronization
import VocabCatalog
import VocabCore
import VocabDictionary
import VocabSessions
import VocabStore
import VocabWording

/// The web app's requests: the pages (from the binary, by name: no path from a request reaches
/// the file system) and the JSON API under `/api/`, over the session layer and a `StorePool`
/// that many requests share. The server holds no rule of its own. Every API request but
/// pairing needs a paired device's cookie; every write also needs the `X-Vocab-Request` header
/// (a cross-site form cannot send it) and, when the browser says where it comes from, an
/// Origin that is this server.
public final class WebApp: Sendable {
    let pool: StorePool
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

    public init(pool: StorePool, pairing: DevicePairing?, dictionaries: DictionaryService? = nil, speech: Speech? = nil,
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
    }

    /// Answers one request (on a server thread).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        answer(request) { try route(request, device: nil) }
    }

    /// Answers a request of `device`, a device the caller has already let in (a signed-in
    /// learner's, on a server of many).
    public func handle(_ request: HTTPRequest, device: String) -> HTTPResponse {
        answer(request) { try route(request, device: device) }
    }

    /// The response `route` makes, or its refusal worded in the page's language.
    private func answer(_ request: HTTPRequest, _ route: () throws -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        // The page's language (it says which): a refusal that names things (a book, a word) is
        // worded here, as the window words it; the page translates the others itself.
        func refusal(_ status: Int, _ error: UserFacingError, field: String? = nil) -> HTTPResponse {
            WebProblem(status: status, message: wording(for: request)?.message(for: error) ?? error.message, field: field).response
        }
        do {
            response = try route()
        } catch let problem as WebProblem {
            response = problem.cause.map { refusal(problem.status, $0, field: problem.field) } ?? problem.response
        } catch let error as VocabError {
            switch error {
            case .bookNotFound, .wordNotFound: response = refusal(404, error)
            default: response = refusal(error.category == .userInput ? 422 : 500, error)
            }
        } catch let error as UserFacingError {
            response = refusal(error.category == .userInput ? 422 : 500, error)
        } catch {
            response = WebProblem(status: 500, message: "Something went wrong on the server; nothing was changed.").response
        }
        response.headers += Self.securityHeaders
        return response
    }

    /// The words of the page's language (`X-Vocab-Language`), when the server has its catalogue.
    func wording(for request: HTTPRequest) -> Wording? {
        request.header("X-Vocab-Language").map { String($0.prefix { $0.isLetter }).lowercased() }.flatMap { catalogs[$0] }
            .map { Wording(catalog: $0) }
    }

    static let securityHeaders = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    private func route(_ request: HTTPRequest, device signedIn: String?) throws -> HTTPResponse {
        if request.path == "/catalog.json" { return Self.catalog(request.query["lang"] ?? "", catalogs: catalogs) }
        guard request.path.hasPrefix("/api/") else { return try Self.page(request) }
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)  // after "api"
        if parts == ["pair"], signedIn == nil { return try pair(request) }
        let device = try signedIn ?? checkDevice(request)
        if request.method != "GET" { try Self.checkWrite(request, scheme: scheme) }
        /// The `*` parts of `pattern` when the request is `verb` on it ("books/*/words" → [id]).
        func on(_ verb: String, _ pattern: String) -> [String]? {
            guard request.method == verb else { return nil }
            let wanted = pattern.split(separator: "/")
            guard wanted.count == parts.count else { return nil }
            var captured: [String] = []
            for (want, part) in zip(wanted, parts) {
                if want == "*" { captured.append(part) } else if want != part { return nil }
            }
            return captured
        }
        if on("GET", "books") != nil { return json(try books()) }
        if on("POST", "books") != nil { return json(try addBook(try body(request)), status: 201) }
        if let id = on("PUT", "books/*") { return json(try editBook(try uuid(id[0]), try body(request))) }
        if let id = on("DELETE", "books/*") { return json(try deleteBook(try uuid(id[0]))) }
        if let id = on("GET", "books/*/cover") { return try cover(try uuid(id[0])) }
        if let id = on("GET", "books/*/words") { return json(try words(bookId: try uuid(id[0]), query: request.query)) }
        if let id = on("GET", "books/*/export") { return try export(bookId: try uuid(id[0]), format: request.query["format"] ?? "csv") }
        if on("POST", "words") != nil { return try addWord(try body(request)) }
        if let id = on("PUT", "words/*") { return json(try editWord(try uuid(id[0]), try body(request))) }
        if let id = on("DELETE", "words/*") { return json(try deleteWord(try uuid(id[0]))) }
        if let id = on("GET", "words/*/sound") { return try sound(wordId: try uuid(id[0])) }
        if on("POST", "dictionary") != nil { return json(try fillFromDictionary(try body(request))) }
        if on("GET", "study") != nil { return json(try nextCard(request.query)) }
        if on("POST", "study/grade") != nil { return json(try grade(try body(request))) }
        if on("GET", "study/queue") != nil { return json(try queue()) }
        if on("POST", "reviews") != nil { return json(try addReviews(try body(request))) }
        if on("POST", "games") != nil { return json(try startGame(try body(request), device: device), status: 201) }
        if let id = on("POST", "games/*/*") {
            return json(try playGame(try uuid(id[0]), step: id[1], try body(request, emptyAllowed: true), device: device))
        }
        if on("POST", "imports") != nil { return json(try startImport(request, device: device), status: 202) }
        if let id = on("GET", "imports/*") { return json(try importState(try uuid(id[0]), device: device, wording: wording(for: request))) }
        if let id = on("DELETE", "imports/*") { return json(try cancelImport(try uuid(id[0]), device: device)) }
        if on("GET", "changes") != nil { return json(["version": changeCounter.value]) }
        if on("GET", "session") != nil, signedIn == nil { return json(["mode": "paired"]) }
        if Self.knownAPIPaths.contains(parts.first ?? "") {
            throw WebProblem(status: 405, message: "\(request.method) is not allowed here.")
        }
        throw WebProblem(status: 404, message: "There is no \(request.path).")
    }

    static let knownAPIPaths: Set<String> = ["books", "words", "study", "changes", "dictionary", "reviews", "games", "imports"]

    // MARK: Who may ask

    private func pair(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "POST" else { throw WebProblem(status: 405, message: "Pair with POST.") }
        try Self.checkWrite(request, scheme: scheme)
        let object = try body(request)
        guard let code = object["code"] as? String, let token = pairing?.pair(code: code) else {
            throw WebProblem(status: 403, message: "That pairing code is not the one the server shows.")
        }
        let secure = scheme == "https" ? "; Secure" : ""
        return HTTPResponse(status: 204, headers: [("Set-Cookie", "vocab_session=\(token); Path=/; HttpOnly; SameSite=Strict\(secure)"),
                                                   ("Cache-Control", "no-store")])
    }

    /// The paired device asking (its token's hash), or a refusal.
    private func checkDevice(_ request: HTTPRequest) throws -> String {
        guard let token = Self.cookie("vocab_session", in: request.header("Cookie") ?? ""), let device = pairing?.device(token) else {
            throw WebProblem(status: 401, message: "Pair this device first, with the code the server shows.")
        }
        return device
    }

    /// The value of the cookie `name` in a Cookie header ("a=1; vocab_session=…").
    static func cookie(_ cookieName: String, in header: String) -> String? {
        let name = (cookieName + "=").utf8
        for part in header.utf8.split(separator: UInt8(ascii: ";")) {
            let cookie = part.drop { $0 == UInt8(ascii: " ") }
            if cookie.starts(with: name) { return String(decoding: cookie.dropFirst(name.count), as: UTF8.self) }
        }
        return nil
    }

    /// A write must say it comes from the app (a header no cross-site form can send) and, when
    /// the browser names its origin, come from this server.
    static func checkWrite(_ request: HTTPRequest, scheme: String) throws {
        guard request.header("X-Vocab-Request") == "1" else {
            throw WebProblem(status: 403, message: "Writes need the X-Vocab-Request header.")
        }
        if let origin = request.header("Origin") {
            guard let host = request.header("Host"), origin == "\(scheme)://\(host)" else {
                throw WebProblem(status: 403, message: "A write from another site is refused.")
            }
        }
    }

    // MARK: Reading and writing JSON

    func body(_ request: HTTPRequest, emptyAllowed: Bool = false) throws -> [String: Any] {
        if emptyAllowed, request.body.isEmpty { return [:] }
        guard !request.body.isEmpty,
              let object = (try? JSONParser.parse(request.body))?.plainValue as? [String: Any] else {
            throw WebProblem(status: 400, message: "The request body must be a JSON object.")
        }
        return object
    }

    func text(_ object: [String: Any], _ name: String, required: Bool = true) throws -> String {
        switch object[name] {
        case let value as String: return value
        case nil where !required: return ""
        case nil: throw WebProblem(status: 422, message: "\"\(name)\" is missing.", field: name)
        default: throw WebProblem(status: 422, message: "\"\(name)\" must be text.", field: name)
        }
    }

    func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(text: text) else { throw WebProblem(status: 404, message: "\"\(text)\" is not an id Vocab made.") }
        return id
    }

    /// `value` as the API's JSON; never cached unless said (`cache`).
    static func json(_ value: Any, status: Int = 200, cache: String = "no-store") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", cache)],
                     body: Array(jsonValue(value).compact.utf8))
    }

    /// An answer built here (strings, numbers, true/false, `JSONValue.null`, lists and objects of
    /// them) as JSON, written by VocabCore's own writer: Foundation's JSONSerialization, bridging
    /// every dictionary to an NSDictionary, took more than half of a request's time.
    static func jsonValue(_ value: Any) -> JSONValue {
        JSONValue(any: value, sortingKeys: false)
    }

    func json(_ value: Any, status: Int = 200) -> HTTPResponse { Self.json(value, status: status) }

    // MARK: The pages

    /// The catalogue for a language the server has (`ko`), else an empty one (English).
    static func catalog(_ language: String, catalogs: [String: Catalog]) -> HTTPResponse {
        let code = String(language.prefix { $0.isLetter }).lowercased()
        let entries = catalogs[code]?.entries ?? [:]
        return Self.json(["language": catalogs[code] == nil ? "en" : code, "entries": entries], cache: "no-cache")
    }

    static func page(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { throw WebProblem(status: 405, message: "Pages are read with GET.") }
        let name = request.path == "/" ? "/index.html" : request.path
        guard let file = WebPages.files[name] else { throw WebProblem(status: 404, message: "There is no \(request.path).") }
        // Asked again each time (an update shows at once), answered 304 when unchanged.
        var headers = [("Content-Type", file.type), ("Cache-Control", "no-cache"), ("ETag", file.etag), ("Vary", "Accept-Encoding")]
        if request.header("If-None-Match")?.split(separator: ",").contains(where: { $0.trimmingSpaces() == file.etag }) == true {
            return HTTPResponse(status: 304, headers: headers)
        }
        let takesGzip = request.header("Accept-Encoding")?.split(separator: ",").contains { $0.trimmingSpaces().hasPrefix("gzip") } == true
        guard takesGzip, file.gzip.count < file.plain.count else { return HTTPResponse(status: 200, headers: headers, body: file.plain) }
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
}

/// A refusal with its status, in the API's JSON form: `{"error": "...", "field": "..."}`.
struct WebProblem: Error {
    var status: Int
    var message: String
    var field: String?
    /// The layer's error it words, when there is one (worded again in the page's language).
    var cause: UserFacingError?
    /// Seconds before trying again is any use (429): a Retry-After header, and in the JSON.
    var retryAfter: Int?
    /// How this server signs a device in, said with a 401 ("account": a cloud account's password).
    var signIn: String?

    init(status: Int, message: String, field: String? = nil, cause: UserFacingError? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.field = field
        self.cause = cause
        self.retryAfter = retryAfter
    }

    var response: HTTPResponse {
        var object: [String: Any] = ["error": message]
        if let field { object["field"] = field }
        if let retryAfter { object["retryAfter"] = retryAfter }
        if let signIn { object["signIn"] = signIn }
        var response = WebApp.json(object, status: status)
        if let retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
        return response
    }
}
