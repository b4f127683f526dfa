import FoundationEssentials
import VocabCore

/// Why the cloud refused a request about shared books (each a SQLSTATE of the cloud's own,
/// `VS001`…, and the `refusal` of the API's JSON).
public enum ShareRefusal: String, Sendable, Equatable, CaseIterable {
    /// No book is shared under that code (never, or no longer): also a book not shared.
    case noSuchShare
    /// The learner does not follow that book.
    case notFollowing
    /// The book is the learner's own.
    case ownBook
    /// The book is not in the account yet (it was never synced).
    case bookNotSynced
    /// A shared book holds at most `SharingBounds.wordsPerBook` words.
    case bookTooLarge
    case tooManyShares
    case tooManyFollows
    /// A listing in the catalogue changes at most once a minute.
    case listingTooSoon
    /// Its owner stopped sharing it.
    case shareEnded
    /// A push would make a book its learner shares hold more than `SharingBounds.wordsPerBook`
    /// words (none of that push is stored; batches before it that fit were).
    case sharedBookFull

    public init?(sqlState: String) {
        guard sqlState.hasPrefix("VS"), let number = Int(sqlState.dropFirst(2)), (1...Self.allCases.count).contains(number) else { return nil }
        self = Self.allCases[number - 1]
    }

    public var message: String { sentence.english }

    public var sentence: Sentence {
        switch self {
        case .noSuchShare: return Sentence("No book is shared under that code (it may have stopped being shared). Nothing was changed.")
        case .notFollowing: return Sentence("You do not follow that book. Nothing was changed.")
        case .ownBook: return Sentence("That book is your own: it is already here. Nothing was changed.")
        case .bookNotSynced: return Sentence("The book is not in the cloud yet: sync first, then share it. Nothing was changed.")
        case .bookTooLarge: return Sentence("A shared book may hold %@ words at most. Nothing was changed.", .number(SharingBounds.wordsPerBook))
        case .tooManyShares:
            return Sentence("You may share %@ books at once: stop sharing one first. Nothing was changed.", .number(SharingBounds.sharesPerLearner))
        case .tooManyFollows:
            return Sentence("You may follow %@ books at once: stop following one first. Nothing was changed.", .number(SharingBounds.followsPerLearner))
        case .listingTooSoon: return Sentence("A book's listing in the catalogue may change once a minute: try again in a minute. Nothing was changed.")
        case .shareEnded: return Sentence("Its owner stopped sharing that book. Nothing was changed.")
        case .sharedBookFull:
            return Sentence("A book you share may hold %@ words: the changes not yet synced would make one larger. Stop sharing it, or keep it within that, to sync them.",
                            .number(SharingBounds.wordsPerBook))
        }
    }
}

/// The cloud's bounds on sharing, written once: the cloud's functions are made with them (its
/// SQL interpolates these) and the refusals say them.
public enum SharingBounds {
    public static let wordsPerBook = 10_000
    public static let sharesPerLearner = 20
    public static let followsPerLearner = 100
}

/// A book the learner shares: its code (128 random bits, in 26 letters and digits) and how
/// it is shown; how many follow it (never who).
public struct OwnShare: Codable, Sendable, Equatable {
    public var share: String
    public var book: String
    public var code: String
    public var listed: Bool
    /// The name followers and the catalogue see (never the account's); empty: none.
    public var sharer: String
    /// The languages of the book ("en-ko"); empty: not said.
    public var languages: String
    public var title: String
    public var words: Int
    public var followers: Int

    public init(share: String, book: String, code: String, listed: Bool, sharer: String, languages: String, title: String, words: Int, followers: Int) {
        self.share = share
        self.book = book
        self.code = code
        self.listed = listed
        self.sharer = sharer
        self.languages = languages
        self.title = title
        self.words = words
        self.followers = followers
    }
}

/// How a share is shown: listed in the server's catalogue or not, under which name (nil: as
/// it is; a new share is not listed).
public struct ShareSettings: Codable, Sendable, Equatable {
    public var book: String
    public var listed: Bool?
    public var sharer: String?
    public var languages: String?

    public init(book: UUID, listed: Bool?, sharer: String?, languages: String?) {
        self.book = book.lowercaseText
        self.listed = listed
        self.sharer = sharer
        self.languages = languages
    }
}

/// A book the learner follows: whose (the name its owner shows), how many words it holds
/// and its latest change on the cloud (what a sync compares), and whether it still updates.
/// A shared book as a learner sees it before following it: its title, the name its owner is
/// shown by, its size, and whether it is his own or followed already.
public struct SharePreview: Codable, Sendable, Equatable {
    public var title: String
    public var sharer: String
    public var words: Int
    public var followers: Int
    public var own: Bool
    public var following: Bool

    public init(title: String, sharer: String, words: Int, followers: Int, own: Bool, following: Bool) {
        self.title = title
        self.sharer = sharer
        self.words = words
        self.followers = followers
        self.own = own
        self.following = following
    }
}

public struct FollowedBook: Codable, Sendable, Equatable {
    public var share: String
    public var book: String
    public var title: String
    public var sharer: String
    public var ended: Bool
    public var words: Int
    public var latest: Int64

    public init(share: String, book: String, title: String, sharer: String, ended: Bool, words: Int, latest: Int64) {
        self.share = share
        self.book = book
        self.title = title
        self.sharer = sharer
        self.ended = ended
        self.words = words
        self.latest = latest
    }
}

/// A followed book as a follower's sync finds it, with its records after the device's token
/// (nil when the device named no token for it, or it did not change).
public struct FollowChange: Sendable, Equatable {
    public var book: FollowedBook
    public var rows: [PulledRow]?

    /// The rows of `follow_changes` (a 'state' row, then that book's records), by book.
    public static func group(_ rows: [(share: String, row: PulledRow)]) -> [FollowChange] {
        var changes: [FollowChange] = []
        for (share, row) in rows {
            if row.kind == "state" {
                let state = (try? JSONParser.parse(Array(row.body.utf8))) ?? .null
                changes.append(FollowChange(book: FollowedBook(share: share, book: row.id, title: state["title"]?.stringValue ?? "",
                                                               sharer: state["sharer"]?.stringValue ?? "", ended: row.deleted,
                                                               words: Int(state["words"]?.int64Value ?? 0), latest: row.seq), rows: nil))
            } else if let last = changes.indices.last, changes[last].book.share == share {
                changes[last].rows = (changes[last].rows ?? []) + [row]
            }
        }
        return changes
    }
}

/// A book of the server's catalogue.
public struct CatalogEntry: Codable, Sendable, Equatable {
    public var share: String
    public var code: String
    public var title: String
    public var sharer: String
    public var languages: String
    public var words: Int
    public var followers: Int
    /// When it was shared (seconds since 1970).
    public var created: Int64

    public init(share: String, code: String, title: String, sharer: String, languages: String, words: Int, followers: Int, created: Int64) {
        self.share = share
        self.code = code
        self.title = title
        self.sharer = sharer
        self.languages = languages
        self.words = words
        self.followers = followers
        self.created = created
    }
}

/// A search of the catalogue: words of the name (each a prefix), the languages, the order.
public struct CatalogQuery: Codable, Sendable, Equatable {
    public var text: String
    public var languages: String
    /// Most followed first; else newest first.
    public var byFollowers: Bool
    public var limit: Int
    /// Books a search gives unless it asks for another number (the page, a device, the terminal).
    public static let defaultLimit = 20

    public init(text: String = "", languages: String = "", byFollowers: Bool = false, limit: Int = CatalogQuery.defaultLimit) {
        self.text = text
        self.languages = languages
        self.byFollowers = byFollowers
        self.limit = limit
    }
}

/// A share's code: 26 characters of Crockford's base 32 (128 random bits, made by the Vocab
/// server); read back from what a learner types or pastes (a link, dashes, spaces, lower case,
/// O for 0, I and L for 1).
public enum ShareCode {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new code from 16 random bytes (the system's source: getrandom).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var bits = 0, value = 0
        var out = ""
        for byte in bytes {
            value = (value << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(value >> (bits - 5)) & 31])
                bits -= 5
            }
            value &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(value << (5 - bits)) & 31]) }
        return out
    }

    /// The code in `text` (a code as shown, or a link holding `follow=CODE`); nil when it is
    /// not one.
    public static func read(_ text: String) -> String? {
        var given = text.trimmingSpaces()
        if let match = given.firstMatch(of: #/follow=([^&#]*)/#) {
            given = String(match.1)
        }
        var code = ""
        for character in given.uppercased() where character != "-" && character != " " {
            switch character {
            case "O": code.append("0")
            case "I", "L": code.append("1")
            default:
                guard alphabet.contains(character) else { return nil }
                code.append(character)
            }
        }
        return code.count == 26 ? code : nil
    }

    /// The code in groups of four, easier to read out and type.
    public static func grouped(_ code: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(code)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: "-")
    }
}

/// What a device asks of the cloud about shared books: through a Vocab server
/// (`ServerAccount`) or, inside the server, through the cloud's functions (`DatabaseSharing`).
public protocol SharingChannel {
    func share(_ settings: ShareSettings) throws -> OwnShare
    /// Stops sharing the book; returns how many followed it.
    func unshare(book: UUID) throws -> Int
    func shares() throws -> [OwnShare]
    func follow(code: String) throws -> FollowedBook
    /// False when the learner did not follow it.
    func unfollow(share: UUID) throws -> Bool
    func follows() throws -> [FollowedBook]
    /// The followed book's records after `token`, oldest first.
    func pullShared(share: UUID, after token: Int64, limit: Int) throws -> [PulledRow]
    /// Every followed book, each with its records after the token `known` gives for it when it
    /// changed since (nil: not asked; at most `limit`): a follower's sync in one request.
    func followChanges(known: [UUID: Int64], limit: Int) throws -> [FollowChange]
    func catalog(_ query: CatalogQuery) throws -> [CatalogEntry]
}
