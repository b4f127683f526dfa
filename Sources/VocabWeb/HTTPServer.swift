import CMHD
import Dispatch
import FoundationEssentials
import Synchronization
import VocabCore
import VocabAnkiSync
import VocabCloudAPI
import VocabSessions
import VocabSystem
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
    /// For a file uploaded (`HTTPLimits.uploadPath`): a file of the server's holding the whole
    /// body instead of `body`, removed once the request is answered — a handler that keeps it
    /// moves it away first.
    public var bodyFile: String?
    /// The address the request came from: the connection's, or when the connection comes from
    /// a proxy the server trusts (`HTTPLimits.trustedProxies`), the last one that proxy appended
    /// to X-Forwarded-For (what a client wrote there itself is never taken).
    public var peer: String
    /// Whether the request only reads: a `GET`. Anything else is a write — held to the page's
    /// write checks, pushed once it changed something, and waiting its turn with the writes.
    public var isRead: Bool { method == "GET" }

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = [],
                bodyFile: String? = nil, peer: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyFile = bodyFile
        self.peer = peer
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What a handler answers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Runs once the answer is sent, or its connection is gone: what the answer held (a
    /// learner's turn, say) is given back only then, so that answers a client does not read
    /// still count against him.
    public var whenDone: (@Sendable () -> Void)?
    /// A refusal's cause, as it is counted (a `Refusal`'s case, or a layer's error type).
    package var refusalCause: String?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The bounds every connection is held to: a request is hostile until proven otherwise. A
/// connection costs a socket and a few KiB while it is slow: no thread (libmicrohttpd's
/// `ioThreads` poll them all), no worker (a request reaches one only once its head and body
/// have come), no slot.
public struct HTTPLimits: Sendable {
    /// The largest request body read (a larger one is answered 413 and never kept).
    public var maximumBody = 1 << 20
    /// Connections at once (more wait in the kernel's queue); at most what the process may open.
    public var maximumConnections: UInt32 = 1_024
    /// Seconds a connection may sit idle, receiving or sending (a client that stops is cut off).
    public var idleSeconds: UInt32 = 15
    /// Bytes per connection for its headers and buffers (larger headers: 431/413 by libmicrohttpd).
    public var connectionMemory = 32 * 1024
    /// Threads polling the connections (epoll) and moving their bytes.
    public var ioThreads: UInt32 = 2
    /// Threads answering requests, shared in turn by learner (`FairWorkQueue`).
    public var workers = 8
    /// Workers only reads (`HTTPRequest.isRead`) may take: a write may wait on the learner's lock or
    /// a cloud connection, and a card shown never waits behind writes waiting on something else.
    public var workersKeptForReads = 2
    /// Paths whose reads may wait on the cloud as writes do (the device API's: a page of
    /// records pulled, the devices, the catalog): they take the writes' workers, so many
    /// accounts' pulls never hold the workers kept for reads.
    public var readsThatMayWait = [DeviceRoute.prefix]
    /// Requests of one learner (or one address, before it proved whose they are) waiting for a
    /// worker, and of everyone; more are answered 503 at once. Workers one key holds at once.
    public var waitingPerKey = 64
    public var waitingInAll = 4_096
    public var workersPerKey = 8
    /// Requests to paths starting with this take files: their own bound, and the file is handed
    /// to the handler as a file (`HTTPRequest.bodyFile`).
    public var uploadPath = "/api/imports"
    /// The largest file uploaded.
    public var maximumUpload = 32 << 20
    /// Paths whose bodies have a bound of their own, larger than `maximumBody`: a device's batch
    /// of changes (a sync's push, `DeviceRoute.push`, as large as the cloud's push takes), an
    /// Anki app's media files (zstd-compressed: a picture or a recording barely shrinks) and its
    /// whole collection. A request to one of them from someone known not to be signed in is
    /// refused from its head, its body never kept.
    public var largerBodies = [AnkiSyncCall.uploadChanges.path: AnkiMediaBounds.uploadBytes,
                               AnkiSyncCall.upload.path: AnkiMediaBounds.collectionWireBytes]
    /// A body's first bytes kept in memory; the rest goes to a file of the server's.
    public var bodyMemory = 32 * 1024
    /// Bodies larger than `bodyMemory` (but for files uploaded, handed over as files) read
    /// into memory for their handlers at once; the others wait their turn.
    public var largeBodiesAtOnce = 4
    /// A body must keep coming: past its first `bodyGraceSeconds`, at `slowestBody` bytes a
    /// second on average at least, or it is cut off and lets go of everything it held.
    public var bodyGraceSeconds = 10
    public var slowestBody = 4 * 1024
    /// Bytes of bodies being received at once from one client address network, and from everyone.
    public var bodyBytesPerAddress = 64 << 20
    public var bodyBytesInAll = 1 << 30
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
    /// Seconds `stop()` lets the requests being answered finish; those still running then are
    /// answered 503 and their connections closed.
    public var stopSeconds = 4
    /// The addresses of the proxies in front (`vocab serve --behind-proxy`): only a connection
    /// from one of them may say, in X-Forwarded-For, whom it comes from.
    public var trustedProxies: Set<String> = []

    public init() {}
}

/// Whose request it is, told from its head alone and from what the server holds in memory
/// (asked on libmicrohttpd's threads: it must not wait): a learner who proved himself lately,
/// a kind of request that takes one turn together (sign-ins), a refusal (an upload's or a
/// batch's body is then never read), not known yet (the handler finds out; the request waits
/// its turn with its address's) — or an answer given at once from the head (a load balancer's
/// health check, which must never wait behind anyone).
public enum BodySender: Sendable {
    case learner(String)
    case shared(String)
    case refused(HTTPResponse)
    case unproved
    case answerNow(HTTPResponse)
}

/// An HTTP/1.1 server on libmicrohttpd: `ioThreads` poll every connection (epoll), a request
/// whose head and body have come is suspended and answered by one of `workers` (in turn by
/// learner), then resumed with its answer. Listens until `stop()` or release.
public final class HTTPServer: @unchecked Sendable {
    private var daemon: OpaquePointer?
    let sender: (@Sendable (HTTPRequest) -> BodySender)?
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    /// A request's route, as its requests and latency are counted (a bounded set of names).
    let routeName: (@Sendable (HTTPRequest) -> String)?
    /// What it counts, for `/metrics`.
    package let metrics: ServerMetrics
    let limits: HTTPLimits
    /// Connections by address: bounded in number, in the time a request's head takes, in
    /// bodies and their bytes at once, in how slowly a body may come.
    let connections: ConnectionGuard
    let workers: FairWorkQueue
    /// Where bodies past `bodyMemory` are kept while they come.
    let spool: ScratchFolder
    /// Bodies past `bodyMemory` read into memory at once (the rest wait their turn, suspended).
    let largeBodies: LargeBodyGate
    /// Requests suspended while a worker answers them (to answer at a stop).
    let suspended = Mutex<[ObjectIdentifier: Exchange]>([:])
    let stopping = Atomic<Bool>(false)
    /// Cuts, every second, connections whose request's head is late or whose body is too slow.
    private var lateCutter: DispatchSourceTimer?
    /// The port it listens on (the one chosen when asked for port 0).
    public private(set) var port: UInt16 = 0
    private let keyText: UnsafeMutablePointer<CChar>?
    private let certificateText: UnsafeMutablePointer<CChar>?

    /// Listens on `host` (an IPv4 address) and `port` (0: any free port); with `tls`, HTTPS only.
    /// `sender`: whose request it is, asked with its head before its body is read.
    /// `routeName`: a request's route as it is counted (none: requests are not counted by route).
    public init(host: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), tls: TLSIdentity? = nil,
                sender: (@Sendable (HTTPRequest) -> BodySender)? = nil, routeName: (@Sendable (HTTPRequest) -> String)? = nil,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        self.sender = sender
        self.routeName = routeName
        metrics = ServerMetrics(hotRoutes: ["next_card", "add_reviews", "device_pull", "device_push"])
        var limits = limits
        limits.maximumConnections = Self.raiseOpenFileLimit(toHold: limits.maximumConnections)
        self.limits = limits
        let connections = ConnectionGuard(bounds: .init(perAddress: limits.connectionsPerAddress, headerSeconds: limits.headerSeconds,
                                                        bodiesPerAddress: limits.bodiesPerAddress, bodyBytesPerAddress: limits.bodyBytesPerAddress,
                                                        bodyBytesInAll: limits.bodyBytesInAll, bodyGraceSeconds: limits.bodyGraceSeconds,
                                                        slowestBody: limits.slowestBody, exempt: limits.trustedProxies))
        self.connections = connections
        workers = FairWorkQueue(workers: limits.workers, pendingPerKey: limits.waitingPerKey, pendingInAll: limits.waitingInAll,
                                runningPerKey: limits.workersPerKey, keptForReads: limits.workersKeptForReads)
        spool = try ScratchFolder()
        largeBodies = LargeBodyGate(capacity: limits.largeBodiesAtOnce)
        keyText = tls.map { strdup($0.key) }
        certificateText = tls.map { strdup($0.certificate) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw HTTPServerError.badAddress(host) }
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue) | UInt32(MHD_USE_ERROR_LOG.rawValue)
            | UInt32(MHD_USE_EPOLL.rawValue) | UInt32(MHD_ALLOW_SUSPEND_RESUME.rawValue)
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard vocab_libmhd_available() == 1 else { throw HTTPServerError.noLibrary }
        if tls != nil, vocab_mhd_has_tls() == 0 { throw HTTPServerError.noTLS }
        // libmicrohttpd copies neither the key nor the certificate: they live as long as the server.
        daemon = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                vocab_mhd_start(flags, socketAddress, max(limits.ioThreads, 1), limits.maximumConnections, limits.idleSeconds,
                                limits.connectionMemory, accessHandler, me, completedHandler, me, connectionHandler, me,
                                keyText.map { UnsafePointer($0) }, certificateText.map { UnsafePointer($0) })
            }
        }
        guard let daemon else {
            workers.stop()
            let reason = tls == nil ? String(cString: strerror(errno)) : "the TLS key and certificate were refused, or the address is taken"
            throw HTTPServerError.cannotListen(host: host, port: port, reason: reason)
        }
        self.port = vocab_mhd_port(daemon)
        metrics.watch { [workers, connections] in
            let (running, waiting) = workers.load
            let (open, bodyBytes) = connections.load
            return [
                ServerMetrics.Gauge(name: "vocab_http_connections", help: "Client connections open.", values: [("", Double(open))]),
                ServerMetrics.Gauge(name: "vocab_http_body_bytes", help: "Bytes of request bodies being received.", values: [("", Double(bodyBytes))]),
                ServerMetrics.Gauge(name: "vocab_http_requests_in_workers", help: "Requests being answered by a worker, and waiting for one.",
                                    values: [("state=\"answering\"", Double(running)), ("state=\"waiting\"", Double(waiting))]),
            ]
        }
        // Four times a second, at most 500 each time: 5,000 heads of a crowd late together are
        // cut over 2.5 s, not in one burst of syscalls (one took 150-220 ms of a core).
        let cutter = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        cutter.schedule(deadline: .now() + 0.25, repeating: 0.25)
        cutter.setEventHandler { connections.cutLate(most: 500) }
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

    /// Stops listening; lets the requests being answered finish for `stopSeconds` at most
    /// (those still running are answered 503: their work goes on to its end or its rollback,
    /// never half written), then ends every connection.
    public func stop() {
        guard let daemon else { return }
        stopping.store(true, ordering: .relaxed)
        let listener = vocab_MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        workers.stop()
        let deadline = ContinuousClock.now + .seconds(limits.stopSeconds)
        while ContinuousClock.now < deadline, !suspended.withLock({ $0.isEmpty }) { usleep(20_000) }
        Exchange.answerEveryoneSuspended(in: self)
        usleep(100_000)  // the answers just given go out
        lateCutter?.cancel()
        lateCutter = nil
        vocab_MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    /// Raises this process's bound on open files so that `connections` sockets fit (beside its
    /// other files); the connections that fit, if it could not.
    private static func raiseOpenFileLimit(toHold connections: UInt32) -> UInt32 {
        let bound = OpenFiles.raiseLimit(to: Int(connections) + 256)
        return UInt32(min(Int(connections), max(bound, 512) - 256))
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
