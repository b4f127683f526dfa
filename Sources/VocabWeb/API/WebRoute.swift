import VocabCore

/// The page's API under `/api/`, defined once: every route either server answers, by method
/// and path ("books/*/words": `*` an id). The one-learner server (`WebApp`) and the server of
/// many (`CloudWebApp`) both route through `match`, each with a `switch` over every case, so a
/// new route does not compile until each server says what it does with it; a test holds the
/// page's JavaScript calls to this table (`Tests/VocabWebTests/WebRouteTests.swift`).
enum WebRoute: String, CaseIterable, Sendable {
    case meta = "GET meta"
    case session = "GET session"
    case changes = "GET changes"
    case pair = "POST pair"
    case signIn = "POST signin"
    case signOut = "POST signout"
    case devices = "GET devices"
    case signOutDevice = "DELETE devices/*"
    case books = "GET books"
    case addBook = "POST books"
    case editBook = "PUT books/*"
    case deleteBook = "DELETE books/*"
    case cover = "GET books/*/cover"
    case words = "GET books/*/words"
    case export = "GET books/*/export"
    case addWord = "POST words"
    case editWord = "PUT words/*"
    case deleteWord = "DELETE words/*"
    case sound = "GET words/*/sound"
    case dictionary = "POST dictionary"
    case nextCard = "GET study"
    case grade = "POST study/grade"
    case studyQueue = "GET study/queue"
    case addReviews = "POST reviews"
    case startGame = "POST games"
    case playGame = "POST games/*/*"
    case startImport = "POST imports"
    case importState = "GET imports/*"
    case cancelImport = "DELETE imports/*"

    var method: String { String(rawValue.prefix { $0 != " " }) }
    var pattern: [String] { rawValue.split(separator: " ")[1].split(separator: "/").map(String.init) }

    /// Every route with its method and path parts, split once (every request is matched).
    private static let table = allCases.map { (route: $0, method: $0.method, pattern: $0.pattern) }

    /// The route a request is, with its `*` parts in order; nil when no route has that method
    /// and path.
    static func match(method: String, path parts: [String]) -> (route: WebRoute, ids: [String])? {
        for entry in table where entry.method == method {
            if let ids = captures(entry.pattern, parts) { return (entry.route, ids) }
        }
        return nil
    }

    /// Whether some route has this path (with another method: 405, not 404).
    static func knows(path parts: [String]) -> Bool {
        table.contains { captures($0.pattern, parts) != nil }
    }

    private static func captures(_ wanted: [String], _ parts: [String]) -> [String]? {
        guard wanted.count == parts.count else { return nil }
        var ids: [String] = []
        for (want, part) in zip(wanted, parts) {
            if want == "*" { ids.append(part) } else if want != part { return nil }
        }
        return ids
    }
}

/// What the page needs to know of the server's rules and bounds, answered at `GET /api/meta`
/// (and read by the page once it starts) instead of copied into its JavaScript.
enum WebMeta {
    /// The most reviews one `POST /api/reviews` takes (the page's outbox sends no more at once).
    static let reviewsPerRequest = 1_000
    /// The most words one page of `GET /api/books/*/words` holds.
    static let wordsPerPage = 200

    static var json: [String: Any] {
        ["api": 1, "reviewsPerRequest": reviewsPerRequest, "wordsPerPage": wordsPerPage, "ratings": Rating.allCases.map(\.name)]
    }
}
