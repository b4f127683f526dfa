import Dispatch
import FoundationEssentials
import VocabCore
import VocabCloudAPI
#if canImport(Glibc)
import Glibc
#endif

/// A device's account on a Vocab server, through the server's API (version 1, over HTTPS):
/// the device's requests carry its id and secret (`Authorization: Bearer ID.SECRET`), never the
/// learner's password, which only signing in sends, once. By `DeviceRoute`:
///
///     signIn         {"user","password","label"} → 201 {"device","secret","account"}
///     account        → {"account","books","words","reviews","latest"}
///     pull           ?after=N&limit=M → one record a line: kind TAB id TAB seq TAB deleted TAB body
///     push           ?token=N&fresh=0|1&merge=1  (the batch) → {"latest"} | 409 {"outcome":"moved"|"upsert"}
///     devices        → [{"id","label","created","seen","this"}]
///     signOutDevice  → {"signedOut"}
///     signOut        {"everywhere"} → {"signedOut"}
///     backups        → [{"id","taken","reason","words","bytes"}]
///     restoreBackup  → {"words","reviews"} | 404 no such backup
///
/// The JSON bodies are `DeviceAPI`'s types, which the server encodes. Refusals are
/// `DeviceAPI.Problem` (`{"error": "…"}`): 401 signed out, 429/503 busy (Retry-After), 507 the
/// account is full, 4xx a request the server will not take.
public final class ServerAccount {
    public let login: CloudLogin
    let connection: ServerConnection
    let timeouts: CloudTimeouts
    /// Waits this many microseconds before a busy request is asked again (a test records them).
    var pause: (UInt32) -> Void = { usleep($0) }

    public init(_ login: CloudLogin, timeouts: CloudTimeouts = CloudTimeouts()) throws {
        guard let web = login.address.web else { throw CloudError.invalidServerURL(login.address.url) }
        self.login = login
        self.timeouts = timeouts
        connection = try ServerConnection(url: web, caFile: login.caFile, timeouts: timeouts)
    }

    /// Signs a new device in to `user`'s account on the server at `url` with the learner's
    /// password; returns the device's login (to be saved). The password goes in the body of one
    /// HTTPS request and is forgotten.
    public static func signIn(url: String, user: String, password: String, label: String, caFile: String? = nil,
                              timeouts: CloudTimeouts = CloudTimeouts()) throws -> CloudLogin {
        let connection = try ServerConnection(url: url, caFile: caFile, timeouts: timeouts)
        let body = DeviceAPI.encode(DeviceAPI.SignIn(user: user, password: password, label: label))
        let answer = try connection.send(DeviceRoute.signIn.method, DeviceRoute.signIn.target, headers: ["Content-Type": "application/json"], body: body)
        if answer.status == 403 || answer.status == 401 {
            throw CloudError.accessDenied(server: connection.server, detail: message(of: answer) ?? "the user name or the password is wrong")
        }
        let created = try checked(answer, DeviceAPI.DeviceCreated.self, server: connection.server)
        return CloudLogin(address: ServerAddress(web: connection.base, user: created.device), password: created.secret,
                          account: created.account, caFile: caFile)
    }

    /// The account's state, as `vocab account` shows it, and the open account when available.
    public static func status(of login: CloudLogin, timeouts: CloudTimeouts = CloudTimeouts()) -> (status: AccountStatus, account: ServerAccount?) {
        do {
            let account = try ServerAccount(login, timeouts: timeouts)
            _ = try account.counts()
            return (.available(login.accountAddress), account)
        } catch let error as CloudError {
            switch error {
            case .unreachable, .timedOut: return (.cannotReachServer(error), nil)
            default: return (.accessDenied(error), nil)
            }
        } catch {
            return (.cannotReachServer(.unreachable(server: login.address.server, detail: "\(error)")), nil)
        }
    }

    /// The account's counts and latest change.
    public func counts() throws -> CloudCounts {
        let counts = try request(.account, answer: DeviceAPI.Counts.self)
        return CloudCounts(books: counts.books, words: counts.words, reviews: counts.reviews, latest: counts.latest)
    }

    /// The account's devices signed in, oldest first.
    public func devices() throws -> [CloudDevice] {
        try request(.devices, answer: [DeviceAPI.Device].self).map(\.cloudDevice)
    }

    /// Signs out the device `id`, or every device of the account (this one too) when nil.
    @discardableResult
    public func signOut(_ id: String?) throws -> Int {
        if let id {
            guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return 0 }
            let answer = try exchange(.signOutDevice(id))
            if answer.status == 404 { return 0 }
            return try Self.checked(answer, DeviceAPI.SignedOut.self, server: connection.server).signedOut
        }
        return try request(.signOut, body: DeviceAPI.encode(DeviceAPI.SignOut(everywhere: true)),
                           answer: DeviceAPI.SignedOut.self).signedOut
    }

    /// The backups the cloud keeps of the account, newest first.
    public func backups() throws -> [AccountBackup] {
        try request(.backups, answer: [AccountBackup].self)
    }

    /// Brings the account's backup `id` back into it (on the server: a device pulls it then).
    public func restoreBackup(_ id: String) throws -> BackupRestored {
        try request(.restoreBackup(id), answer: BackupRestored.self)
    }

    // MARK: Requests

    /// Sends a request as this device; a 429 (the account busy with its other requests) is
    /// tried again 8 times at most, after a wait that starts at the Retry-After the server gives
    /// and doubles each time (8 s at most; about 45 s in all), a random part of it less, so
    /// that a learner's devices do not come back in step. A 503 with a Retry-After (the cloud
    /// busy or between database nodes: a failover takes seconds) is tried again the same way 5
    /// times at most (about half a minute).
    func exchange(_ route: DeviceRoute, headers extra: [String: String] = [:], body: [UInt8]? = nil) throws -> ServerConnection.Answer {
        let method = route.method, path = route.target
        var headers = authorization
        for (name, value) in extra { headers[name] = value }
        var answer = try connection.send(method, path, headers: headers, body: body)
        func busy(_ attempt: Int) -> Bool {
            answer.status == 429 || (answer.status == 503 && answer.headers["retry-after"] != nil && attempt < 5)
        }
        for attempt in 0..<8 where busy(attempt) {
            let given = min(max(answer.headers["retry-after"].flatMap { Int($0) } ?? 1, 1), 5)
            let longest = min(given << attempt, 8) * 1_000_000
            pause(UInt32(Int.random(in: longest / 2...longest)))
            answer = try connection.send(method, path, headers: headers, body: body)
        }
        return answer
    }

    var authorization: [String: String] {
        ["Authorization": "Bearer \(login.address.user).\(login.password ?? "")", "X-Vocab-Request": "1"]
    }

    func request<Answer: Decodable>(_ route: DeviceRoute, body: [UInt8]? = nil, answer: Answer.Type) throws -> Answer {
        try Self.checked(try exchange(route, headers: body != nil ? ["Content-Type": "application/json"] : [:], body: body),
                         answer, server: connection.server)
    }

    /// A successful answer as the API's type; the refusal otherwise.
    static func checked<Answer: Decodable>(_ answer: ServerConnection.Answer, _ type: Answer.Type, server: String) throws -> Answer {
        try refuse(answer, server: server)
        do {
            return try DeviceAPI.decode(type, from: answer.body)
        } catch {
            throw CloudError.unexpectedAnswer(server: server, detail: "status \(answer.status) without the answer the API defines (\(error))")
        }
    }

    /// Throws what a refusal means to the device; returns for any 2xx.
    static func refuse(_ answer: ServerConnection.Answer, server: String) throws {
        let text = message(of: answer)
        let problem = answer.status >= 400 ? try? DeviceAPI.decode(DeviceAPI.Problem.self, from: answer.body) : nil
        if let refusal = problem?.refusal.flatMap(ShareRefusal.init(rawValue:)) { throw CloudError.shareRefused(refusal) }
        // A limit of the account, in the values it names: worded here, in the device's words
        // (a sign-in refused for the account's devices too, not "cannot reach").
        if let limit = problem?.limit.map(CloudLimit.init(detail:)), limit != .unknown { throw CloudError.quotaExceeded(limit) }
        switch answer.status {
        case 200...299: return
        case 401: throw CloudError.deviceSignedOut(server: server)
        case 429, 503:
            let wait = answer.headers["retry-after"].map { "; try again in \($0) s" } ?? ""
            throw CloudError.unreachable(server: server, detail: (text ?? "busy") + wait)
        case 507: throw CloudError.quotaExceeded(text.map(CloudLimit.said) ?? .unknown)
        case 404 where text == nil:
            throw CloudError.unexpectedAnswer(server: server, detail: "no Vocab server API there (404)")
        default: throw CloudError.serverError(text ?? "status \(answer.status)")
        }
    }

    static func message(of answer: ServerConnection.Answer) -> String? {
        (try? DeviceAPI.decode(DeviceAPI.Problem.self, from: answer.body))?.error
    }
}

/// A sync through the Vocab server's API: what every device's sync goes through. A push is
/// sent on a thread of its own while the sync prepares the next batch; a batch of new records
/// may be sent while the one before is on its way, on a second connection (a connection is
/// used by one request at a time: the sync asks nothing else until its pushes are finished).
public final class ServerSyncChannel: SyncChannel {
    private let account: ServerAccount
    /// Where pushes go: the account's connection, and a second one made when a push is sent
    /// while another is on its way.
    private var lanes: [(sender: DispatchQueue, account: ServerAccount)]
    /// Pushes sent, oldest first: the lane each went on, and its answer once it came.
    private var pending: [(lane: Int, work: DispatchWorkItem, answer: PushAnswerSlot)] = []

    /// Where a push's thread leaves its answer (read after the push's work item is waited for).
    private final class PushAnswerSlot: @unchecked Sendable {
        var result: Result<ServerConnection.Answer, Error>?
    }

    /// `pushesAhead`: how many batches of new records may be on their way at once (1 or 2).
    public init(account: ServerAccount, pushesAhead: Int = 2) {
        self.account = account
        self.pushesAhead = min(max(pushesAhead, 1), 2)
        lanes = [(DispatchQueue(label: "vocab.server-push"), account)]
    }

    public let pushesAhead: Int

    public func counts() throws -> CloudCounts {
        try account.counts()
    }

    public func pull(after token: Int64, limit: Int) throws -> [PulledRow] {
        let answer = try account.exchange(.pull(after: token, limit: limit))
        try ServerAccount.refuse(answer, server: account.connection.server)
        return try Self.rows(answer.body, server: account.connection.server)
    }

    /// The records of a pull's answer (`PullLines`).
    static func rows(_ bytes: [UInt8], server: String) throws -> [PulledRow] {
        guard let rows = PullLines.decode(bytes) else { throw CloudError.unexpectedAnswer(server: server, detail: "a pulled line that is not a record") }
        return rows
    }

    public func startPush(token: Int64, batch: String, intoEmptyAccount: Bool) throws {
        guard pending.count < pushesAhead else { throw CloudError.serverError("too many pushes on their way") }
        let lane = pending.first.map { $0.lane == 0 ? 1 : 0 } ?? 0
        if lane == lanes.count {
            lanes.append((DispatchQueue(label: "vocab.server-push-\(lane)"), try ServerAccount(account.login, timeouts: account.timeouts)))
        }
        let account = lanes[lane].account
        let answer = PushAnswerSlot()
        let work = DispatchWorkItem {
            answer.result = Result {
                try account.exchange(.push(token: token, intoEmptyAccount: intoEmptyAccount, merging: true),
                                     headers: ["Content-Type": batch.hasPrefix("[") ? "application/json" : "application/x-ndjson"], body: Array(batch.utf8))
            }
        }
        pending.append((lane, work, answer))
        lanes[lane].sender.async(execute: work)
    }

    public func finishPush() throws -> PushOutcome {
        guard !pending.isEmpty else { throw CloudError.serverError("no push was started") }
        let push = pending.removeFirst()
        push.work.wait()
        guard let answer = try push.answer.result?.get() else { throw CloudError.serverError("the push was not sent") }
        if answer.status == 409 {
            switch (try? DeviceAPI.decode(DeviceAPI.PushAnswer.self, from: answer.body))?.outcome {
            case "moved": return .accountMoved
            case "upsert": return .retryAsUpsert
            default: break
            }
        }
        let pushed = try ServerAccount.checked(answer, DeviceAPI.PushAnswer.self, server: account.connection.server)
        guard let latest = pushed.latest else {
            throw CloudError.unexpectedAnswer(server: account.connection.server, detail: "a push's answer without the latest change")
        }
        return .stored(latest: latest, counts: pushed.counts)
    }

    public func abandonPush() {
        for push in pending { push.work.wait() }
        pending = []
    }
}
