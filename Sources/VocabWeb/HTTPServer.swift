import CMHD
import Dispatch
import FoundationEssentials
import Synchronization
import VocabCore
import VocabCloudAPI
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP request, as a handler sees it: the method, the path (no query), the query's
/// arguments, the headers a handler may read, and the body (within the server's bound).
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The address the request came from: the connection's, or when the connection comes from
    /// a proxy the server trusts (`HTTPLimits.trustedProxies`), the last one that proxy appended
    /// to X-Forwarded-For (what a client wrote there itself is never taken).
    public var peer: String

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = [],
                peer: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What a handler answers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The bounds every connection is held to: a request is hostile until proven otherwise.
public struct HTTPLimits: Sendable {
    /// The largest request body read (a larger one is answered 413 and never kept).
    public var maximumBody = 1 << 20
    /// Connections at once (more wait in the kernel's queue).
    public var maximumConnections: UInt32 = 256
    /// Seconds a connection may sit idle (a slow client is cut off).
    public var idleSeconds: UInt32 = 15
    /// Bytes per connection for its headers and buffers (larger headers: 431/413 by libmicrohttpd).
    public var connectionMemory = 32 * 1024
    /// Threads answering requests.
    public var threads: UInt32 = 4
    /// A thread of its own for each connection instead of `threads` shared ones: a request that
    /// waits (on the cloud, on its learner's lock) then holds back no other connection — with
    /// shared threads, the connections a thread accepted wait behind the one it is answering.
    /// For a server of many learners; bounded by `maximumConnections`.
    public var threadPerConnection = false
    /// Requests to paths starting with this take files: their own bound, and few at once.
    public var uploadPath = "/api/imports"
    /// The largest file uploaded.
    public var maximumUpload = 32 << 20
    /// Uploads being received at once (another is answered 429, its body dropped as it comes).
    public var uploadsAtOnce = 2
    /// Requests to this path carry a device's batch of changes (a sync's push, `DeviceRoute.push`):
    /// their own bound. None when nil.
    public var batchPath: String?
    /// The largest batch (what the cloud's push takes).
    public var maximumBatch = PushBounds.batchBytes
    /// Batches being received at once (another is answered 429, its body dropped as it comes).
    public var batchesAtOnce = 8
    /// Seconds a learner's upload or batch waits, in the order they came, for a slot it may
    /// take before it is answered 429 (0: at once). A freed slot then goes to the device that
    /// waited longest, not to whichever tries just then. Only with `threadPerConnection` (the
    /// waiting request holds its thread); at most half the slots' number of a learner wait.
    public var slotWaitSeconds: Double = 0
    /// A body must come in within this many seconds plus one for each `slowestBody` bytes its
    /// Content-Length announces (a client sending a byte now and then, which the idle bound
    /// never cuts, is cut off then).
    public var bodyGraceSeconds = 20
    /// Bytes a second a body may come in at, on average, past its grace.
    public var slowestBody = 32 * 1024
    /// Connections at once from one address (0: no bound); a proxy in `trustedProxies` has none.
    public var connectionsPerAddress = 64
    /// Seconds a request's whole head may take, from the connection's opening or the end of the
    /// request before (a byte now and then does not reset it, as it resets `idleSeconds`).
    public var headerSeconds = 10
    /// Requests from one client address whose bodies are being received at once (another is
    /// answered 429 at once; 0: no bound).
    public var bodiesPerAddress = 16
    /// A request refused from its head whose client sends its body anyway (it did not ask to
    /// wait with `Expect: 100-continue`) is read and dropped for at most this long and this many
    /// bytes, then answered (a client that sends all before it reads would otherwise never see
    /// the answer); past either, its connection is closed.
    public var refusalDrainSeconds = 5
    public var refusalDrainBytes = 4 << 20
    /// The addresses of the proxies in front (`vocab serve --behind-proxy`): only a connection
    /// from one of them may say, in X-Forwarded-For, whom it comes from.
    public var trustedProxies: Set<String> = []

    public init() {}
}

/// Whom the body of an upload or a batch counts against, told from its headers before any of
/// it is read: a learner who proved himself, or a refusal (no slot taken; answered once the
/// body, dropped as it comes, has ended).
public enum BodySender: Sendable {
    case learner(String)
    case refused(HTTPResponse)
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads of its own (a handler may block on
/// the store), answering each request with `handler`. Listens until `stop()` or release.
public final class HTTPServer: @unchecked Sendable {
    private var daemon: OpaquePointer?
    /// Uploads, and devices' batches, whose bodies are being received now: shared fairly among
    /// the learners `sender` names (without it, first come, first served).
    let uploads: FairShares
    let batches: FairShares
    let sender: (@Sendable (HTTPRequest) -> BodySender)?
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let limits: HTTPLimits
    /// Connections by address: bounded in number, in the time a request's head takes, in bodies at once.
    let connections: ConnectionGuard
    /// Cuts, every second, connections whose request's head is late (from when the server listens).
    private var lateCutter: DispatchSourceTimer?
    /// The port it listens on (the one chosen when asked for port 0).
    public private(set) var port: UInt16 = 0
    private let keyText: UnsafeMutablePointer<CChar>?
    private let certificateText: UnsafeMutablePointer<CChar>?

    /// Listens on `host` (an IPv4 address) and `port` (0: any free port); with `tls`, HTTPS only.
    /// `sender`: who sends an upload or a batch, asked with its headers before its body is read.
    public init(host: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), tls: TLSIdentity? = nil,
                sender: (@Sendable (HTTPRequest) -> BodySender)? = nil,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        self.sender = sender
        self.limits = limits
        uploads = FairShares(capacity: limits.uploadsAtOnce, waitersPerLearner: max(limits.uploadsAtOnce / 2, 1))
        batches = FairShares(capacity: limits.batchesAtOnce, waitersPerLearner: max(limits.batchesAtOnce / 2, 1))
        let connections = ConnectionGuard(bounds: .init(perAddress: limits.connectionsPerAddress, headerSeconds: limits.headerSeconds,
                                                        bodiesPerAddress: limits.bodiesPerAddress, exempt: limits.trustedProxies))
        self.connections = connections
        keyText = tls.map { strdup($0.key) }
        certificateText = tls.map { strdup($0.certificate) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw HTTPServerError.badAddress(host) }
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue) | UInt32(MHD_USE_ERROR_LOG.rawValue)
            | (limits.threadPerConnection ? UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue) | UInt32(MHD_USE_POLL.rawValue)
                                          : UInt32(MHD_USE_EPOLL.rawValue))
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard vocab_libmhd_available() == 1 else { throw HTTPServerError.noLibrary }
        if tls != nil, vocab_mhd_has_tls() == 0 { throw HTTPServerError.noTLS }
        // libmicrohttpd copies neither the key nor the certificate: they live as long as the server.
        daemon = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                vocab_mhd_start(flags, socketAddress, limits.threadPerConnection ? 0 : limits.threads, limits.maximumConnections, limits.idleSeconds,
                                limits.connectionMemory, accessHandler, me, completedHandler, me, connectionHandler, me,
                                keyText.map { UnsafePointer($0) }, certificateText.map { UnsafePointer($0) })
            }
        }
        guard let daemon else {
            let reason = tls == nil ? String(cString: strerror(errno)) : "the TLS key and certificate were refused, or the address is taken"
            throw HTTPServerError.cannotListen(host: host, port: port, reason: reason)
        }
        self.port = vocab_mhd_port(daemon)
        let cutter = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        cutter.schedule(deadline: .now() + 1, repeating: 1)
        cutter.setEventHandler { connections.cutLate() }
        cutter.resume()
        lateCutter = cutter
    }

    deinit {
        stop()
        if let keyText {
            memset(keyText, 0, strlen(keyText))  // the private key leaves no copy behind in memory
            free(keyText)
        }
        free(certificateText)
    }

    /// Stops listening and ends every connection.
    public func stop() {
        lateCutter?.cancel()
        lateCutter = nil
        if let daemon { vocab_MHD_stop_daemon(daemon) }
        daemon = nil
    }
}

/// A server's TLS key and certificate chain, in PEM.
public struct TLSIdentity: Sendable {
    public var key: String
    public var certificate: String

    public init(key: String, certificate: String) {
        self.key = key
        self.certificate = certificate
    }
}

/// Why a server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case badAddress(String)
    case cannotListen(host: String, port: UInt16, reason: String)
    case noTLS
    case noLibrary

    public var description: String {
        switch self {
        case .noLibrary: return "libmicrohttpd is not installed (Debian: libmicrohttpd12)"
        case .noTLS: return "this libmicrohttpd was built without TLS"
        case .badAddress(let text): return "\"\(text)\" is not an IPv4 address to listen on"
        case .cannotListen(let host, let port, let reason): return "cannot listen on \(host):\(port) (\(reason))"
        }
    }
}

/// A request's state between libmicrohttpd's calls: the body read so far, and whether it grew
/// too large on the way (the rest is then dropped as it comes and the request answered 413).
private final class Exchange {
    var body: [UInt8] = []
    var limit: Int
    var refusal: HTTPResponse?
    /// Bytes of a refused body still read and dropped before the connection is closed.
    var drainLeft: Int
    /// The slot (an upload's, a batch's) this request holds until it ends, and for whom.
    let slot: (shares: FairShares, learner: String?)?
    /// The client's place for a body being received, held until the request ends.
    let bodyPlace: (connections: ConnectionGuard, address: String)?
    /// The client's address, read once from the request's head.
    let client: String
    /// When the rest of the body is no longer waited for.
    let deadline: ContinuousClock.Instant

    init(client: String, limit: Int, deadline: ContinuousClock.Instant, slot: (shares: FairShares, learner: String?)?,
         bodyPlace: (connections: ConnectionGuard, address: String)?, refusal: HTTPResponse? = nil, drainLeft: Int) {
        self.client = client
        self.limit = limit
        self.deadline = deadline
        self.refusal = refusal
        self.drainLeft = drainLeft
        self.slot = slot
        self.bodyPlace = bodyPlace
    }

    deinit {
        if let slot { slot.shares.giveBack(for: slot.learner) }
        if let bodyPlace { bodyPlace.connections.giveBackBody(from: bodyPlace.address) }
    }
}

private func refusal(_ status: Int, _ message: String) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                 body: Array("{\"error\":\"\(message)\"}".utf8))
}

/// Called with the headers (set the exchange, read nothing yet), then with each piece of the
/// body, then once more to answer. Answering on the first call closes the connection once the
/// answer is sent: a request refused from its head is answered so when its client waits for our
/// word (or sends more than the drain reads, or is past its address's share of bodies), else
/// after its body, dropped as it comes within the drain's bounds — never held while it trickles.
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, state in
    guard let cls, let connection, let state, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = state.pointee else {
        watched(connection).map(server.connections.requestBegan)
        let path = url.map { String(cString: $0) } ?? ""
        let isUpload = path.hasPrefix(server.limits.uploadPath), isBatch = path == server.limits.batchPath
        let limit = isUpload ? server.limits.maximumUpload : isBatch ? server.limits.maximumBatch : server.limits.maximumBody
        let length = header(connection, "Content-Length").flatMap(Int.init)
        let hasBody = length.map { $0 > 0 } ?? (header(connection, "Transfer-Encoding") != nil)
        // A refusal from the head: answered at once when the client sends no body, waits for our
        // word before it does (Expect: 100-continue), or announces more than the drain reads (or
        // no length); else after its body, read and dropped within the drain's bounds, so that a
        // client that sends all before it reads sees the answer.
        let waitsForOurWord = !hasBody || header(connection, "Expect")?.lowercased() == "100-continue"
            || (length ?? .max) > server.limits.refusalDrainBytes
        let client = clientAddress(connection, trusting: server.limits.trustedProxies)
        func refused(_ answer: HTTPResponse, holding place: (connections: ConnectionGuard, address: String)? = nil) -> MHD_Result {
            guard !waitsForOurWord else {
                place.map { $0.connections.giveBackBody(from: $0.address) }
                return refuse(connection, answer)
            }
            let exchange = Exchange(client: client, limit: 0, deadline: .now + .seconds(server.limits.refusalDrainSeconds), slot: nil,
                                    bodyPlace: place, refusal: answer, drainLeft: server.limits.refusalDrainBytes)
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            return MHD_Result.YES
        }
        var bodyPlace: (connections: ConnectionGuard, address: String)?
        if hasBody {
            // Past its address's share, answered and closed at once whatever the client does.
            guard server.connections.takeBody(from: client) else {
                return refuse(connection, busy("Too many requests from your address at once: try again in a moment."))
            }
            bodyPlace = (server.connections, client)
        }
        if let length, length > limit {
            return refused(refusal(413, "The request is too large."), holding: bodyPlace)
        }
        var slot: (shares: FairShares, learner: String?)?
        if let (shares, busyText) = isUpload ? (server.uploads, "Other files are being sent: try again in a moment.")
            : isBatch ? (server.batches, "Other devices are sending changes: try again in a moment.") : nil {
            // Only a learner who proved himself may hold one of the few slots, and a fair share of them.
            var learner: String?
            switch server.sender?(request(connection, url, method, client: client, body: [])) {
            case .refused(let answer)?: return refused(answer, holding: bodyPlace)
            case .learner(let name)?: learner = name
            case nil: break
            }
            let wait = learner != nil && server.limits.threadPerConnection ? server.limits.slotWaitSeconds : 0
            guard shares.take(for: learner, waitingAtMost: wait) else { return refused(busy(busyText), holding: bodyPlace) }
            slot = (shares, learner)
        }
        // The body's time counts from now, once any wait for a slot is over.
        let expected = min(length ?? limit, limit)
        let exchange = Exchange(client: client, limit: limit,
                                deadline: .now + .seconds(server.limits.bodyGraceSeconds + expected / max(server.limits.slowestBody, 1)),
                                slot: slot, bodyPlace: bodyPlace, drainLeft: server.limits.refusalDrainBytes)
        state.pointee = Unmanaged.passRetained(exchange).toOpaque()
        return MHD_Result.YES
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0, ContinuousClock.now > exchange.deadline {
        return MHD_Result.NO  // a body sent too slowly: the connection is closed
    }
    if uploadSize.pointee > 0 {
        if exchange.refusal != nil {
            exchange.drainLeft -= uploadSize.pointee
            if exchange.drainLeft < 0 { return MHD_Result.NO }  // more than the drain takes: closed unanswered
        } else if let uploadData {
            if exchange.body.count + uploadSize.pointee > exchange.limit {
                exchange.refusal = refusal(413, "The request is too large.")
                exchange.body = []
                exchange.drainLeft -= uploadSize.pointee
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) { bytes in
                    exchange.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    let response: HTTPResponse
    if let refused = exchange.refusal {
        response = refused
    } else {
        let whole = request(connection, url, method, client: exchange.client, body: exchange.body)
        exchange.body = []
        response = server.handler(whole)
    }
    return respond(connection, response)
}

/// Answers a request from its head alone, at once; libmicrohttpd reads none of its body and
/// closes the connection once the answer is sent.
private func refuse(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
    var answer = response
    answer.headers.append(("Connection", "close"))
    return respond(connection, answer)
}

/// A 429 that asks the client to come back in a second.
private func busy(_ message: String) -> HTTPResponse {
    var answer = refusal(429, message)
    answer.headers.append(("Retry-After", "1"))
    return answer
}

/// The request as a handler sees it: the headers it reads, the query, the client's address.
private func request(_ connection: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, client: String,
                     body: [UInt8]) -> HTTPRequest {
    var headers: [String: String] = [:]
    for name in ["Host", "Origin", "Cookie", "Content-Type", "X-Vocab-Request", "Accept-Language", "Accept-Encoding", "Referer",
                 "If-None-Match", "X-Vocab-Language", "User-Agent", "Authorization"] {
        if let value = header(connection, name) { headers[name.lowercased()] = value }
    }
    return HTTPRequest(method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
                       query: arguments(connection), headers: headers, body: body, peer: client)
}

/// Releases a request's state when libmicrohttpd is done with it (answered, or cut off); the
/// connection's next request's head is waited for from now.
private let completedHandler: MHD_RequestCompletedCallback = { cls, connection, state, _ in
    if let cls, let connection, let watched = watched(connection) {
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connections.requestEnded(watched)
    }
    guard let state, let stored = state.pointee else { return }
    Unmanaged<Exchange>.fromOpaque(stored).release()
    state.pointee = nil
}

/// A connection opened (watched from now, by its socket and address) or closed (forgotten).
private let connectionHandler: MHD_NotifyConnectionCallback = { cls, connection, context, event in
    guard let cls, let connection, let context else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        let watched = ConnectionGuard.Watched(socket: vocab_mhd_connection_fd(connection), address: connectionAddress(connection))
        context.pointee = Unmanaged.passRetained(watched).toOpaque()
        server.connections.opened(watched)
    } else if let kept = context.pointee {
        let watched = Unmanaged<ConnectionGuard.Watched>.fromOpaque(kept)
        server.connections.closed(watched.takeUnretainedValue())
        watched.release()
        context.pointee = nil
    }
}

/// What the server watches of a request's connection.
private func watched(_ connection: OpaquePointer) -> ConnectionGuard.Watched? {
    vocab_mhd_socket_context(connection).map { Unmanaged<ConnectionGuard.Watched>.fromOpaque($0).takeUnretainedValue() }
}

/// The address of the machine at the other end of the connection.
private func connectionAddress(_ connection: OpaquePointer) -> String {
    var text = [CChar](repeating: 0, count: 64)
    return vocab_mhd_client_address(connection, &text, text.count) == 1
        ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
}

/// The client's address: the connection's; or, when the connection comes from a trusted proxy,
/// the last address in the last X-Forwarded-For header (the one the proxy appended: what the
/// client wrote comes before it).
private func clientAddress(_ connection: OpaquePointer, trusting proxies: Set<String>) -> String {
    let peer = connectionAddress(connection)
    guard proxies.contains(peer), let forwarded = headerValues(connection, "X-Forwarded-For").last,
          let last = forwarded.split(separator: ",").last.map({ String($0).trimmingSpaces() }), !last.isEmpty else { return peer }
    return last
}

/// Every value of the header `name` (a header may be sent more than once), in order, 16 at most.
private func headerValues(_ connection: OpaquePointer, _ name: String) -> [String] {
    let wanted = name.lowercased()
    var values: [String] = []
    forEachValue(connection, MHD_ValueKind.HEADER_KIND) { key, value in
        if key.lowercased() == wanted, let value, values.count < 16 { values.append(value) }
        return true
    }
    return values
}

/// Each value of `kind` the request carries (its headers, its query's arguments), in order,
/// until `visit` returns false.
private func forEachValue(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ visit: (String, String?) -> Bool) {
    withoutActuallyEscaping(visit) { visit in
        final class Box {
            let visit: (String, String?) -> Bool
            init(_ visit: @escaping (String, String?) -> Bool) { self.visit = visit }
        }
        let box = Box(visit)
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return MHD_Result.YES }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            return box.visit(String(cString: key), value.map { String(cString: $0) }) ? MHD_Result.YES : MHD_Result.NO
        }
        withExtendedLifetime(box) {
            _ = vocab_MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
    }
}

private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    vocab_MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
}

/// The query's arguments (the first value of each name), at most 32 of them.
private func arguments(_ connection: OpaquePointer) -> [String: String] {
    var values: [String: String] = [:]
    forEachValue(connection, MHD_ValueKind.GET_ARGUMENT_KIND) { name, value in
        guard values.count < 32 else { return false }
        if values[name] == nil { values[name] = value ?? "" }
        return true
    }
    return values
}

private func respond(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        vocab_MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let made else { return MHD_Result.NO }
    defer { vocab_MHD_destroy_response(made) }
    for (name, value) in response.headers { _ = vocab_MHD_add_response_header(made, name, value) }
    return vocab_MHD_queue_response(connection, UInt32(response.status), made)
}
