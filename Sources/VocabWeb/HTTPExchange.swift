import VocabCloudAPI
import VocabSystem
import CMHD
import Synchronization
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

/// A request between libmicrohttpd's calls: whose it is, its body as it comes (spooled, see
/// `BodySpool`), a refusal decided on the way, and the answer a worker hands back. What it
/// holds (its address's place for a body, the body's bytes, a learner's turn in the answer) is
/// given back when libmicrohttpd is done with the request, answered or cut off.
final class Exchange: @unchecked Sendable {
    let server: HTTPServer
    let watched: ConnectionGuard.Watched?
    /// The client's address, read once from the request's head, and its network.
    let client: String
    let network: String
    /// Whose turn the request waits for: a learner's, or its address network's.
    let key: String
    let limit: Int
    let isUpload: Bool
    // On libmicrohttpd's thread only, until the request is handed to a worker:
    var spool: BodySpool?
    var refusal: HTTPResponse?
    /// A refusal's body is read and dropped until then, and this many bytes more at most.
    var drainUntil: ContinuousClock.Instant?
    var drainLeft: Int
    var holdsBodyPlace = false
    var bodyBytesHeld = 0
    /// The worker's answer, handed over under a lock: a resumed request finds it there.
    private let handoff = Mutex(Handoff())

    private struct Handoff {
        var answer: HTTPResponse?
        var suspended: Suspended?
    }

    /// A suspended connection, to resume once its answer is there.
    struct Suspended: @unchecked Sendable {
        let connection: OpaquePointer
    }

    init(server: HTTPServer, watched: ConnectionGuard.Watched?, client: String, key: String, limit: Int, isUpload: Bool) {
        self.server = server
        self.watched = watched
        self.client = client
        network = AddressNetwork.of(client)
        self.key = key
        self.limit = limit
        self.isUpload = isUpload
        drainLeft = server.limits.refusalDrainBytes
    }

    deinit {
        if holdsBodyPlace { server.connections.giveBackBody(from: network) }
        server.connections.giveBackBodyBytes(bodyBytesHeld, from: network)
        handoff.withLock { $0.answer?.whenDone }?()
    }

    /// From now on the body is read and dropped (within the drain's bounds), and `answer` given.
    func refuse(_ answer: HTTPResponse) {
        refusal = answer
        drainUntil = .now + .seconds(server.limits.refusalDrainSeconds)
        spool = nil
        server.connections.giveBackBodyBytes(bodyBytesHeld, from: network)
        bodyBytesHeld = 0
    }

    /// A piece of the body: kept, or dropped when refused; false closes the connection (a body
    /// too slow, or more of a refused one than the drain reads).
    func receive(_ data: UnsafePointer<CChar>?, _ size: Int) -> Bool {
        if let watched, !server.connections.bodyCame(watched, count: size) { return false }
        if let drainUntil {
            drainLeft -= size
            return drainLeft >= 0 && ContinuousClock.now <= drainUntil
        }
        guard let spool, let data else { return true }
        if spool.count + size > limit {
            refuse(plainRefusal(.requestTooLarge))
            drainLeft -= size
            return drainLeft >= 0
        }
        guard server.connections.takeBodyBytes(size, from: network) else {
            refuse(plainRefusal(.addressSendingTooMuch))
            drainLeft -= size
            return drainLeft >= 0
        }
        bodyBytesHeld += size
        guard spool.append(UnsafeRawBufferPointer(start: data, count: size)) else {
            refuse(plainRefusal(.bodyNotKept))
            return true
        }
        return true
    }

    /// The request has all come: answered at once when refused or answered already (a resumed
    /// request), else suspended and handed to a worker in its key's turn.
    func finish(_ connection: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?) -> MHD_Result {
        if let watched { server.connections.bodyEnded(watched) }
        if let answer = handoff.withLock({ handoff -> HTTPResponse? in
            // libmicrohttpd copies the body: ours goes now, not once the answer is sent.
            defer { handoff.answer?.body = [] }
            return handoff.answer
        }) { return respond(connection, answer, counting: server.metrics) }
        if let refusal { return respond(connection, refusal, counting: server.metrics) }
        let head = request(connection, url, method, client: client, body: [])
        // Suspended first: whatever answers it (a worker, a refusal below) resumes it after.
        handoff.withLock { handoff in
            vocab_MHD_suspend_connection(connection)
            handoff.suspended = Suspended(connection: connection)
        }
        server.suspended.withLock { $0[ObjectIdentifier(self)] = self }
        let readIntoMemory = !isUpload && (spool?.count ?? 0) > server.limits.bodyMemory
        guard readIntoMemory else {
            queue(head, holdingLargePlace: false)
            return MHD_Result.YES
        }
        // A large body waits for one of the few places to be read into memory in.
        server.largeBodies.enter { [self] in queue(head, holdingLargePlace: true) }
        return MHD_Result.YES
    }

    /// Hands the request to a worker in its key's turn, or answers "busy".
    private func queue(_ head: HTTPRequest, holdingLargePlace: Bool) {
        let reading = head.isRead && !server.limits.readsThatMayWait.contains { head.path.hasPrefix($0) }
        let submitted = server.workers.submit(key: key, reading: reading) { [self] in
            answer(head)
            if holdingLargePlace { server.largeBodies.leave() }
        }
        guard !submitted else { return }
        if holdingLargePlace { server.largeBodies.leave() }
        deliver(plainRefusal(.serverBusy))
    }

    /// On a worker: the whole request to the handler, its answer back to the connection (and
    /// its route, status and time since its last byte counted).
    private func answer(_ head: HTTPRequest) {
        let came = ContinuousClock.now
        var whole = head
        if let spool {
            if isUpload, let file = spool.file() {
                whole.bodyFile = file
            } else if !isUpload, let bytes = spool.bytes() {
                whole.body = bytes
            } else {
                return deliver(plainRefusal(.bodyNotRead))
            }
        }
        let answer = server.handler(whole)
        if let name = server.routeName?(whole) {
            let waited = ContinuousClock.now - came
            server.metrics.answered(route: name, status: answer.status,
                                    seconds: Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18)
        }
        deliver(answer)
    }

    /// Hands `answer` to the suspended connection and resumes it (unless a stop answered it already).
    func deliver(_ answer: HTTPResponse) {
        var late: (@Sendable () -> Void)?
        handoff.withLock { handoff in
            guard handoff.answer == nil else { late = answer.whenDone; return }
            handoff.answer = answer
            if let suspended = handoff.suspended {
                handoff.suspended = nil
                server.suspended.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
                vocab_MHD_resume_connection(suspended.connection)
            }
        }
        late?()
    }

    /// At a stop: every request still being answered is answered 503 (its work goes on to its
    /// end; its answer is dropped).
    static func answerEveryoneSuspended(in server: HTTPServer) {
        let waiting = server.suspended.withLock { $0.values }
        var stopping = plainRefusal(.serverStopping)
        stopping.headers.append(("Connection", "close"))
        for exchange in waiting { exchange.deliver(stopping) }
    }
}

/// Called with the head (the exchange is made, nothing read yet), then with each piece of the
/// body, then once more to answer — and, for a request a worker answered, once more after it
/// resumed. Answering on the first call closes the connection once the answer is sent: a
/// request refused from its head is answered so when its client waits for our word (or sends
/// more than the drain reads, or is past its address's share of bodies), else after its body,
/// dropped as it comes within the drain's bounds — never held while it trickles.
let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, state in
    guard let cls, let connection, let state, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = state.pointee else { return begin(server, connection, url, method, state) }
    let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let going = exchange.receive(uploadData, uploadSize.pointee)
        uploadSize.pointee = 0
        return going ? MHD_Result.YES : MHD_Result.NO
    }
    return exchange.finish(connection, url, method)
}

/// A request's head has come: who sends it, whether it may send its body, and the exchange.
private func begin(_ server: HTTPServer, _ connection: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                   _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
    let watched = watched(connection)
    watched.map(server.connections.requestBegan)
    let limits = server.limits
    if server.stopping.load(ordering: .relaxed) {
        return refuse(connection, plainRefusal(.serverStopping), counting: server.metrics)
    }
    let path = url.map { String(cString: $0) } ?? ""
    let isUpload = path.hasPrefix(limits.uploadPath), largerBody = limits.largerBodies[path]
    let limit = isUpload ? limits.maximumUpload : largerBody ?? limits.maximumBody
    let length = header(connection, "Content-Length").flatMap(Int.init)
    let hasBody = length.map { $0 > 0 } ?? (header(connection, "Transfer-Encoding") != nil)
    // A refusal from the head: answered at once when the client sends no body, waits for our
    // word before it does (Expect: 100-continue), or announces more than the drain reads (or
    // no length); else after its body, read and dropped within the drain's bounds, so that a
    // client that sends all before it reads sees the answer.
    let waitsForOurWord = !hasBody || header(connection, "Expect")?.lowercased() == "100-continue"
        || (length ?? .max) > limits.refusalDrainBytes
    let client = clientAddress(connection, trusting: limits.trustedProxies)
    let verdict = server.sender?(request(connection, url, method, client: client, body: [])) ?? .unproved
    if case .answerNow(let answer) = verdict { return respond(connection, answer, counting: server.metrics) }
    let key: String
    switch verdict {
    case .learner(let name): key = "learner:" + name
    case .shared(let kind): key = "shared:" + kind
    default: key = "address:" + AddressNetwork.of(client)
    }
    let exchange = Exchange(server: server, watched: watched, client: client, key: key, limit: limit, isUpload: isUpload)
    func refused(_ answer: HTTPResponse) -> MHD_Result {
        guard !waitsForOurWord else { return refuse(connection, answer, counting: server.metrics) }
        exchange.refuse(answer)
        state.pointee = Unmanaged.passRetained(exchange).toOpaque()
        return MHD_Result.YES
    }
    if hasBody {
        // Past its address's share, answered and closed at once whatever the client does.
        guard server.connections.takeBody(from: exchange.network) else {
            return refuse(connection, plainRefusal(.addressRequestingTooMuch), counting: server.metrics)
        }
        exchange.holdsBodyPlace = true
        watched.map(server.connections.bodyBegan)
    }
    if let length, length > limit { return refused(plainRefusal(.requestTooLarge)) }
    // A file, a batch or another larger body from someone known not to be signed in: never kept.
    if isUpload || largerBody != nil, case .refused(let answer) = verdict { return refused(answer) }
    if hasBody { exchange.spool = BodySpool(folder: server.spool, memoryBytes: limits.bodyMemory) }
    state.pointee = Unmanaged.passRetained(exchange).toOpaque()
    return MHD_Result.YES
}

/// The door's own refusal, in English (no page's language is known before a request is read);
/// its status and Retry-After are `Refusal`'s.
func plainRefusal(_ refusal: Refusal) -> HTTPResponse {
    WebProblem(refusal).response
}
