import FoundationEssentials
import VocabCore
import VocabCloudSessions
import VocabCloudAPI
import VocabWeb

/// The API devices sync through (version 1; `ServerAccount` is its client): a terminal or a
/// window signs in once with the learner's password and then sends its device id and secret
/// with every request (`Authorization: Bearer ID.SECRET`); the server does the rest with the
/// cloud. What each route takes and answers is written beside `ServerAccount`.
extension CloudWebApp {
    func deviceAPI(_ request: HTTPRequest) throws -> HTTPResponse {
        // A device proves itself before it is told anything of its request's form.
        let parsed = Result { try DeviceRoute(method: request.method, path: request.path, query: request.query) }
        guard case .success(let found) = parsed, let route = found else {
            return try signedIn(request) { _ in
                _ = try parsed.get()
                throw Refusal.noSuchPath(request.method + " " + request.path)
            }
        }
        switch route {
        case .signIn:
            return try signInDevice(request)
        case .health:
            // For a load balancer's check: this server answers (it keeps nothing another needs).
            return WebApp.json(DeviceAPI.Health(ok: true))
        case .account:
            return try signedIn(request) { caller in WebApp.json(DeviceAPI.Counts(account: caller.owner, counts: try service.counts(caller))) }
        case .pull(let after, let limit):
            return try signedIn(request) { Self.lines(try service.pull($0, after: after, limit: limit)) }
        case .push(let token, let intoEmptyAccount, let merging):
            return try signedIn(request) { caller in
                Self.pushAnswer(try service.push(caller, token: token, batch: String(decoding: request.body, as: UTF8.self),
                                                 intoEmptyAccount: intoEmptyAccount, merging: merging))
            }
        case .devices:
            return try signedIn(request) { try listDevices($0) }
        case .signOutDevice(let device):
            return try signedIn(request) { try signOut($0, other: device) }
        case .signOut:
            return try signedIn(request) { caller in
                var answer = WebApp.json(DeviceAPI.SignedOut(signedOut: try signOutCaller(caller, request)))
                // The page's sign-out: its browser forgets the key.
                if request.header("Authorization") == nil { answer.headers.append(("Set-Cookie", cookie(value: "", maxAge: 0))) }
                return answer
            }
        case .followedRecords(let share, let after, let limit):
            return try signedIn(request) { caller in
                Self.lines(try service.pullShared(caller, share: try Self.uuid(share), after: after, limit: limit))
            }
        case .share, .shares, .unshare, .follow, .follows, .unfollow, .followChanges, .catalog:
            return try signedIn(request) { try sharing(route, request, $0) }
        case .backups:
            return try signedIn(request) { WebApp.json(try service.backups($0)) }
        case .restoreBackup(let id):
            return try signedIn(request) { caller in
                WebApp.json(try service.restoreBackup(caller, id: try Self.uuid(id), now: .now(), pool: \.pool))
            }
        }
    }

    /// `answer` for the device the request proves, within its learner's share of the server. A
    /// device sends its secret in a header no other site can make a browser send; the page (the
    /// same routes, where only the credential differs) sends its cookie, and then a write must
    /// prove it is the page's as every page write does (`WebApp.checkWrite`): cross-site writes
    /// are not possible either way.
    private func signedIn(_ request: HTTPRequest, _ answer: (Caller) throws -> HTTPResponse) throws -> HTTPResponse {
        if request.header("Authorization") == nil {
            guard WebApp.cookie(Self.cookieName, in: request.header("Cookie") ?? "") != nil else { throw Refusal.signDeviceInFirst }
            if !request.isRead { try WebApp.checkWrite(request, scheme: settings.scheme) }
        }
        let caller = try signedInCaller(request)
        return try turns.answer(for: caller.owner) { try answer(caller) }
    }

    /// `POST /api/v1/devices`: the learner's password, checked once, makes a device.
    private func signInDevice(_ request: HTTPRequest) throws -> HTTPResponse {
        let given = try Self.signInBody(request)
        let label = String((given.label ?? "a device").prefix(100))
        let caller = try service.signIn(user: given.user, password: given.password, label: label, from: source(of: request))
        return WebApp.json(DeviceAPI.DeviceCreated(device: caller.key.id, secret: caller.key.secret, account: caller.owner), status: 201)
    }

    /// Records as a pull answers them (`PullLines`); `shares`: each row's share first.
    static func lines(_ rows: [PulledRow], shares: [String]? = nil) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", PullLines.contentType), ("Cache-Control", "no-store")],
                     body: PullLines.encode(rows, shares: shares))
    }

    /// A push's outcome: stored (the latest change), or 409 with what the device does next.
    static func pushAnswer(_ outcome: PushOutcome) -> HTTPResponse {
        switch outcome {
        case .stored(let latest, let counts): return WebApp.json(DeviceAPI.PushAnswer(latest: latest, counts: counts))
        case .accountMoved: return WebApp.json(DeviceAPI.PushAnswer(outcome: "moved"), status: 409)
        case .retryAsUpsert: return WebApp.json(DeviceAPI.PushAnswer(outcome: "upsert"), status: 409)
        }
    }
}
