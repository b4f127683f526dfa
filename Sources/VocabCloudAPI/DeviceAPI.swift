import FoundationEssentials
import VocabCore

/// The bodies of the Vocab server's device API (version 1), defined once: the server
/// (`CloudWebApp`) encodes what it answers with them and `ServerAccount` decodes the same
/// types, so a field renamed on one side is renamed on the other. The routes are listed on
/// `ServerAccount`. Records themselves travel as lines, not JSON (`DatabaseSyncChannel`).
public enum DeviceAPI {
    /// `POST /api/v1/devices` (and the page's `POST /api/signin`): the learner's password, once.
    public struct SignIn: Codable, Sendable {
        public var user: String
        public var password: String
        /// The device's name in the account's list (the page's is made from its User-Agent).
        public var label: String?
        public init(user: String, password: String, label: String?) {
            self.user = user
            self.password = password
            self.label = label
        }
    }

    /// A device signed in: its id and secret (the device keeps them) and its learner.
    public struct DeviceCreated: Codable, Sendable {
        public var device: String
        public var secret: String
        public var account: String
        public init(device: String, secret: String, account: String) {
            self.device = device
            self.secret = secret
            self.account = account
        }
    }

    /// `GET /api/v1/account`: how much the account holds and its latest change.
    public struct Counts: Codable, Sendable {
        public var account: String
        public var books: Int
        public var words: Int
        public var reviews: Int
        public var latest: Int64
        public init(account: String, counts: CloudCounts) {
            self.account = account
            books = counts.books
            words = counts.words
            reviews = counts.reviews
            latest = counts.latest
        }
    }

    /// One of the account's devices (`GET /api/v1/devices`, and the page's `GET /api/devices`).
    public struct Device: Codable, Sendable {
        public var id: String
        public var label: String
        /// Seconds since 1970 when it signed in, and when it was last seen (nil: not since).
        public var created: Int64
        public var seen: Int64?
        /// Whether it is the device asking.
        public var this: Bool
        public init(_ device: CloudDevice) {
            id = device.id
            label = device.label
            created = device.created
            seen = device.seen
            this = device.isThis
        }
        public var cloudDevice: CloudDevice { CloudDevice(id: id, label: label, created: created, seen: seen, isThis: this) }
    }

    /// `POST /api/v1/signout` (and the page's `POST /api/signout`): this device, or every one.
    public struct SignOut: Codable, Sendable {
        public var everywhere: Bool?
        public init(everywhere: Bool?) { self.everywhere = everywhere }
    }

    /// How many devices a sign-out signed out.
    public struct SignedOut: Codable, Sendable {
        public var signedOut: Int
        public init(signedOut: Int) { self.signedOut = signedOut }
    }

    /// `POST /api/v1/sync/push`: stored (`latest`, 200, with the account's counts right after
    /// the push when the server knows them), or 409 with `outcome` "moved" (the account is
    /// another one now) or "upsert" (send the batch again as updates).
    public struct PushAnswer: Codable, Sendable {
        public var latest: Int64?
        public var outcome: String?
        public var books: Int?, words: Int?, reviews: Int?
        public init(latest: Int64? = nil, outcome: String? = nil, counts: CloudCounts? = nil) {
            self.latest = latest
            self.outcome = outcome
            books = counts?.books
            words = counts?.words
            reviews = counts?.reviews
        }

        /// The counts the answer carries, if all of them.
        public var counts: CloudCounts? {
            guard let latest, let books, let words, let reviews else { return nil }
            return CloudCounts(books: books, words: words, reviews: reviews, latest: latest)
        }
    }

    /// `GET /api/v1/health`: the server answers (for a load balancer's check).
    public struct Health: Codable, Sendable {
        public var ok: Bool
        public init(ok: Bool) { self.ok = ok }
    }

    /// A refusal, from either API: `error` in words; the field it concerns; when to try again
    /// (429, as Retry-After); how this server signs a device in (401: "account" or "code");
    /// why the cloud refused a request about shared books (a `ShareRefusal`).
    public struct Problem: Codable, Sendable {
        public var error: String
        public var field: String?
        public var retryAfter: Int?
        public var signIn: String?
        public var refusal: String?
        /// The account's limit that refused, as the cloud's DETAIL says it (`CloudLimit.detail`).
        public var limit: String?
        public init(error: String, field: String? = nil, retryAfter: Int? = nil, signIn: String? = nil, refusal: String? = nil,
                    limit: String? = nil) {
            self.error = error
            self.field = field
            self.retryAfter = retryAfter
            self.signIn = signIn
            self.refusal = refusal
            self.limit = limit
        }
    }

    /// `POST /api/v1/follows` (and the page's `POST /api/follows`): a share's code or link.
    public struct FollowRequest: Codable, Sendable {
        public var code: String
        public init(code: String) { self.code = code }
    }

    /// `POST /api/v1/follows/changes`: the token the device has pulled each followed book to.
    public struct FollowTokens: Codable, Sendable {
        public var known: [String: Int64]
        public init(known: [String: Int64]) { self.known = known }
    }

    /// `DELETE /api/v1/shares/BOOK`: how many followed the book.
    public struct Unshared: Codable, Sendable {
        public var followers: Int
        public init(followers: Int) { self.followers = followers }
    }

    /// `DELETE /api/v1/follows/SHARE`: whether the learner followed it.
    public struct Unfollowed: Codable, Sendable {
        public var unfollowed: Bool
        public init(unfollowed: Bool) { self.unfollowed = unfollowed }
    }

    /// `value` as the API's JSON.
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // The API's types hold strings, numbers, flags and lists of them: writing cannot fail.
        (try? JSONBytes.encode(value)) ?? Array("{}".utf8)
    }

    /// A body as `T`, or what is wrong with it.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(BodyError) -> T {
        guard !bytes.isEmpty else { throw .notAnObject }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch DecodingError.keyNotFound(let key, let context) {
            throw .missing(field: (context.codingPath + [key]).map(\.stringValue).joined(separator: "."))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw .wrongType(field: context.codingPath.map(\.stringValue).joined(separator: "."))
        } catch DecodingError.valueNotFound(_, let context) where !context.codingPath.isEmpty {
            throw .wrongType(field: context.codingPath.map(\.stringValue).joined(separator: "."))
        } catch {
            throw .notAnObject
        }
    }

    /// What is wrong with a request's body.
    public enum BodyError: Error, Equatable, Sendable {
        /// Not JSON, or not the object the route takes.
        case notAnObject
        case missing(field: String)
        case wrongType(field: String)
    }
}
