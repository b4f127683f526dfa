import Dispatch
import FoundationEssentials
import Synchronization
import VocabCatalog
import VocabCore
import VocabDictionary
import VocabSessions
import VocabCloudSessions
import VocabCloudAPI
import VocabServer
import VocabSystem
import VocabWeb
#if canImport(Glibc)
import Glibc
#endif

/// `vocab serve`: the web app, served by Vocab itself over the same store as the terminal and
/// the window. On this machine by default; to a phone over TLS (its own certificate, or a
/// reverse proxy that terminates TLS).
enum ServeCommand {
    static let command = Command(spec: CommandSpec(
        name: "serve", abstract: "Serve the web app to phones and browsers (each paired once with a one-time code).",
        options: [
            OptionSpec("listen", value: "ADDR:PORT", help: "Where to listen (default 127.0.0.1:8080; port 0: any free one)."),
            OptionSpec("metrics", value: "ADDR:PORT", help: "Serve Prometheus metrics at /metrics on this address of its own (never the public one; port 0: any free one)."),
            OptionSpec("tls-cert", value: "FILE", help: "Serve HTTPS with this certificate chain (PEM); needs --tls-key."),
            OptionSpec("tls-key", value: "FILE", help: "The certificate's private key (PEM, readable by you only)."),
            OptionSpec("behind-proxy", help: "A reverse proxy in front serves HTTPS (cookies are then Secure; only https:// pages may write); its X-Forwarded-For names the client."),
            OptionSpec("proxy-address", value: "ADDR[,ADDR...]", help: "With --behind-proxy: the proxy's own addresses, whose X-Forwarded-For is trusted (default 127.0.0.1: a proxy on this machine)."),
            OptionSpec("public-url", value: "URL", help: "The address phones open, for the QR code (default: the one listened on)."),
            OptionSpec("cloud", value: "URL", help: "Serve many learners of this cloud: " + ServerAddress.form(user: "vocab_server") + " (password from PGPASSWORD or ~/.pgpass)."),
            OptionSpec("connections-per-address", value: "N", help: "Connections at once from one address (default 64; 128 with --cloud; 0: no bound; a trusted proxy has none)."),
            OptionSpec("bodies-per-address", value: "N", help: "Requests from one address sending bodies at once (default 16; 0: no bound)."),
            OptionSpec("cloud-connections", value: "N", help: "With --cloud: connections to the cloud, shared fairly by the learners (default 4; all servers together: 2-4 per core of the database)."),
            OptionSpec("cache", value: "DIR", help: "With --cloud: where the learners' stores are kept (default: web-cache in the data folder)."),
            OptionSpec("cache-size", value: "SIZE", help: "With --cloud: the most the stores may take, e.g. 2GiB (default 1GiB); the least used go first."),
        ],
        discussion: """
            Open the address in a browser and type the pairing code shown here (or scan the QR code): \
            each code pairs one device, which then stays paired. The window shows the code too. \
            It listens on this machine only unless it serves HTTPS itself (--tls-cert and --tls-key) \
            or a reverse proxy does (--behind-proxy; docs/operating.md shows nginx): a phone installs the \
            app and studies offline only over HTTPS. Stops on Ctrl-C.
            """,
        examples: ["vocab serve", "vocab serve --listen 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem",
                   "vocab serve --behind-proxy --public-url https://vocab.example.org",
                   "vocab serve --behind-proxy --cloud postgresql://vocab_server@db.example/vocab --cache-size 4GiB"]
    )) { arguments, context in
        let options = try ServeOptions(arguments)
        let identity = try options.identity()  // a bad key or certificate is refused before anything is shown
        // Listening for Ctrl-C and SIGTERM before anything is announced: a stop asked for the
        // moment the address is out is never lost.
        let stopSignal = StopSignal()
        // A large answer (an Anki collection, 7 MiB compressed) goes back to the system once sent,
        // every time. 4 MiB, not glibc's first 128 KiB: mapping every block of 128 KiB on its own
        // made an Anki app's normal sync 30% slower (median 0.043 s against 0.033).
        ProcessMemory.mapBlocksAlways(atLeast: 4 << 20)
        let folder = try context.dataFolder()
        // The server's lines go out at once (a person, or a script, waits for them).
        let say: @Sendable (String) -> Void = { line in Console.writeNow(line + "\n") }
        let showQR = context.console.stdoutIsTerminal
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let catalogs = Catalog.languages
            .map { Catalog.load(language: $0, environment: context.environment, executable: executable) }
        let speech = try? Speech(environment: context.environment)  // not installed: words are not spoken, nothing else changes
        let dictionaries = try context.paths.dictionaries(), studyDay = try context.paths.studyDay()
        let backups = context.paths.backupPolicy(), scheme = options.scheme
        let makeApp: @Sendable (LibraryPool, DevicePairing?) throws -> WebApp = { pool, pairing in
            try WebApp(pool: pool, pairing: pairing, dictionaries: dictionaries, speech: speech, catalogs: catalogs,
                       clock: SystemClock(), studyDay: studyDay, backups: backups, scheme: scheme)
        }
        if let cloud = options.cloud {
            let settings = CloudWebApp.Settings(server: cloud, connections: options.cloudConnections,
                                                cacheFolder: options.cache ?? folder + "/web-cache", cacheBytes: options.cacheBytes,
                                                scheme: scheme)
            let app = try CloudWebApp(settings: settings, catalogs: catalogs) { pool in try makeApp(pool, nil) }
            do {
                try app.checkCloud()  // unreachable, refused or of another schema: said now, not at the first learner's request
            } catch let error as CloudError {
                throw ServeError.cloudRefused(error)
            }
            // Many learners: many connections (each costs a socket and a few KiB, never a thread),
            // and more workers, since a request may wait on the cloud (they take turns by learner).
            var limits = options.limits
            limits.maximumConnections = 16_384
            limits.connectionMemory = 16 * 1024  // a slow head's pool: 10,000 of them were 214 MiB at 32 KiB
            limits.workers = 32
            limits.workersKeptForReads = 8
            if options.connectionsPerAddress == nil { limits.connectionsPerAddress = 128 }  // a school shares one address
            let server = try listen(options, identity, limits: limits, sender: { request in app.bodySender(request) }) { request in
                app.handle(request)
            }
            server.metrics.watch { app.gauges }
            let metrics = try serveMetrics(options, of: server)
            let url = options.address(of: server)
            if showQR, let lines = QRCodeText.lines(for: url) { say(lines.joined(separator: "\n")) }
            say("Serving Vocab at \(url) to the learners of \(cloud.server)/\(cloud.database): each signs in with their account (Ctrl-C stops)")
            if let metrics { say("Metrics for Prometheus at http://\(metrics.host):\(metrics.server.port)/metrics") }
            stopSignal.wait()
            server.stop()
            metrics?.server.stop()
            say("Stopped.")
            return
        }
        // The learner's requests never wait for the store's log to be checkpointed.
        let pool = try LibraryPool(folder: folder, checkpointingAside: true)
        // Where a phone pairs now: for the window (the notice) and, on a terminal, for a camera.
        let offer: @Sendable (ServingNotice) -> Void = { notice in
            notice.publish(in: folder)
            if showQR, let lines = QRCodeText.lines(for: notice.address + "#pair=" + notice.code) { say(lines.joined(separator: "\n")) }
        }
        let address = Mutex<String?>(nil)
        let pairing = DevicePairing(devicesFile: folder + "/web-devices") { code in
            say("Pairing code: \(ServingNotice.spaced(code))")
            if let url = address.withLock({ $0 }) { offer(ServingNotice(address: url, code: code)) }  // once listening
        }
        let app = try makeApp(pool, pairing)
        app.watchStore()
        // The learner who only studies on the phone is backed up and indexed like one at the terminal.
        let upkeep = StoreUpkeep(pool: pool, policy: context.paths.backupPolicy(), failed: { error in
            Console.writeNow("vocab serve: the upkeep failed: \(TerminalWording.message(forAny: error))\n", to: STDERR_FILENO)
        })
        upkeep.start()
        // An Anki app's first download finds the collection file ready, as on Anki's own server.
        app.keepAnkiDownloadReady(failed: { error in
            Console.writeNow("vocab serve: the Anki collection could not be made ready: \(TerminalWording.message(forAny: error))\n", to: STDERR_FILENO)
        })
        defer { withExtendedLifetime(upkeep) {} }
        let server = try listen(options, identity, limits: options.limits) { request in app.handle(request) }
        let metrics = try serveMetrics(options, of: server)
        let url = options.address(of: server)
        address.withLock { $0 = url }
        offer(ServingNotice(address: url, code: pairing.code))  // before the line below: whoever reads that line finds the notice
        say("Serving Vocab at \(url) (Ctrl-C stops)")
        if let metrics { say("Metrics for Prometheus at http://\(metrics.host):\(metrics.server.port)/metrics") }
        stopSignal.wait()
        server.stop()
        metrics?.server.stop()
        do { try app.finishAnkiWorkLeft() } catch {
            Console.writeNow("vocab serve: an Anki sync's words are left for the next start: \(TerminalWording.message(forAny: error))\n",
                             to: STDERR_FILENO)
        }
        ServingNotice.withdraw(in: folder)
        say("Stopped.")
    }

    private static func listen(_ options: ServeOptions, _ identity: TLSIdentity?, limits: HTTPLimits = HTTPLimits(),
                               sender: (@Sendable (HTTPRequest) -> BodySender)? = nil,
                               handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws -> HTTPServer {
        do {
            return try HTTPServer(host: options.host, port: options.port, limits: limits, tls: identity, sender: sender,
                                  routeName: WebApp.routeName, handler: handler)
        } catch let error as HTTPServerError {
            throw ServeError.cannotListen(error.description)
        }
    }

    /// `/metrics` on its own address when asked (`--metrics`): what `server` counts, and the
    /// gauges it watches, as Prometheus reads them. Nothing else is served there.
    private static func serveMetrics(_ options: ServeOptions, of server: HTTPServer) throws -> (host: String, server: HTTPServer)? {
        guard let (host, port) = options.metrics else { return nil }
        var limits = HTTPLimits()
        limits.workers = 2
        limits.workersKeptForReads = 0
        limits.maximumConnections = 64
        do {
            let metrics = try HTTPServer(host: host, port: port, limits: limits) { [metrics = server.metrics] request in
                guard request.method == "GET", request.path == "/metrics" else { return HTTPResponse(status: 404) }
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                                    body: Array(metrics.exposition().utf8))
            }
            return (host, metrics)
        } catch let error as HTTPServerError {
            throw ServeError.cannotListen(error.description)
        }
    }
}

/// SIGINT and SIGTERM, caught from the moment it is made — before the server says where it
/// listens, so a stop asked for at once is never lost (it was, once: a signal that came
/// between the announcement and the handler's installation) —; `wait` blocks until one arrives.
final class StopSignal {
    private let stop = DispatchSemaphore(value: 0)
    private var sources: [DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // as libdispatch asks; the source below still hears it
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [stop] in stop.signal() }
            source.resume()
            sources.append(source)
        }
    }

    func wait() {
        stop.wait()
        sources.forEach { $0.cancel() }
    }
}

/// The options of `vocab serve`, checked before anything starts.
struct ServeOptions {
    /// `ADDR:PORT` as a host and a port.
    static func address(_ text: String, option: String) throws -> (host: String, port: UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError.invalidValue(option: option, value: text, expected: "ADDR:PORT, e.g. 127.0.0.1:8080")
        }
        return (String(text[..<colon]), port)
    }

    var host: String
    var port: UInt16
    var tls: (certificate: String, key: String)?
    var behindProxy: Bool
    var publicURL: String?
    /// Many learners: the cloud they sign in to, where their stores are kept and how much room they get.
    var cloud: ServerAddress?
    var cache: String?
    var cacheBytes: Int64 = 1 << 30
    var cloudConnections = 4
    /// The addresses whose X-Forwarded-For is trusted (the proxy's own, with --behind-proxy).
    var proxyAddresses: Set<String> = []
    /// The bounds per address, when given (0: none).
    var connectionsPerAddress: Int?
    var bodiesPerAddress: Int?

    /// Where `/metrics` is served, when asked.
    var metrics: (host: String, port: UInt16)?

    init(_ arguments: ParsedArguments) throws {
        (host, port) = try Self.address(arguments.value("listen") ?? "127.0.0.1:8080", option: "listen")
        metrics = try arguments.value("metrics").map { try Self.address($0, option: "metrics") }
        if let metrics, metrics.host == host, metrics.port == port, port != 0 { throw ServeError.metricsOnThePublicAddress }
        behindProxy = arguments.flag("behind-proxy")
        switch (arguments.value("tls-cert"), arguments.value("tls-key")) {
        case let (certificate?, key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        default: throw ServeError.tlsHalf
        }
        if tls != nil, behindProxy { throw ServeError.tlsAndProxy }
        if let list = arguments.value("proxy-address") {
            guard behindProxy else { throw ServeError.proxyAddressWithoutProxy }
            let addresses = list.split(separator: ",").map { String($0).trimmingSpaces() }
            var parsed = in_addr()
            guard !addresses.isEmpty, addresses.allSatisfy({ inet_pton(AF_INET, $0, &parsed) == 1 }) else {
                throw UsageError.invalidValue(option: "proxy-address", value: list, expected: "IPv4 addresses separated by commas, e.g. 10.0.0.5")
            }
            proxyAddresses = Set(addresses)
        } else if behindProxy {
            proxyAddresses = ["127.0.0.1"]
        }
        for (option, keep) in [("connections-per-address", \ServeOptions.connectionsPerAddress), ("bodies-per-address", \ServeOptions.bodiesPerAddress)] {
            guard let text = arguments.value(option) else { continue }
            guard let number = Int(text), (0...100_000).contains(number) else {
                throw UsageError.invalidValue(option: option, value: text, expected: "a whole number from 0 (no bound) to 100000")
            }
            self[keyPath: keep] = number
        }
        if let url = arguments.value("public-url") {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw UsageError.invalidValue(option: "public-url", value: url, expected: "an address such as https://vocab.example.org")
            }
            publicURL = url.hasSuffix("/") ? url : url + "/"
        }
        guard host.hasPrefix("127.") || tls != nil || behindProxy else { throw ServeError.notLoopback(host) }
        if let url = arguments.value("cloud") {
            cloud = try ServerAddress(url: url)
            if URLComponents(string: url)?.user == nil { cloud?.user = CloudAdministration.serverRole }
        } else if arguments.value("cache") != nil || arguments.value("cache-size") != nil || arguments.value("cloud-connections") != nil {
            throw ServeError.cacheWithoutCloud
        }
        cache = arguments.value("cache")
        if let text = arguments.value("cloud-connections") {
            guard let count = Int(text), (1...256).contains(count) else {
                throw UsageError.invalidValue(option: "cloud-connections", value: text, expected: "a whole number from 1 to 256")
            }
            cloudConnections = count
        }
        if let size = arguments.value("cache-size") {
            guard let bytes = try CloudCommands.capValue(size, option: "cache-size"), bytes >= 16 << 20 else {
                throw UsageError.invalidValue(option: "cache-size", value: size, expected: "a size of at least 16MiB, e.g. 2GiB")
            }
            cacheBytes = Int64(bytes)
        }
    }

    /// The address phones open on `server`.
    func address(of server: HTTPServer) -> String {
        publicURL ?? "\(tls == nil ? "http" : "https")://\(Self.reachableHost(host)):\(server.port)/"
    }

    /// The address a phone opens for `host`: for 0.0.0.0 (every interface), this machine's
    /// first address on a network (not loopback), if it has one.
    static func reachableHost(_ host: String) -> String {
        guard host == "0.0.0.0" else { return host }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return host }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var ip = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)) != nil
            }
            if found { return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        return host
    }

    /// The bounds of the server's connections, with the proxy it trusts.
    var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.largerBodies[DeviceRoute.Shape.push.address] = PushBounds.batchBytes
        limits.trustedProxies = proxyAddresses
        if let connectionsPerAddress { limits.connectionsPerAddress = connectionsPerAddress }
        if let bodiesPerAddress { limits.bodiesPerAddress = bodiesPerAddress }
        return limits
    }

    /// "https" when this server or the proxy in front serves TLS: cookies are then `Secure`.
    var scheme: String { tls != nil || behindProxy ? "https" : "http" }

    /// The key and certificate, read once; a key others can read is refused (it is a secret).
    func identity() throws -> TLSIdentity? {
        guard let tls else { return nil }
        var status = stat()
        guard stat(tls.key, &status) == 0 else { throw ServeError.cannotRead(tls.key) }
        guard status.st_mode & 0o077 == 0 else { throw ServeError.keyReadableByOthers(tls.key) }
        func text(_ path: String, holding marker: String, _ what: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else { throw ServeError.cannotRead(path) }
            guard let text = String(data: data, encoding: .utf8), text.contains(marker) else { throw ServeError.notPEM(path, what) }
            return text
        }
        return TLSIdentity(key: try text(tls.key, holding: "PRIVATE KEY", "a private key"),
                           certificate: try text(tls.certificate, holding: "CERTIFICATE", "a certificate"))
    }
}

/// Why `vocab serve` did not start.
enum ServeError: TerminalOnlyError {
    case notLoopback(String)
    case cannotListen(String)
    case tlsHalf
    case tlsAndProxy
    case cannotRead(String)
    case keyReadableByOthers(String)
    case notPEM(String, String)
    case cacheWithoutCloud
    case proxyAddressWithoutProxy
    case metricsOnThePublicAddress
    /// The cloud refused or could not be reached when the server started.
    case cloudRefused(CloudError)

    var category: ErrorCategory {
        if case .cloudRefused(let error) = self { return error.category }
        return .userInput
    }

    var english: String {
        switch self {
        case .notLoopback(let host):
            return "Serving \(host) needs TLS: give --tls-cert and --tls-key, or --behind-proxy when a reverse proxy serves HTTPS in front (without TLS a phone's browser keeps nothing offline, and the session cookie would cross the network in the clear)."
        case .cannotListen(let reason):
            return "Cannot serve: \(reason)."
        case .tlsHalf:
            return "--tls-cert and --tls-key go together: give both."
        case .tlsAndProxy:
            return "Give either --tls-cert/--tls-key (this server serves HTTPS) or --behind-proxy (a proxy does), not both."
        case .cannotRead(let path):
            return "Cannot read \(path)."
        case .keyReadableByOthers(let path):
            return "\(path) can be read by other users: a private key must not be (chmod 600 \(path))."
        case .cloudRefused(let error):
            let advice: String
            switch error {
            case .accessDenied, .unreachable:
                advice = " A Vocab server connects as vocab_server, with the password in PGPASSWORD or ~/.pgpass (`vocab cloud server-password` sets it)."
            default:
                advice = ""
            }
            return "The Vocab server cannot use the cloud: " + error.message + advice
        case .cacheWithoutCloud:
            return "--cache, --cache-size and --cloud-connections go with --cloud (a server of many learners)."
        case .proxyAddressWithoutProxy:
            return "--proxy-address goes with --behind-proxy (it names the proxy in front)."
        case .metricsOnThePublicAddress:
            return "--metrics needs an address of its own, not the one --listen serves: the metrics are the operator's, not the learners'."
        case .notPEM(let path, let what):
            return "\(path) is not \(what) in PEM form (the text starting with -----BEGIN)."
        }
    }
}
