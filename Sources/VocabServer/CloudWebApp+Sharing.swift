import FoundationEssentials
import Synchronization
import VocabCore
import VocabSessions
import VocabCloudSessions
import VocabCloudAPI
import VocabWeb

/// Shared books on the Vocab server: a device's routes (`/api/v1/shares`, `/follows`,
/// `/catalog`, written out on `ServerAccount`), each one call of the cloud's functions for the
/// device the request proved. The cloud holds every rule and bound; a follower's request can
/// reach nothing of an owner's but the book he shares.
extension CloudWebApp {
    /// A sharing route of the device API (the others are not answered here: 404).
    func sharing(_ route: DeviceRoute, _ request: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        func channel<T>(_ body: (SharingChannel) throws -> T) throws -> T { try service.sharing(caller, body) }
        switch route {
        case .share:
            let settings = try WebApp.decode(ShareSettings.self, request)
            return WebApp.json(try channel { try $0.share(settings) }, status: 201)
        case .shares:
            return WebApp.json(try channel { try $0.shares() })
        case .unshare(let book):
            return WebApp.json(DeviceAPI.Unshared(followers: try channel { try $0.unshare(book: try Self.uuid(book)) }))
        case .follow:
            let code = try WebApp.decode(DeviceAPI.FollowRequest.self, request).code
            return WebApp.json(try channel { try $0.follow(code: code) }, status: 201)
        case .follows:
            return WebApp.json(try channel { try $0.follows() })
        case .followChanges(let limit):
            let known = try WebApp.decode(DeviceAPI.FollowTokens.self, request).known.prefix(SharingBounds.followsPerLearner * 2)
            let tokens = Dictionary(known.compactMap { key, value in UUID(text: key).map { ($0, max(value, 0)) } }, uniquingKeysWith: { first, _ in first })
            let changes = try channel { try $0.followChanges(known: tokens, limit: limit) }
            var rows: [PulledRow] = [], shares: [String] = []
            for change in changes {
                rows.append(PulledRow(kind: "state", id: change.book.book, seq: change.book.latest, deleted: change.book.ended,
                                      body: JSONValue.object([("title", .string(change.book.title)), ("sharer", .string(change.book.sharer)),
                                                              ("words", .int(Int64(change.book.words)))]).compact))
                rows += change.rows ?? []
                shares += Array(repeating: change.book.share, count: 1 + (change.rows?.count ?? 0))
            }
            return Self.lines(rows, shares: shares)
        case .unfollow(let share):
            let id = try Self.uuid(share)
            return WebApp.json(DeviceAPI.Unfollowed(unfollowed: try channel { try $0.unfollow(share: id) }))
        case .catalog(let query):
            return WebApp.json(try service.sharing(caller) { try $0.catalog(query) })
        default:
            throw Refusal.noSuchPath(route.method + " " + route.target)
        }
    }


    /// An id in a path, or a 404 (no path part is ever more than an id).
    static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(text: text) else { throw Refusal.notAnId(text) }
        return id
    }
}

/// Shared books on the phone where the page's differ from a device's: the page shares, follows
/// and unfollows at the learner's place on this server (his store here changes with the cloud),
/// and previews a code before following; a device does those on its own store. Unsharing and
/// the catalogue are the device API's routes, for the page too (`DeviceRoute`, with its cookie).
extension CloudWebApp {
    func pageSharing(_ route: WebRoute, _ ids: [String], _ request: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        func channel<T>(_ body: (SharingChannel) throws -> T) throws -> T { try service.sharing(caller, body) }
        switch route {
        case .shareBook:
            let book = try Self.uuid(ids[0]), given = try WebApp.decode(ShareRequest.self, request)
            let shared = try atLearnersPlace(caller) { place in
                try SharingSteps.share(book, ShareSettings(book: book, listed: given.listed, sharer: given.sharer, languages: given.languages), at: place)
            }
            return WebApp.json(ShareAnswer(link: SharingService.link(code: shared.code, server: settings.scheme + "://" + (request.header("Host") ?? "")),
                                           code: shared.code, words: shared.words, followers: shared.followers))
        case .follow:
            let code = try WebApp.decode(DeviceAPI.FollowRequest.self, request).code
            return WebApp.json(try atLearnersPlace(caller) { try SharingSteps.follow(code: code, at: $0).0 }, status: 201)
        case .sharePreview:
            return WebApp.json(try service.preview(caller, code: ids[0]))
        case .unfollow:
            let book = try Self.uuid(ids[0])
            let unfollowed = try atLearnersPlace(caller) { place in
                do {
                    return try SharingSteps.unfollow(book, at: place)
                } catch SharingInputError.notFollowed {
                    throw Refusal.notFollowedBook
                }
            }
            return WebApp.json(DeviceAPI.Unfollowed(unfollowed: unfollowed))
        default:
            throw Refusal.noSuchPath(request.path)
        }
    }
}

extension CloudWebApp {
    /// Runs `body` at the caller's place (his store held meanwhile); a rule of the store's
    /// (a followed book shared, say) is a 422 worded in the page's language.
    func atLearnersPlace<T>(_ caller: Caller, _ body: (any SharingPlace) throws -> T) throws -> T {
        do {
            return try service.atLearnersPlace(caller, body)
        } catch let error as VocabError {
            throw WebProblem(status: 422, cause: error)
        }
    }
}
