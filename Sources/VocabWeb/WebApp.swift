import Foundation
import VocabCatalog
import VocabCore
import VocabDictionary
import VocabSessions
import VocabStore

/// The web app's requests: the pages (from the binary, by name: no path from a request reaches
/// the file system) and the JSON API under `/api/`, over the session layer and a `StorePool`
/// that many requests share. The server holds no rule of its own. Every API request but
/// pairing needs a paired device's cookie; every write also needs the `X-Vocab-Request` header
/// (a cross-site form cannot send it) and, when the browser says where it comes from, an
/// Origin that is this server.
public final class WebApp: Sendable {
    let pool: StorePool
    let pairing: DevicePairing
    let dictionaries: DictionaryService?
    /// The window's catalogue, by language: the page's words in English or Korean.
    let catalogs: [String: Catalog]
    let clock: SessionClock
    let studyDay: StudyDay
    /// "https" behind TLS (cookies then `Secure`), "http" on this machine.
    let scheme: String

    public init(pool: StorePool, pairing: DevicePairing, dictionaries: DictionaryService? = nil, catalogs: [Catalog] = [],
                clock: SessionClock = SystemClock(), studyDay: StudyDay = StudyDay(), scheme: String = "http") {
        self.pool = pool
        self.pairing = pairing
        self.dictionaries = dictionaries
        self.catalogs = Dictionary(catalogs.compactMap { catalog in catalog.language.map { ($0, catalog) } }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
        self.studyDay = studyDay
        self.scheme = scheme
    }

    /// Answers one request (on a server thread).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try route(request)
        } catch let problem as WebProblem {
            response = problem.response
        } catch let error as UserFacingError {
            response = WebProblem(status: error.category == .userInput ? 422 : 500, message: error.message).response
        } catch {
            response = WebProblem(status: 500, message: "Something went wrong on the server; nothing was changed.").response
        }
        response.headers += Self.securityHeaders
        return response
    }

    static let securityHeaders = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.path == "/catalog.json" { return catalog(request.query["lang"] ?? "") }
        guard request.path.hasPrefix("/api/") else { return try page(request) }
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)  // after "api"
        if parts == ["pair"] { return try pair(request) }
        try checkDevice(request)
        if request.method != "GET" { try checkWrite(request) }
        switch (request.method, parts) {
        case ("GET", ["books"]): return json(try books())
        case ("POST", ["books"]): return json(try addBook(try body(request)), status: 201)
        case ("GET", let path) where path.count == 3 && path[0] == "books" && path[2] == "words":
            return json(try words(bookId: try uuid(path[1]), query: request.query))
        case ("POST", ["words"]): return json(try addWord(try body(request)), status: 201)
        case ("POST", ["dictionary"]): return json(try fillFromDictionary(try body(request)))
        case ("GET", ["study"]): return json(try nextCard(request.query))
        case ("POST", ["study", "grade"]): return json(try grade(try body(request)))
        case ("GET", ["study", "queue"]): return json(try queue())
        case ("POST", ["reviews"]): return json(try addReviews(try body(request)))
        case ("GET", ["changes"]): return json(["version": changeCounter.value])
        case (_, let path) where Self.knownAPIPaths.contains(path.first ?? ""):
            throw WebProblem(status: 405, message: "\(request.method) is not allowed here.")
        default:
            throw WebProblem(status: 404, message: "There is no \(request.path).")
        }
    }

    static let knownAPIPaths: Set<String> = ["books", "words", "study", "changes", "dictionary", "reviews"]

    // MARK: Who may ask

    private func pair(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "POST" else { throw WebProblem(status: 405, message: "Pair with POST.") }
        try checkWrite(request)
        let object = try body(request)
        guard let code = object["code"] as? String, let token = pairing.pair(code: code) else {
            throw WebProblem(status: 403, message: "That pairing code is not the one the server shows.")
        }
        let secure = scheme == "https" ? "; Secure" : ""
        return HTTPResponse(status: 204, headers: [("Set-Cookie", "vocab_session=\(token); Path=/; HttpOnly; SameSite=Strict\(secure)"),
                                                   ("Cache-Control", "no-store")])
    }

    private func checkDevice(_ request: HTTPRequest) throws {
        let cookies = (request.header("Cookie") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let token = cookies.first(where: { $0.hasPrefix("vocab_session=") }).map({ String($0.dropFirst("vocab_session=".count)) }),
              pairing.isPaired(token) else {
            throw WebProblem(status: 401, message: "Pair this device first, with the code the server shows.")
        }
    }

    /// A write must say it comes from the app (a header no cross-site form can send) and, when
    /// the browser names its origin, come from this server.
    private func checkWrite(_ request: HTTPRequest) throws {
        guard request.header("X-Vocab-Request") == "1" else {
            throw WebProblem(status: 403, message: "Writes need the X-Vocab-Request header.")
        }
        if let origin = request.header("Origin") {
            guard let host = request.header("Host"), origin == "\(scheme)://\(host)" else {
                throw WebProblem(status: 403, message: "A write from another site is refused.")
            }
        }
    }

    // MARK: The API

    private func books() throws -> [[String: Any]] {
        let now = clock.now()
        return try pool.read { store in try Shelf.books(in: store, at: now) }.map { shelf in
            ["id": shelf.book.id.lowercaseText, "name": shelf.book.name, "explain": shelf.book.explain,
             "wordCount": shelf.summary.wordCount, "memorizedCount": shelf.summary.memorizedCount, "dueCount": shelf.dueCount]
        }
    }

    private func addBook(_ object: [String: Any]) throws -> [String: Any] {
        var form = BookForm()
        form[.name] = try text(object, "name")
        form[.explain] = try text(object, "explain", required: false)
        form[.meaning] = try text(object, "meaning", required: false)
        let now = clock.now()
        do {
            let book = try pool.write { store in try form.save(to: store, now: now) }.value
            return ["id": book.id.lowercaseText, "name": book.name, "explain": book.explain]
        } catch let error as BookFormError {
            throw WebProblem(status: 422, message: error.message, field: error.field.map { Self.fieldName($0) })
        }
    }

    private func words(bookId: UUID, query: [String: String]) throws -> [String: Any] {
        let offset = max(0, Int(query["offset"] ?? "") ?? 0), limit = min(max(1, Int(query["limit"] ?? "") ?? 50), 200)
        let search = query["q"] ?? ""
        return try pool.read { store -> [String: Any] in
            guard try store.book(id: bookId) != nil else { throw VocabError.bookNotFound(bookId.lowercaseText) }
            let keys = try store.wordListKeys(bookId: bookId, search: search.isEmpty ? nil : search)
            let page = keys.dropFirst(offset).prefix(limit)
            let rows = try page.compactMap { try store.wordListRow(key: $0) }
            return ["total": keys.count, "offset": offset,
                    "words": rows.map { row -> [String: Any] in Self.word(row.word, due: row.due) }]
        }
    }

    private func addWord(_ object: [String: Any]) throws -> [String: Any] {
        let bookId = try uuid(try text(object, "bookId"))
        var form = WordForm()
        for field in WordField.allCases { form[field] = try text(object, field.rawValue, required: field == .word) }
        let now = clock.now()
        do {
            let word = try pool.write { store in try form.save(to: store, bookId: bookId, now: now) }.value
            return Self.word(word, due: nil)
        } catch let error as WordFormError {
            throw WebProblem(status: 422, message: error.message, field: error.field?.rawValue)
        }
    }

    /// Dictionary on a form the page keeps: `{word, definition, …, filled?, sense?}` → the form
    /// filled (only empty fields; with `sense`, that meaning in place of what the dictionary
    /// filled), what the dictionary filled, the meanings to pick from, the web dictionary's URL.
    private func fillFromDictionary(_ object: [String: Any]) throws -> [String: Any] {
        guard let dictionaries else { throw WebProblem(status: 503, message: "This server has no dictionary.") }
        var form = WordForm()
        for field in WordField.allCases { form[field] = try text(object, field.rawValue, required: field == .word) }
        for (name, value) in object["filled"] as? [String: String] ?? [:] {
            if let field = WordField(rawValue: name) { form.filledByDictionary[field] = value }
        }
        guard !form[.word].trimmingCharacters(in: .whitespaces).isEmpty else {
            throw WebProblem(status: 422, message: "Type the word first, then look it up.", field: "word")
        }
        let entry = try dictionaries.lookUp(form[.word])
        form.fill(from: entry)
        if let sense = object["sense"] as? Int { form.choose(sense: sense, of: entry) }
        var fields: [String: String] = [:]
        for field in WordField.allCases { fields[field.rawValue] = form[field] }
        return ["form": fields, "filled": Dictionary(uniqueKeysWithValues: form.filledByDictionary.map { ($0.key.rawValue, $0.value) }),
                "senses": entry.senses.prefix(5).map { WordLookup.definition(of: $0) },
                "webURL": (try? dictionaries.webURL(for: form[.word])) ?? NSNull()]  // no template: no link, the fill stands
    }

    private func nextCard(_ query: [String: String]) throws -> [String: Any] {
        let now = clock.now(), day = studyDay, clock = self.clock
        let bookIds = try query["book"].map { [try uuid($0)] }
        return try pool.read { store -> [String: Any] in
            let session = try StudySession(store: store, bookIds: bookIds, day: day, clock: clock)
            guard let card = session.current else {
                switch try StudySession.nothingToStudy(store: store, bookIds: bookIds) {
                case .noWords: return ["card": NSNull(), "reason": "noWords"]
                case .nothingDue(let next): return ["card": NSNull(), "reason": "nothingDue", "nextReview": next.map { $0.iso8601 } ?? NSNull()]
                }
            }
            // The interval each button shows, by the rule the window's buttons follow.
            let intervals = session.nextDue().map { choice -> [String: Any] in
                ["rating": choice.rating.name, "due": choice.due.iso8601, "interval": Self.interval(ButtonInterval(choice.due, from: now))]
            }
            return ["card": Self.word(card.word, due: card.schedule?.due), "isDue": card.isDue, "dueCount": session.dueCount,
                    "newCount": session.newCount, "intervals": intervals]
        }
    }

    /// The day's study queue (due, then new up to the day's limit), for the phone to keep:
    /// studying goes on with no network.
    private func queue() throws -> [String: Any] {
        let day = studyDay, clock = self.clock
        return try pool.read { store -> [String: Any] in
            let session = try StudySession(store: store, bookIds: nil, day: day, clock: clock)
            return ["cards": session.cards.map { Self.word($0.word, due: $0.schedule?.due) }, "madeAt": clock.now().iso8601]
        }
    }

    /// Reviews made on the phone, sent when it is back online: `{"reviews": [{id, wordId,
    /// rating, at}]}`. Each keeps the time it was made and the id the phone gave it, so sending
    /// one twice changes nothing; schedules are derived from the log, as a sync does.
    private func addReviews(_ object: [String: Any]) throws -> [String: Any] {
        guard let items = object["reviews"] as? [[String: Any]], items.count <= 1_000 else {
            throw WebProblem(status: 422, message: "\"reviews\" must be a list of at most 1,000 reviews.", field: "reviews")
        }
        let now = clock.now()
        var byWord: [UUID: [ReviewRecord]] = [:]
        for item in items {
            guard let id = (item["id"] as? String).flatMap(UUID.init(text:)), let wordId = (item["wordId"] as? String).flatMap(UUID.init(text:)),
                  let rating = (item["rating"] as? String).flatMap(Rating.init(name:)),
                  let at = (item["at"] as? String).flatMap(Timestamp.init(iso8601:)), at <= now.adding(seconds: 300) else {
                throw WebProblem(status: 422, message: "Each review needs an id, a wordId, a rating and the time it was made (not in the future).",
                                 field: "reviews")
            }
            byWord[wordId, default: []].append(ReviewRecord(id: id, wordId: wordId, reviewedAt: at, rating: rating, source: .study))
        }
        let added = try pool.write { store in
            // Reviews of words deleted meanwhile (on another device) have nowhere to go: left out.
            let known = try byWord.keys.filter { try store.word(id: $0) != nil }
            return try store.addReviewLogs(known.map { ($0, byWord[$0] ?? []) }, scheduler: try store.scheduler())
        }.value
        return ["added": added]
    }

    private func grade(_ object: [String: Any]) throws -> [String: Any] {
        let wordId = try uuid(try text(object, "wordId"))
        guard let name = object["rating"] as? String, let rating = Rating(name: name) else {
            throw WebProblem(status: 422, message: "The rating must be again, hard, good or easy.", field: "rating")
        }
        let now = clock.now()
        let schedule = try pool.write { store in
            var ids = TimeOrderedIDs()
            return try store.recordReview(wordId: wordId, rating: rating, at: now, source: .study, ids: &ids)
        }.value
        return ["due": schedule.due.iso8601, "state": schedule.state.name]
    }

    // MARK: Reading and writing JSON

    private func body(_ request: HTTPRequest) throws -> [String: Any] {
        guard !request.body.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
            throw WebProblem(status: 400, message: "The request body must be a JSON object.")
        }
        return object
    }

    private func text(_ object: [String: Any], _ name: String, required: Bool = true) throws -> String {
        switch object[name] {
        case let value as String: return value
        case nil where !required: return ""
        case nil: throw WebProblem(status: 422, message: "\"\(name)\" is missing.", field: name)
        default: throw WebProblem(status: 422, message: "\"\(name)\" must be text.", field: name)
        }
    }

    private func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(text: text) else { throw WebProblem(status: 404, message: "\"\(text)\" is not an id Vocab made.") }
        return id
    }

    /// `value` as the API's JSON; never cached unless said (`cache`).
    static func json(_ value: Any, status: Int = 200, cache: String = "no-store") -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", cache)],
                            body: [UInt8](data))
    }

    private func json(_ value: Any, status: Int = 200) -> HTTPResponse { Self.json(value, status: status) }

    static func word(_ word: Word, due: Timestamp?) -> [String: Any] {
        ["id": word.id.lowercaseText, "bookId": word.bookId.lowercaseText, "word": word.word, "definition": word.definition,
         "detail": word.detail, "pronunciation": word.pronunciation, "synonym": word.synonym, "antonym": word.antonym,
         "memorized": word.memorized, "due": due.map { $0.iso8601 } ?? NSNull()]
    }

    /// A button's interval as the page words it: `{"unit": "m"|"h"|"d"|"mo"|"y", "count": "10"}`
    /// (the catalogue's "%dm", "%dh", …; years in tenths: "1.5").
    static func interval(_ interval: ButtonInterval) -> [String: String] {
        switch interval {
        case .minutes(let count): return ["unit": "m", "count": String(count)]
        case .hours(let count): return ["unit": "h", "count": String(count)]
        case .days(let count): return ["unit": "d", "count": String(count)]
        case .months(let count): return ["unit": "mo", "count": String(count)]
        case .years(let tenths): return ["unit": "y", "count": tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"]
        }
    }

    static func fieldName(_ field: BookField) -> String {
        switch field {
        case .name: return "name"
        case .explain: return "explain"
        case .meaning: return "meaning"
        case .coverWord: return "coverWord"
        }
    }

    // MARK: The pages

    /// The catalogue for a language the server has (`ko`), else an empty one (English).
    private func catalog(_ language: String) -> HTTPResponse {
        let code = String(language.prefix { $0.isLetter }).lowercased()
        let entries = catalogs[code]?.entries ?? [:]
        return Self.json(["language": catalogs[code] == nil ? "en" : code, "entries": entries], cache: "no-cache")
    }

    private func page(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { throw WebProblem(status: 405, message: "Pages are read with GET.") }
        let name = request.path == "/" ? "/index.html" : request.path
        guard let file = WebPages.files[name] else { throw WebProblem(status: 404, message: "There is no \(request.path).") }
        return HTTPResponse(status: 200, headers: [("Content-Type", file.type), ("Cache-Control", "no-cache")], body: file.bytes)
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

    var response: HTTPResponse {
        var object: [String: Any] = ["error": message]
        if let field { object["field"] = field }
        return WebApp.json(object, status: status)
    }
}
