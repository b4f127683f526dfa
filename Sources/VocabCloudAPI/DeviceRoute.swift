import VocabCore

/// Every call of the API devices sync through (version 1), declared once with all it carries
/// in its address: the method, the path (ids in it) and the query's values. The server *parses*
/// a request into one (`init(method:path:query:)`, which refuses a query it cannot read) and
/// switches over all of them, so a new route does not compile until the server says what it
/// does; the device *prints* one (`method`, `target`), never typing a path or a query key again.
/// The bodies each takes and answers are `DeviceAPI`'s (and a pull's lines are `PullLines`).
public enum DeviceRoute: Equatable, Sendable {
    /// `POST devices`: the learner's password, once, makes a device.
    case signIn
    /// `GET health`: the server answers (a load balancer's check).
    case health
    /// `GET account`: the account's counts and latest change.
    case account
    /// `GET sync/pull?after=N&limit=M`: records after a change, a line each.
    case pull(after: Int64, limit: Int)
    /// `POST sync/push?token=N&fresh=0|1&merge=0|1`: a batch of records.
    case push(token: Int64, intoEmptyAccount: Bool, merging: Bool)
    /// `GET devices`: the account's devices.
    case devices
    /// `DELETE devices/ID`: signs one device out.
    case signOutDevice(String)
    /// `POST signout`: this device, or every one.
    case signOut
    /// `POST shares`: shares a book.
    case share
    /// `GET shares`: the books the learner shares.
    case shares
    /// `DELETE shares/BOOK`: stops sharing a book.
    case unshare(String)
    /// `POST follows`: follows a share by its code.
    case follow
    /// `GET follows`: the books the learner follows.
    case follows
    /// `DELETE follows/SHARE`: stops following.
    case unfollow(String)
    /// `GET follows/SHARE/records?after=N&limit=M`: a followed book's records, as a pull's.
    case followedRecords(String, after: Int64, limit: Int)
    /// `POST follows/changes?limit=M`: what changed in every followed book.
    case followChanges(limit: Int)
    /// `GET catalog?q=&languages=&sort=followers|newest&limit=`: the listed books.
    case catalog(CatalogQuery)
    /// `GET backups`: the backups the cloud keeps of the account, newest first.
    case backups
    /// `POST backups/ID/restore`: brings a backup's words back into the account.
    case restoreBackup(String)

    /// Where every route of the device API starts.
    public static let prefix = "/api/v1/"

    /// A route's shape: its method and path, `*` where an id stands. The one place each is spelled.
    public enum Shape: CaseIterable, Sendable {
        case signIn, health, account, pull, push, devices, signOutDevice, signOut, share, shares, unshare, follow, follows, unfollow,
             followedRecords, followChanges, catalog, backups, restoreBackup

        public var method: String {
            switch self {
            case .signIn, .push, .signOut, .share, .follow, .followChanges, .restoreBackup: return "POST"
            case .health, .account, .pull, .devices, .shares, .follows, .followedRecords, .catalog, .backups: return "GET"
            case .signOutDevice, .unshare, .unfollow: return "DELETE"
            }
        }

        public var path: [String] {
            switch self {
            case .signIn, .devices: return ["devices"]
            case .health: return ["health"]
            case .account: return ["account"]
            case .pull: return ["sync", "pull"]
            case .push: return ["sync", "push"]
            case .signOutDevice: return ["devices", "*"]
            case .signOut: return ["signout"]
            case .share, .shares: return ["shares"]
            case .unshare: return ["shares", "*"]
            case .follow, .follows: return ["follows"]
            case .unfollow: return ["follows", "*"]
            case .followedRecords: return ["follows", "*", "records"]
            case .followChanges: return ["follows", "changes"]
            case .catalog: return ["catalog"]
            case .backups: return ["backups"]
            case .restoreBackup: return ["backups", "*", "restore"]
            }
        }

        /// The path with the prefix (`*` where an id stands).
        public var address: String { DeviceRoute.prefix + path.joined(separator: "/") }

        /// What the route takes in its body and answers, as JSON (nil: nothing, or a pull's
        /// lines, or a batch of records: `PullLines`).
        public var bodies: (request: (any Decodable.Type)?, answer: (any Codable.Type)?) {
            switch self {
            case .signIn: return (DeviceAPI.SignIn.self, DeviceAPI.DeviceCreated.self)
            case .health: return (nil, DeviceAPI.Health.self)
            case .account: return (nil, DeviceAPI.Counts.self)
            case .pull, .followedRecords, .followChanges: return (nil, nil)
            case .push: return (nil, DeviceAPI.PushAnswer.self)
            case .devices: return (nil, [DeviceAPI.Device].self)
            case .signOutDevice: return (nil, DeviceAPI.SignedOut.self)
            case .signOut: return (DeviceAPI.SignOut.self, DeviceAPI.SignedOut.self)
            case .share: return (ShareSettings.self, OwnShare.self)
            case .shares: return (nil, [OwnShare].self)
            case .unshare: return (nil, DeviceAPI.Unshared.self)
            case .follow: return (DeviceAPI.FollowRequest.self, FollowedBook.self)
            case .follows: return (nil, [FollowedBook].self)
            case .unfollow: return (nil, DeviceAPI.Unfollowed.self)
            case .catalog: return (nil, [CatalogEntry].self)
            case .backups: return (nil, [AccountBackup].self)
            case .restoreBackup: return (nil, BackupRestored.self)
            }
        }

        /// The shape a request's method and path (without its query) ask for, with its ids; nil
        /// when none. An id is never empty; an exact part (`records`, `changes`) wins over an id.
        public static func match(method: String, path: String) -> (shape: Shape, ids: [String])? {
            guard path.hasPrefix(DeviceRoute.prefix) else { return nil }
            let given = path.dropFirst(DeviceRoute.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var found: (shape: Shape, ids: [String])?
            for shape in allCases where shape.method == method && shape.path.count == given.count {
                var ids: [String] = []
                let matches = zip(shape.path, given).allSatisfy { part, text in
                    if part == "*", !text.isEmpty { ids.append(text); return true }
                    return part == text
                }
                guard matches else { continue }
                if ids.isEmpty { return (shape, ids) }
                if found == nil { found = (shape, ids) }
            }
            return found
        }
    }

    /// The route's shape.
    public var shape: Shape {
        switch self {
        case .signIn: return .signIn
        case .health: return .health
        case .account: return .account
        case .pull: return .pull
        case .push: return .push
        case .devices: return .devices
        case .signOutDevice: return .signOutDevice
        case .signOut: return .signOut
        case .share: return .share
        case .shares: return .shares
        case .unshare: return .unshare
        case .follow: return .follow
        case .follows: return .follows
        case .unfollow: return .unfollow
        case .followedRecords: return .followedRecords
        case .followChanges: return .followChanges
        case .catalog: return .catalog
        case .backups: return .backups
        case .restoreBackup: return .restoreBackup
        }
    }

    /// The HTTP method.
    public var method: String { shape.method }

    /// The ids in the path, in order.
    private var ids: [String] {
        switch self {
        case .signOutDevice(let id), .unshare(let id), .unfollow(let id), .followedRecords(let id, _, _), .restoreBackup(let id): return [id]
        default: return []
        }
    }

    /// The query's keys and values, in the order they are printed.
    private var query: [(key: String, value: String)] {
        switch self {
        case .pull(let after, let limit), .followedRecords(_, let after, let limit):
            return [("after", String(after)), ("limit", String(limit))]
        case .push(let token, let fresh, let merging):
            return [("token", String(token)), ("fresh", fresh ? "1" : "0"), ("merge", merging ? "1" : "0")]
        case .followChanges(let limit): return [("limit", String(limit))]
        case .catalog(let query):
            return [("q", query.text), ("languages", query.languages), ("sort", query.byFollowers ? "followers" : "newest"),
                    ("limit", String(query.limit))]
        default: return []
        }
    }

    /// The path with the prefix, then the query (each value percent-encoded): what a device asks.
    public var target: String {
        var ids = self.ids.makeIterator()
        let path = Self.prefix + shape.path.map { $0 == "*" ? PercentEncoding.encodeAllButUnreserved(ids.next() ?? "") : $0 }.joined(separator: "/")
        let query = self.query.map { $0.key + "=" + PercentEncoding.encodeAllButAlphanumerics($0.value) }.joined(separator: "&")
        return query.isEmpty ? path : path + "?" + query
    }

    /// The call a request is: its shape from the method and path, its values from the path's
    /// ids and the (decoded) query. Nil when no route has that method and path; a query value
    /// it cannot read is refused (`Refusal.notAChangeNumber`), and a number out of its bounds
    /// is brought within them (`PullBounds`, `CatalogQuery`).
    public init?(method: String, path: String, query: [String: String] = [:]) throws {
        guard let (shape, ids) = Shape.match(method: method, path: path) else { return nil }
        func change(_ key: String) throws -> Int64 {
            guard let value = query[key].flatMap({ Int64($0) }), value >= 0 else { throw Refusal.notAChangeNumber(key) }
            return value
        }
        let limit = PullBounds.records(query["limit"].flatMap { Int($0) })
        switch shape {
        case .signIn: self = .signIn
        case .health: self = .health
        case .account: self = .account
        case .pull: self = .pull(after: try change("after"), limit: limit)
        case .push: self = .push(token: try change("token"), intoEmptyAccount: query["fresh"] == "1", merging: query["merge"] == "1")
        case .devices: self = .devices
        case .signOutDevice: self = .signOutDevice(ids[0])
        case .signOut: self = .signOut
        case .share: self = .share
        case .shares: self = .shares
        case .unshare: self = .unshare(ids[0])
        case .follow: self = .follow
        case .follows: self = .follows
        case .unfollow: self = .unfollow(ids[0])
        case .followedRecords: self = .followedRecords(ids[0], after: try change("after"), limit: limit)
        case .followChanges: self = .followChanges(limit: limit)
        case .catalog: self = .catalog(CatalogQuery(wire: query))
        case .backups: self = .backups
        case .restoreBackup: self = .restoreBackup(ids[0])
        }
    }
}

extension CatalogQuery {
    /// A search from a request's `q`, `languages`, `sort` and `limit`, each within its bounds
    /// (the page's search and a device's are one).
    public init(wire query: [String: String]) {
        let limit = Int(query["limit"] ?? "") ?? CatalogQuery.defaultLimit
        self.init(text: String((query["q"] ?? "").prefix(200)), languages: String((query["languages"] ?? "").prefix(20)),
                  byFollowers: query["sort"] == "followers", limit: min(max(limit, 1), 100))
    }
}
