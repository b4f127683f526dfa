import VocabCore
import VocabCloudAPI

// The bodies of the page's API (`WebRoute`), defined once: both servers decode what the page
// sends and encode what they answer with these types (`WebApp.json`, `WebApp.decode`), and a
// test holds the page's JavaScript to their field names (`WebRouteTests`). A nil optional is
// sent as null.

/// `GET /api/session`: whether this device is in, and if not, how it gets in ("code": a pairing
/// code, one learner's server; "account": a cloud account's password).
package struct SessionAnswer: Codable {
    package var mode: String
    package var signedIn: Bool
    package var signIn: String?
    package var account: String?

    package init(mode: String, signedIn: Bool, signIn: String? = nil, account: String? = nil) {
        self.mode = mode
        self.signedIn = signedIn
        self.signIn = signIn
        self.account = account
    }
}

/// `GET /api/changes`: a number that moves with every change, polled by an open page.
struct ChangesAnswer: Codable {
    var version: Int
}

/// `POST /api/pair`: the code the server shows.
struct PairRequest: Codable {
    var code: String
}

/// `POST /api/signin` answers the account signed in.
package struct SignInAnswer: Codable {
    package var account: String

    package init(account: String) {
        self.account = account
    }
}

// MARK: Books

/// A book on the shelf, with its counts.
struct BookRow: Codable {
    var id: String
    var name: String
    var explain: String
    var coverWord: String
    /// The cover's address (it changes with the book, so a browser may keep it); nil: none.
    var cover: String?
    var wordCount: Int
    var memorizedCount: Int
    var dueCount: Int
    /// A book followed from another learner (read-only here): the name its owner shows ("" for
    /// none); nil: the learner's own.
    var sharedBy: String?
}

/// `POST /api/books/ID/share`: list it in the catalogue (as shared by `sharer`) or not.
package struct ShareRequest: Codable {
    package var listed: Bool?
    package var sharer: String?
    package var languages: String?

    package init(listed: Bool? = nil, sharer: String? = nil, languages: String? = nil) {
        self.listed = listed
        self.sharer = sharer
        self.languages = languages
    }
}

/// A book shared: its link and code, how many words and followers it has.
package struct ShareAnswer: Codable {
    package var link: String
    package var code: String
    package var words: Int
    package var followers: Int

    package init(link: String, code: String, words: Int, followers: Int) {
        self.link = link
        self.code = code
        self.words = words
        self.followers = followers
    }
}

/// `POST /api/books` (name needed) and `PUT /api/books/ID` (what is given changes).
struct BookInput: Codable {
    var name: String?
    var explain: String?
    var meaning: String?
}

struct SavedBook: Codable {
    var id: String
    var name: String
    var explain: String
}

/// `DELETE /api/books/ID`: how many words went with the book, and whether the store was backed
/// up first (it is when the book held words).
struct BookDeletedAnswer: Codable {
    var deleted: Int
    var backup: Bool
}

/// A word deleted (false: it was gone already), or a word sent again after it was deleted.
struct DeletedAnswer: Codable {
    var deleted: Bool
}

// MARK: Words

/// A word as every answer that holds words gives it.
struct WordRow: Codable {
    var id: String
    var bookId: String
    var word: String
    var definition: String
    var detail: String
    var pronunciation: String
    var synonym: String
    var antonym: String
    var memorized: Bool
    /// When it is next due (study answers); nil: new, or not said.
    var due: String?

    init(_ word: Word, due: Timestamp?) {
        id = word.id.lowercaseText
        bookId = word.bookId.lowercaseText
        self.word = word.word
        definition = word.definition
        detail = word.detail
        pronunciation = word.pronunciation
        synonym = word.synonym
        antonym = word.antonym
        memorized = word.memorized
        self.due = due?.iso8601
    }
}

/// `GET /api/books/ID/words?offset=&limit=&q=`: a page of the list (or of a search, best first).
struct WordPage: Codable {
    var total: Int
    var offset: Int
    var words: [WordRow]
}

/// The word form's six fields, as the page sends them (any may be left out; a new word's
/// `word` is checked by the word form).
struct WordFields: Codable {
    var word: String?
    var definition: String?
    var detail: String?
    var pronunciation: String?
    var synonym: String?
    var antonym: String?

    subscript(field: WordField) -> String? {
        switch field {
        case .word: return word
        case .definition: return definition
        case .detail: return detail
        case .pronunciation: return pronunciation
        case .synonym: return synonym
        case .antonym: return antonym
        }
    }
}

/// `POST /api/words`: a new word; `id` made on the phone (maybe offline) adds it once however
/// often it is sent. The word's fields sit beside `id` and `bookId` in the same object.
struct NewWord: Decodable {
    var id: String?
    var bookId: String
    var fields: WordFields

    private enum Keys: String, CodingKey { case id, bookId }

    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: Keys.self)
        id = try keyed.decodeIfPresent(String.self, forKey: .id)
        bookId = try keyed.decode(String.self, forKey: .bookId)
        fields = try WordFields(from: decoder)
    }
}

/// `PUT /api/words/ID`: the fields given (and `memorized`) change, the rest stay.
struct WordChanges: Decodable {
    var fields: WordFields
    var memorized: Bool?

    private enum Keys: String, CodingKey { case memorized }

    init(from decoder: any Decoder) throws {
        memorized = try decoder.container(keyedBy: Keys.self).decodeIfPresent(Bool.self, forKey: .memorized)
        fields = try WordFields(from: decoder)
    }
}

/// `POST /api/dictionary`: the form the page keeps, what the dictionary filled before, and the
/// meaning chosen (`sense`, from 0) when the learner picked another.
struct DictionaryRequest: Decodable {
    var fields: WordFields
    var filled: [String: String]?
    var sense: Int?

    private enum Keys: String, CodingKey { case filled, sense }

    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: Keys.self)
        filled = try keyed.decodeIfPresent([String: String].self, forKey: .filled)
        sense = try keyed.decodeIfPresent(Int.self, forKey: .sense)
        fields = try WordFields(from: decoder)
    }
}

/// The form filled (only empty fields), what the dictionary filled, the meanings to pick
/// from, and the web dictionary's address (nil: none set).
struct DictionaryAnswer: Codable {
    var form: [String: String]
    var filled: [String: String]
    var senses: [String]
    var webURL: String?
}

// MARK: Study

/// `GET /api/study`: the next card with each button's interval, or why there is none
/// (`reason` "noWords" or "nothingDue", with when the next review is, in the page's words).
struct NextCardAnswer: Codable {
    var card: WordRow?
    var dueCount: Int?
    var newCount: Int?
    var intervals: [IntervalRow]?
    var reason: String?
    var nextReview: String?
}

/// A rating's button: its name, when the card would be due, and that interval in words.
struct IntervalRow: Codable {
    var rating: String
    var due: String
    var interval: String
}

/// `GET /api/study/queue`: the day's cards for the phone to keep (studying goes on offline).
struct StudyQueueAnswer: Codable {
    var cards: [WordRow]
    var madeAt: String
}

/// `POST /api/reviews`: reviews made on the phone, sent when it is back online.
struct ReviewsRequest: Codable {
    var reviews: [ReviewSent]
}

/// A review as the phone made it: its own id (sent twice, added once), the word, the rating,
/// and when.
struct ReviewSent: Codable {
    var id: String
    var wordId: String
    var rating: String
    var at: String
}

struct AddedAnswer: Codable {
    var added: Int
}

// MARK: Games

/// `POST /api/games`: the books (none: every book), the mode, how many questions.
struct GameRequest: Codable {
    var books: [String]?
    var mode: String?
    var count: Int?
}

/// A game set up: its questions, never their answers.
struct GameStarted: Codable {
    var id: String
    var mode: String
    var planned: Int
    /// Fewer questions than asked for (the books hold fewer words).
    var shorter: Bool
    var questions: [QuestionRow]
}

struct QuestionRow: Codable {
    var prompt: String
    var hint: String?
    var options: [String]
}

/// `POST /api/games/ID/answer`: one of a tap (the option's place), typed text, a rating.
struct GameAnswerRequest: Codable {
    var choice: Int?
    var typed: String?
    var rating: String?
}

struct GameVerdictAnswer: Codable {
    var correct: Bool
    var answer: String
    var rating: String
    var question: Int
    var correctOption: Int?
    var done: Bool
}

/// `POST /api/games/ID/finish`: the score, the words to review, the words to offer to mark
/// memorised.
struct GameScoreAnswer: Codable {
    var answered: Int
    var right: Int
    var planned: Int
    var percent: Int
    var review: [WordRow]
    var memorize: [WordRow]
}

/// `POST /api/games/ID/memorize`.
struct MemorizedAnswer: Codable {
    var memorized: Int
}

// MARK: Imports

struct ImportStarted: Codable {
    var id: String
}

/// `GET /api/imports/ID` (and its cancel): "running" (rows read, the share done when known),
/// "done" (the outcome), "failed" (status and error), "cancelled", "cancelling", "finished".
struct ImportStateAnswer: Codable {
    var state: String
    var rows: Int?
    var share: Double?
    var outcome: ImportOutcomeRow?
    var status: Int?
    var error: String?

    init(state: String, rows: Int? = nil, share: Double? = nil, outcome: ImportOutcomeRow? = nil, status: Int? = nil, error: String? = nil) {
        self.state = state
        self.rows = rows
        self.share = share
        self.outcome = outcome
        self.status = status
        self.error = error
    }
}

struct ImportOutcomeRow: Codable, Sendable {
    var added: Int
    var updated: Int
    var unchanged: Int
    /// The names of the books the import made.
    var createdBooks: [String]
    var reviewsAdded: Int
    /// The first 20 lines refused, and how many were in all.
    var rejected: [RejectedLine]
    var rejectedCount: Int
    var notes: [String]
}

/// `GET /catalog.json?lang=`: the page's words in a language the server has.
struct CatalogAnswer: Codable {
    var language: String
    var entries: [String: String]
}

/// `GET /api/meta`: what the page needs of the server's rules and bounds, instead of copies
/// in its JavaScript.
package struct WebMeta: Codable {
    var api = 1
    /// The most reviews one `POST /api/reviews` takes (the page's outbox sends no more at once).
    var reviewsPerRequest = WebMeta.reviewsPerRequest
    /// The most words one page of `GET /api/books/*/words` holds.
    var wordsPerPage = WebMeta.wordsPerPage
    /// The study buttons' ratings, in order.
    var ratings = Rating.allCases.map(\.name)
    /// The game's numbers of questions to choose from, and the one chosen first.
    var gameCounts = GamePlanner.questionCounts
    var gameCount = GamePlanner.defaultCount
    /// The progress report's spans to choose from (study days), and the one shown first.
    var progressSpans = ProgressCharts.spans
    var progressDays = ProgressReport.defaultDays

    static let reviewsPerRequest = 1_000
    static let wordsPerPage = 200

    /// The server's names and bounds as they are.
    package init() {}
}
