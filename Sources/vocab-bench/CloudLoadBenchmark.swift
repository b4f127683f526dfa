import Foundation
import Synchronization
import VocabCore
import VocabStore
import VocabCloud
import VocabSync
import VocabCloudAPI

/// `vocab-bench cloud-load`: many users, each with several devices (a store of its own per
/// device, signed in as a terminal is), making random adds, edits, deletes and reviews and
/// syncing over HTTPS through a Vocab server (`vocab serve --cloud`, a real process on loopback)
/// in front of the local PostgreSQL — directly, and through PgBouncer when one runs. Reports syncs per second,
/// p50/p99 sync latency and errors, then checks convergence: every device of a user equals
/// the server, nothing lost or duplicated, and no user's rows reached another.
struct CloudLoadBenchmark {
    var users = 50
    var devices = 4
    var seconds = 60
    /// The server's connections to the cloud (nil: the server's default).
    var cloudConnections: Int?

    init(_ arguments: [String]) throws {
        let given = try LoadArguments.parse(arguments, usage: "vocab-bench cloud-load [--users N (1-500, default 50)] [--devices N (1-16, default 4)] [--seconds N (1-600, default 60)] "
                                                + "[--cloud-connections N (1-256, default: the server's)]",
                                            ranges: ["--users": 1...500, "--devices": 1...16, "--seconds": 1...600, "--cloud-connections": 1...256])
        cloudConnections = given["--cloud-connections"]
        users = given["--users"] ?? users
        devices = given["--devices"] ?? devices
        seconds = given["--seconds"] ?? seconds
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["VOCAB_TEST_PG_ADMIN"], let password = environment["VOCAB_TEST_PG_PASSWORD"] else {
            throw BenchError.message("cloud-load needs a PostgreSQL: run scripts/bench.sh cloud-load, which starts one")
        }
        let adminAddress = try ServerAddress(url: url)
        var routes = [("directly", adminAddress.host, adminAddress.port)]
        if let pooler = environment["VOCAB_TEST_PGBOUNCER"], let colon = pooler.lastIndex(of: ":"), let port = Int(pooler[pooler.index(after: colon)...]) {
            routes.append(("through PgBouncer (transaction pooling)", String(pooler[..<colon]), port))
        } else {
            print("cloud-load: no PgBouncer (apt-get install pgbouncer); measuring direct connections only")
        }
        for (name, host, port) in routes {
            try runOnce(route: "a Vocab server, then " + name, host: host, port: port, admin: adminAddress, adminPassword: password)
        }
    }

    private func runOnce(route: String, host: String, port: Int, admin adminAddress: ServerAddress, adminPassword: String) throws {
        let admin = try PostgresConnection(adminAddress, password: adminPassword)
        try CloudSchema.install(on: admin)
        let run = UUID().uuidString.prefix(6).lowercased()
        let work = NSTemporaryDirectory() + "vocab-cloud-load-\(run)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        // Over HTTPS, as a terminal reaches a server elsewhere: a certificate of its own, trusted
        // by the devices through the CA file a login may name.
        let (certificate, key) = try Self.makeCertificate(in: work)
        let server = try WebLoadBenchmark.CloudServer(executable: try ChildProcess.vocabProgram(), home: work + "/server",
                                                      cloud: BenchCloud.serverURL(adminAddress, host: host, port: port),
                                                      password: try BenchCloud.serverPassword(),
                                                      // A thousand devices from one loopback address (libcurl's,
                                                      // here): the bounds per address lifted, as an operator
                                                      // serving one school's address would.
                                                      extra: ["--tls-cert", certificate, "--tls-key", key,
                                                              "--connections-per-address", "0", "--bodies-per-address", "0"]
                                                        + (cloudConnections.map { ["--cloud-connections", String($0)] } ?? []))
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.port)"
        let fleet = try LoadFleet(users: users, devices: devices, work: work, base: base, certificate: certificate, admin: admin)
        print("cloud-load \(route) (HTTPS): \(users) users × \(devices) devices = \(users * devices) devices, \(seconds) s")

        let results = LoadResults()
        let elapsedSeconds = fleet.run(seconds: seconds, results: results)
        let (latencies, errors) = results.snapshot()
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print(String(format: "  %d syncs in %.1f s: %.1f syncs/s (the SQL path measured 167/s before the Vocab server was the door); latency p50 %.0f ms, p99 %.0f ms; %d errors",
                     sorted.count, elapsedSeconds, Double(sorted.count) / elapsedSeconds, percentile(0.5) * 1000,
                     percentile(0.99) * 1000, errors.values.reduce(0, +)))
        for (message, count) in errors.sorted(by: { $0.value > $1.value }).prefix(5) { print("    \(count)× \(message)") }
        BenchChecks.require(errors.isEmpty, "cloud-load: \(errors.values.reduce(0, +)) errors (target 0)")

        let (problems, totalWords) = try fleet.converge(admin: admin)
        print(problems.isEmpty
              ? "  converged: every device of every user equals the server (\(totalWords) live words), nothing duplicated, no user saw another's rows"
              : "  NOT converged: " + problems.prefix(10).joined(separator: "; "))
        BenchChecks.require(problems.isEmpty, "cloud-load: not converged (\(problems.count) problems: \(problems.prefix(3).joined(separator: "; ")))")
        try fleet.remove(admin: admin)
    }
}

extension CloudLoadBenchmark {
    /// A self-signed certificate for 127.0.0.1 made by openssl in `folder`: (certificate, key).
    static func makeCertificate(in folder: String) throws -> (String, String) {
        let certificate = folder + "/cert.pem", key = folder + "/key.pem"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                             "-days", "1", "-keyout", key, "-out", certificate]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw BenchError.message("cloud-load: openssl could not make a certificate") }
        chmod(key, 0o600)
        return (certificate, key)
    }

    /// One sync of `store` as the terminal does it: through the Vocab server of `login`.
    static func sync(_ store: Store, _ login: CloudLogin, _ timeouts: CloudTimeouts) throws -> SyncReport {
        let account = try ServerAccount(login, timeouts: timeouts)
        return try SyncEngine(store: store, channel: ServerSyncChannel(account: account), account: login.accountAddress.url,
                              learner: login.account ?? "").run()
    }
}

/// Sync latencies and errors of all devices; each sync's start, end and outcome by device;
/// and, by user, the records a sync that succeeded had sent (what the cloud acknowledged).
final class LoadResults: Sendable {
    /// One sync of one device ("user-device").
    struct SyncEvent: Sendable {
        var device: String, started: ContinuousClock.Instant, ended: ContinuousClock.Instant, succeeded: Bool
    }

    private struct State {
        var latencies: [Double] = [], errors: [String: Int] = [:], events: [SyncEvent] = [], acknowledged: [Int: Set<String>] = [:]
        /// Syncs whose closing counts disagreed and that repaired their store by a full pull
        /// (which pushes back what the cloud lacks: a loss put back, so counted as one).
        var repairs = 0
        /// Devices wait before their next sync while this is set (the failover's look at the
        /// new primary comes before any of them could put a lost record back).
        var paused = false
    }

    private let state = Mutex(State())

    func record(repairedBy device: String) { state.withLock { $0.repairs += 1 } }
    var repairs: Int { state.withLock { $0.repairs } }
    func pause(_ paused: Bool) { state.withLock { $0.paused = paused } }
    /// Returns once the devices are not paused.
    func waitWhilePaused() { while state.withLock({ $0.paused }) { usleep(20_000) } }

    func record(seconds: Double) { state.withLock { $0.latencies.append(seconds) } }
    func record(error: String) { state.withLock { $0.errors[error, default: 0] += 1 } }
    func record(_ event: SyncEvent) { state.withLock { $0.events.append(event) } }
    /// Record ids (lowercase text) of `user` that a sync the cloud answered as stored had sent.
    func acknowledge(user: Int, ids: Set<String>) { state.withLock { $0.acknowledged[user, default: []].formUnion(ids) } }
    func snapshot() -> ([Double], [String: Int]) { state.withLock { ($0.latencies, $0.errors) } }
    var events: [SyncEvent] { state.withLock { $0.events } }
    var acknowledged: [Int: Set<String>] { state.withLock { $0.acknowledged } }
}

/// One simulated device: random changes, then a sync, until the deadline. It remembers the
/// records it made or reviewed since its last good sync; a sync that succeeds acknowledges them.
struct LoadDevice {
    let user: Int, device: Int, folder: String, login: CloudLogin, timeouts: CloudTimeouts

    func run(until deadline: ContinuousClock.Instant, results: LoadResults) {
        guard let store = try? Store.open(folder: folder) else { return results.record(error: "cannot open a device store") }
        var random = SystemRandomNumberGenerator()
        var counter = 0
        var ids = TimeOrderedIDs()
        var pending: Set<String> = []
        while ContinuousClock.now < deadline {
            do {
                let words = try store.words()
                let book = try store.bookSummaries().first?.book
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    if let book {
                        counter += 1
                        let word = try store.addWord(WordDraft(word: "u\(user)-d\(device)-\(counter)", definition: "meaning \(counter)"), toBook: book.id)
                        pending.insert(word.id.lowercaseText)
                    }
                case 5..<7:
                    if let word = words.randomElement(using: &random) {
                        try store.updateWord(id: word.id, WordChanges(definition: "edited by \(device) #\(counter)"))
                    }
                case 7:
                    if let word = words.randomElement(using: &random) { try store.deleteWord(id: word.id) }
                default:
                    if let word = words.randomElement(using: &random) {
                        try store.recordReview(wordId: word.id, rating: Rating.allCases.randomElement(using: &random) ?? .good,
                                               at: .now(), source: .review, ids: &ids)
                        pending.formUnion(try store.reviewLog(wordId: word.id).map(\.id.lowercaseText))
                    }
                }
            } catch {
                results.record(error: "local change: \((error as? UserFacingError)?.message ?? "\(error)")")
            }
            results.waitWhilePaused()
            let started = ContinuousClock.now
            let sending = pending
            do {
                let report = try CloudLoadBenchmark.sync(store, login, timeouts)
                if report.repaired { results.record(repairedBy: "\(user)-\(device)") }
                let elapsed = started.duration(to: .now)
                results.record(seconds: elapsed.seconds)
                results.acknowledge(user: user, ids: sending)
                pending.subtract(sending)
                results.record(LoadResults.SyncEvent(device: "\(user)-\(device)", started: started, ended: .now, succeeded: true))
            } catch {
                results.record(error: (error as? UserFacingError)?.message ?? "\(error)")
                results.record(LoadResults.SyncEvent(device: "\(user)-\(device)", started: started, ended: .now, succeeded: false))
            }
        }
    }
}

/// The options of the load benchmarks: `--name N` numbers within a range, and `--help`.
enum LoadArguments {
    /// The numbers given, by option name.
    static func parse(_ arguments: [String], usage: String, ranges: [String: ClosedRange<Int>]) throws -> [String: Int] {
        var given: [String: Int] = [:]
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            if name == "--help" || name == "-h" {
                print("Usage: " + usage)
                exit(0)
            }
            guard let range = ranges[name] else { throw BenchError.message("unknown option \(name) (see --help)") }
            index += 1
            guard index < arguments.count, let value = Int(arguments[index]), range.contains(value) else {
                throw BenchError.message("\(name) needs a number in \(range.lowerBound)...\(range.upperBound)")
            }
            given[name] = value
            index += 1
        }
        return given
    }
}
