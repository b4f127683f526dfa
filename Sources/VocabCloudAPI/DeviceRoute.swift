/// Every route of the API devices sync through (version 1), written once: the server matches a
/// request to one (`init(method:path:)`) and switches over all of them, so a new route does not
/// compile until the server says what it does; `ServerAccount` asks by route, never by a path
/// typed again. What each takes and answers is written beside `ServerAccount`.
public enum DeviceRoute: Equatable, Sendable {
    /// `POST devices`: the learner's password, once, makes a device.
    case signIn
    /// `GET health`: the server answers (a load balancer's check).
    case health
    /// `GET account`: the account's counts and latest change.
    case account
    /// `GET sync/pull?after=N&limit=M`: records after a change, a line each.
    case pull
    /// `POST sync/push?token=N&fresh=0|1&merge=0|1`: a batch of records.
    case push
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
    case followedRecords(String)
    /// `POST follows/changes?limit=M`: what changed in every followed book.
    case followChanges
    /// `GET catalog?q=&languages=&sort=&limit=`: the listed books.
    case catalog

    /// Where every route of the device API starts.
    public static let prefix = "/api/v1/"

    /// The method and the path's parts after the prefix: the one place each route is spelled.
    public var parts: (method: String, path: [String]) {
        switch self {
        case .signIn: return ("POST", ["devices"])
        case .health: return ("GET", ["health"])
        case .account: return ("GET", ["account"])
        case .pull: return ("GET", ["sync", "pull"])
        case .push: return ("POST", ["sync", "push"])
        case .devices: return ("GET", ["devices"])
        case .signOutDevice(let device): return ("DELETE", ["devices", device])
        case .signOut: return ("POST", ["signout"])
        case .share: return ("POST", ["shares"])
        case .shares: return ("GET", ["shares"])
        case .unshare(let book): return ("DELETE", ["shares", book])
        case .follow: return ("POST", ["follows"])
        case .follows: return ("GET", ["follows"])
        case .unfollow(let share): return ("DELETE", ["follows", share])
        case .followedRecords(let share): return ("GET", ["follows", share, "records"])
        case .followChanges: return ("POST", ["follows", "changes"])
        case .catalog: return ("GET", ["catalog"])
        }
    }

    /// Every route, those with an id holding `slot` in its place: what a request is matched
    /// against (a test checks each case is here).
    static let all: [DeviceRoute] = [.signIn, .health, .account, .pull, .push, .devices, .signOutDevice(slot), .signOut,
                                     .share, .shares, .unshare(slot), .follow, .follows, .unfollow(slot), .followedRecords(slot),
                                     .followChanges, .catalog]
    static let slot = "\u{0}"

    /// This route with `id` in its slot.
    private func with(_ id: String) -> DeviceRoute {
        switch self {
        case .signOutDevice: return .signOutDevice(id)
        case .unshare: return .unshare(id)
        case .unfollow: return .unfollow(id)
        case .followedRecords: return .followedRecords(id)
        default: return self
        }
    }

    /// The HTTP method.
    public var method: String { parts.method }

    /// The path, with the prefix; `query` (already encoded, without "?") after it when given.
    public func path(query: String? = nil) -> String {
        Self.prefix + parts.path.joined(separator: "/") + (query.map { "?" + $0 } ?? "")
    }

    /// The route a request's method and path (without its query) ask for; nil when none.
    /// A path part that holds an id is never empty; an exact part (`records`, `changes`) wins
    /// over an id.
    public init?(method: String, path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let given = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var found: DeviceRoute?
        for route in Self.all {
            let (routeMethod, parts) = route.parts
            guard routeMethod == method, parts.count == given.count else { continue }
            var id: String?
            let matches = zip(parts, given).allSatisfy { part, text in
                if part == Self.slot, !text.isEmpty { id = text; return true }
                return part == text
            }
            guard matches else { continue }
            if id == nil { self = route; return }
            if found == nil, let id { found = route.with(id) }
        }
        guard let found else { return nil }
        self = found
    }
}
