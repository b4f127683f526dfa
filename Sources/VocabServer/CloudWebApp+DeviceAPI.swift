import FoundationEssentials
import VocabCore
import VocabCloud
import VocabCloudAPI
import VocabWeb

/// The API devices sync through (version 1; `ServerAccount` is its client): a terminal or a
/// window signs in once with the learner's password and then sends its device id and secret
/// with every request (`Authorization: Bearer ID.SECRET`); the server does the rest with the
/// cloud. What each route takes and answers is written beside `ServerAccount`.
extension CloudWebApp {
    /// The most records one pull answers.
    static let maximumPull = 5_000

    func deviceAPI(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let route = DeviceRoute(method: request.method, path: request.path) else {
            return try signedIn(request) { _ in throw WebProblem(status: 404, message: "The device API has no \(request.method) \(request.path).") }
        }
        switch route {
        case .signIn:
            return try signInDevice(request)
        case .health:
            // For a load balancer's check: this server answers (it keeps nothing another needs).
            return WebApp.json(DeviceAPI.Health(ok: true))
        case .account:
            return try signedIn(request) { caller in
                let counts = try cloud.with(for: caller.owner) { try DatabaseSyncChannel(connection: $0, device: caller.key).counts() }
                return WebApp.json(DeviceAPI.Counts(account: caller.owner, counts: counts))
            }
        case .pull:
            return try signedIn(request) { try pull(request, $0) }
        case .push:
            return try signedIn(request) { try push(request, $0) }
        case .devices:
            return try signedIn(request) { try listDevices($0) }
        case .signOutDevice(let device):
            return try signedIn(request) { try signOut($0, other: device) }
        case .signOut:
            return try signedIn(request) { WebApp.json(DeviceAPI.SignedOut(signedOut: try signOutCaller($0, request))) }
        case .followedRecords(let share):
            return try signedIn(request) { try pullShared(request, share: try Self.uuid(share), $0) }
        case .share, .shares, .unshare, .follow, .follows, .unfollow, .followChanges, .catalog:
            return try signedIn(request) { try sharing(route, request, $0) }
        }
    }

    /// `answer` for the device the request proves, within its learner's share of the server; a
    /// cloud's refusal as the device is told it. A device's requests carry its secret in a header
    /// no other site can make a browser send, and no cookie is read for them: cross-site writes
    /// are not possible here.
    private func signedIn(_ request: HTTPRequest, _ answer: (Caller) throws -> HTTPResponse) throws -> HTTPResponse {
        guard request.header("Authorization") != nil else { throw Self.signedOut("Sign this device in first.") }
        let caller = try signedInCaller(request)
        return try turns.answer(for: caller.owner) {
            do {
                return try answer(caller)
            } catch let error as CloudError {
                throw problem(error, caller)
            }
        }
    }

    /// `POST /api/v1/devices`: the learner's password, checked once, makes a device.
    private func signInDevice(_ request: HTTPRequest) throws -> HTTPResponse {
        let given = try Self.signInBody(request)
        let label = String((given.label ?? "a device").prefix(100))
        let caller = try addDevice(request, user: given.user, password: given.password, label: label)
        return WebApp.json(DeviceAPI.DeviceCreated(device: caller.key.id, secret: caller.key.secret, account: caller.owner), status: 201)
    }

    /// `GET /api/v1/sync/pull?after=N&limit=M`: a record a line.
    private func pull(_ request: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let (after, limit) = try Self.page(request)
        let rows = try cloud.with(for: caller.owner) { try DatabaseSyncChannel(connection: $0, device: caller.key).pull(after: after, limit: limit) }
        return Self.lines(rows)
    }

    /// `GET /api/v1/follows/SHARE/records?after=N&limit=M`: a followed book's records, as a pull's.
    private func pullShared(_ request: HTTPRequest, share: UUID, _ caller: Caller) throws -> HTTPResponse {
        let (after, limit) = try Self.page(request)
        let rows = try cloud.with(for: caller.owner) { try DatabaseSharing(connection: $0, device: caller.key).pullShared(share: share, after: after, limit: limit) }
        return Self.lines(rows)
    }

    /// A pull's page: the change it starts after (`after`, needed) and how many records at most
    /// (`limit`, 2,000 unless asked, within 1 and `maximumPull`).
    static func page(_ request: HTTPRequest) throws -> (after: Int64, limit: Int) {
        guard let after = request.query["after"].flatMap({ Int64($0) }), after >= 0 else {
            throw WebProblem(status: 400, message: "\"after\" must be a change number, 0 or more.")
        }
        return (after, pullLimit(request))
    }

    /// How many records a pull answers at most: `limit`, 2,000 unless asked, within 1 and `maximumPull`.
    static func pullLimit(_ request: HTTPRequest) -> Int {
        min(max(request.query["limit"].flatMap { Int($0) } ?? 2_000, 1), maximumPull)
    }

    /// Records as a pull answers them: a record a line, kind TAB id TAB seq TAB deleted TAB body.
    /// `shares`: each row's share first (a follower's changes of several books).
    static func lines(_ rows: [PulledRow], shares: [String]? = nil) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(rows.reduce(0) { $0 + $1.body.utf8.count + 64 })
        for (index, row) in rows.enumerated() {
            if let shares {
                body += shares[index].utf8
                body.append(9)
            }
            body += row.kind.utf8
            body.append(9)
            body += row.id.utf8
            body.append(9)
            body += String(row.seq).utf8
            body.append(9)
            body.append(row.deleted ? UInt8(ascii: "t") : UInt8(ascii: "f"))
            body.append(9)
            body += row.body.utf8
            body.append(10)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/tab-separated-values; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: body)
    }

    /// `POST /api/v1/sync/push?token=N&fresh=0|1&merge=0|1`: the batch goes to the cloud's push
    /// as it is (the cloud measures and checks it; the server bounds its size before reading
    /// it). `merge=1`: the device tells its own rows from others' by their seqs, so a batch
    /// touching none of the records changed since `token` is stored after them.
    private func push(_ request: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        guard let token = request.query["token"].flatMap({ Int64($0) }), token >= 0 else {
            throw WebProblem(status: 400, message: "\"token\" must be a change number, 0 or more.")
        }
        let fresh = request.query["fresh"] == "1"
        let batch = String(decoding: request.body, as: UTF8.self)
        let outcome = try cloud.with(for: caller.owner) { connection -> PushOutcome in
            let channel = DatabaseSyncChannel(connection: connection, device: caller.key, merging: request.query["merge"] == "1")
            try channel.startPush(token: token, batch: batch, intoEmptyAccount: fresh)
            return try channel.finishPush()
        }
        switch outcome {
        case .stored(let latest, let counts): return WebApp.json(DeviceAPI.PushAnswer(latest: latest, counts: counts))
        case .accountMoved: return WebApp.json(DeviceAPI.PushAnswer(outcome: "moved"), status: 409)
        case .retryAsUpsert: return WebApp.json(DeviceAPI.PushAnswer(outcome: "upsert"), status: 409)
        }
    }

    /// What a cloud error means to the device asking.
    func problem(_ error: CloudError, _ caller: Caller) -> WebProblem {
        switch error {
        case .shareRefused(let refusal):
            var problem = WebProblem(status: Self.status(of: refusal), message: refusal.message, cause: error)
            problem.refusal = refusal
            return problem
        case .accessDenied, .deviceSignedOut:
            forget(devices: [caller.key.id])
            return Self.signedOut("This device was signed out: sign in again with your cloud account.")
        case .quotaExceeded(let limit):
            return WebProblem(status: 507, message: limit.sentence.english)
        case .lockNotAvailable:
            // The account's own lock, held by another of its requests: this learner waits, no one else.
            return WebProblem(status: 429, message: "The account is busy with another request: try again in a moment.", retryAfter: 1)
        case .unreachable, .timedOut:
            return WebProblem(status: 503, message: "The cloud is busy or cannot be reached now: try again in a moment.", retryAfter: 2)
        case .serverError:
            // The cloud refused what was sent; its own words (a relation, a constraint) stay here.
            return WebProblem(status: 400, message: "The cloud refused what was sent: it is not in the form the cloud keeps.")
        default:
            return Self.cloudTrouble
        }
    }

    /// A cloud failure as a device is told it: in our words, never PostgreSQL's (which name its
    /// tables, constraints and hosts).
    static var cloudTrouble: WebProblem {
        WebProblem(status: 503, message: "The cloud cannot be reached now: try again in a moment.", retryAfter: 2)
    }
}
