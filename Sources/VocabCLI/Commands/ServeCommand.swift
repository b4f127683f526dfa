import Dispatch
import Foundation
import VocabCatalog
import VocabCore
import VocabSessions
import VocabStore
import VocabWeb
#if canImport(Glibc)
import Glibc
#endif

/// `vocab serve`: the web app, served by Vocab itself to the browsers of this machine (a
/// phone's, through a reverse proxy with TLS, to come), over the same store as the terminal
/// and the window.
enum ServeCommand {
    static let command = Command(spec: CommandSpec(
        name: "serve", abstract: "Serve the web app to a browser (paired with a one-time code).",
        options: [OptionSpec("listen", value: "ADDR:PORT", help: "Where to listen (default 127.0.0.1:8080; port 0: any free one).")],
        discussion: """
            Open the address in a browser and type the pairing code shown here; each code pairs one device. \
            It listens on this machine only: serving other machines needs TLS, which is not built yet. \
            Stops on Ctrl-C.
            """,
        examples: ["vocab serve", "vocab serve --listen 127.0.0.1:9000"]
    )) { arguments, context in
        let (host, port) = try listenAddress(arguments.value("listen") ?? "127.0.0.1:8080")
        let pool = try StorePool(folder: try context.dataFolder())
        // The server's lines go out at once (a person, or a script, waits for them).
        let say: @Sendable (String) -> Void = { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        let pairing = DevicePairing(devicesFile: try context.dataFolder() + "/web-devices") { code in say("Pairing code: \(code.prefix(4))-\(code.dropFirst(4))") }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let catalogs = Catalog.languages(executable: executable)
            .map { Catalog.load(language: $0, environment: context.environment, executable: executable) }
        let app = WebApp(pool: pool, pairing: pairing, dictionaries: try context.paths.dictionaries(), catalogs: catalogs,
                         clock: SystemClock(), studyDay: try context.paths.studyDay())
        app.watchStore()
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: port) { request in app.handle(request) }
        } catch let error as HTTPServerError {
            throw ServeError.cannotListen(error.description)
        }
        say("Serving Vocab at http://\(host):\(server.port)/ (Ctrl-C stops)")
        waitForStopSignal()
        server.stop()
        say("Stopped.")
    }

    /// "127.0.0.1:8080" → ("127.0.0.1", 8080); anything but a loopback address is refused (no TLS yet).
    static func listenAddress(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError.invalidValue(option: "listen", value: text, expected: "ADDR:PORT, e.g. 127.0.0.1:8080")
        }
        let host = String(text[..<colon])
        guard host.hasPrefix("127.") else { throw ServeError.notLoopback(host) }
        return (host, port)
    }

    /// Blocks until SIGINT or SIGTERM.
    private static func waitForStopSignal() {
        let stop = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        stop.wait()
        sources.forEach { $0.cancel() }
    }
}

/// Why `vocab serve` did not start.
enum ServeError: UserFacingError {
    case notLoopback(String)
    case cannotListen(String)

    var category: ErrorCategory { .userInput }

    var message: String {
        switch self {
        case .notLoopback(let host):
            return "vocab serve listens on this machine only (127.0.0.1) for now: serving \(host) needs TLS, which is not built yet."
        case .cannotListen(let reason):
            return "Cannot serve: \(reason)."
        }
    }
}
