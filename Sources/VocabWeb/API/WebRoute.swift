import VocabCore
import VocabCloudAPI

/// The page's API under `/api/`, defined once: every route either server answers, by method
/// and path ("books/*/words": `*` an id). The one-learner server (`WebApp`) and the server of
/// many (`CloudWebApp`) both route through `match`, each with a `switch` over every case, so a
/// new route does not compile until each server says what it does with it; a test holds the
/// page's JavaScript calls to this table (`Tests/VocabWebTests/WebRouteTests.swift`).
package enum WebRoute: String, CaseIterable, Sendable {
    case meta = "GET meta"
    case session = "GET session"
    case changes = "GET changes"
    case pair = "POST pair"
    case signIn = "POST signin"
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
    case studyQueue = "GET study/queue"
    case addReviews = "POST reviews"
    case startGame = "POST games"
    case answerGame = "POST games/*/answer"
    case finishGame = "POST games/*/finish"
    case memorizeGame = "POST games/*/memorize"
    case startImport = "POST imports"
    case importState = "GET imports/*"
    case cancelImport = "DELETE imports/*"
    case shareBook = "POST books/*/share"
    case follow = "POST follows"
    case sharePreview = "GET shared/*"
    case unfollow = "DELETE books/*/follow"
    case progress = "GET progress"

    /// What the route takes in its body (nil: nothing, or a file) and what it answers (nil:
    /// no Codable type: a file, a picture, a sound, no body, or the progress report, whose JSON
    /// VocabCore writes as the terminal's does), as the servers decode and encode them.
    var bodies: (request: (any Decodable.Type)?, answer: (any Codable.Type)?) {
        switch self {
        case .meta: return (nil, WebMeta.self)
        case .session: return (nil, SessionAnswer.self)
        case .changes: return (nil, ChangesAnswer.self)
        case .pair: return (PairRequest.self, nil)
        case .signIn: return (DeviceAPI.SignIn.self, SignInAnswer.self)
        case .books: return (nil, [BookRow].self)
        case .addBook, .editBook: return (BookInput.self, SavedBook.self)
        case .deleteBook: return (nil, BookDeletedAnswer.self)
        case .deleteWord: return (nil, DeletedAnswer.self)
        case .cover, .export, .sound, .progress: return (nil, nil)
        case .words: return (nil, WordPage.self)
        case .addWord: return (NewWord.self, WordRow.self)
        case .editWord: return (WordChanges.self, WordRow.self)
        case .dictionary: return (DictionaryRequest.self, DictionaryAnswer.self)
        case .nextCard: return (nil, NextCardAnswer.self)
        case .studyQueue: return (nil, StudyQueueAnswer.self)
        case .addReviews: return (ReviewsRequest.self, AddedAnswer.self)
        case .startGame: return (GameRequest.self, GameStarted.self)
        case .answerGame: return (GameAnswerRequest.self, GameVerdictAnswer.self)
        case .finishGame: return (nil, GameScoreAnswer.self)
        case .memorizeGame: return (nil, MemorizedAnswer.self)
        case .startImport: return (nil, ImportStarted.self)
        case .importState, .cancelImport: return (nil, ImportStateAnswer.self)
        case .shareBook: return (ShareRequest.self, ShareAnswer.self)
        case .follow: return (DeviceAPI.FollowRequest.self, FollowedBook.self)
        case .sharePreview: return (nil, SharePreview.self)
        case .unfollow: return (nil, DeviceAPI.Unfollowed.self)
        }
    }

    var method: String { String(rawValue.prefix { $0 != " " }) }
    var pattern: [String] { rawValue.split(separator: " ")[1].split(separator: "/").map(String.init) }

    /// Every route with its method and path parts, split once (every request is matched).
    private static let table = allCases.map { (route: $0, method: $0.method, pattern: $0.pattern) }

    /// The route a request is, with its `*` parts in order; nil when no route has that method
    /// and path.
    /// The page's route `request` asks for (nil: none, or not under `/api/`).
    package static func match(_ request: HTTPRequest) -> (route: WebRoute, ids: [String])? {
        guard request.path.hasPrefix("/api/") else { return nil }
        return match(method: request.method, path: request.path.split(separator: "/").dropFirst().map(String.init))  // after "api"
    }

    package static func match(method: String, path parts: [String]) -> (route: WebRoute, ids: [String])? {
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
