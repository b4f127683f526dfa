import Foundation
import VocabCloud
import VocabSync
import VocabCloudAPI

/// `vocab-bench failover`: `cloud-load` on a cloud of two PostgreSQL nodes under
/// pg_auto_failover (scripts/bench.sh starts a monitor, a primary and a synchronous standby),
/// through a Vocab server started with their multi-host address. Four runs of fresh learners:
/// steady with synchronous replication, steady with the primary's commits not waiting for the
/// standby (`synchronous_commit = local` for the server role: one node's cost, same machine,
/// same run), then the primary killed with SIGKILL mid-run, then the standby. At each kill the
/// devices hold their next sync until every record a device was told was stored has been looked
/// up on the new primary one by one (no sync's repair can put a lost one back first); then the
/// time from the kill until every device synced again (which includes that look), every
/// device's last sync a success, no sync that repaired its store (a repair puts a loss back, so
/// it counts as one), the acknowledged records again at the end, and every device converged.
struct FailoverBenchmark {
    var users = 20
    var devices = 3
    var seconds = 40
    var killAfter = 10
    var readers = 2

    init(_ arguments: [String]) throws {
        let given = try LoadArguments.parse(arguments, usage: "vocab-bench failover [--users N (1-200, default 20)] [--devices N (1-8, default 3)] "
                                                + "[--seconds N (20-600, default 40)] [--kill-after N (2-60, default 10)] [--readers N (0-16, default 2; 0: no reads run)]",
                                            ranges: ["--users": 1...200, "--devices": 1...8, "--seconds": 20...600, "--kill-after": 2...60,
                                                     "--readers": 0...16])
        users = given["--users"] ?? users
        devices = given["--devices"] ?? devices
        seconds = given["--seconds"] ?? seconds
        killAfter = given["--kill-after"] ?? killAfter
        readers = given["--readers"] ?? readers
        guard killAfter < seconds - 10 else { throw BenchError.message("--kill-after must leave at least 10 s of --seconds after the kill") }
    }

    private let environment = ProcessInfo.processInfo.environment

    func run() throws {
        guard let url = environment["VOCAB_TEST_FAILOVER_ADMIN"], let control = environment["VOCAB_TEST_FAILOVER_CTL"] else {
            throw BenchError.message("failover needs two PostgreSQL nodes under pg_auto_failover: run scripts/bench.sh failover, which starts them "
                                     + "(apt-get install pg-auto-failover-cli postgresql-15-auto-failover)")
        }
        let address = try ServerAddress(url: url)
        let cluster = FailoverCluster(control: control)
        try cluster.waitUntilHealthy()
        let admin = try PostgresConnection(address, password: nil)
        try CloudSchema.install(on: admin)
        try CloudSchema.setServerPassword(try BenchCloud.serverPassword(), on: admin)
        print("failover: \(users) users × \(devices) devices through one Vocab server (HTTPS) on \(address.server), \(seconds) s a run")

        let replicated = try steady(address, "synchronous replication (the standby confirms each commit)")
        try admin.execute("ALTER ROLE \(CloudSchema.serverRole) SET synchronous_commit = local")
        let alone: Double
        do {
            defer { _ = try? admin.execute("ALTER ROLE \(CloudSchema.serverRole) RESET synchronous_commit") }
            alone = try steady(address, "one node's commit (synchronous_commit = local: the standby not waited for)")
        }
        if alone > 0 { print(String(format: "  synchronous replication: %.2fx one node's syncs/s", replicated / alone)) }
        if readers > 0 { try standbyReads(address, admin: admin) }

        try killed("kill-primary", "the primary", address, cluster, target: 30)
        try killed("kill-standby", "the standby", address, cluster, target: 30)
    }

    /// A run without a kill; returns its syncs per second.
    private func steady(_ address: ServerAddress, _ name: String) throws -> Double {
        try withFleet(address) { fleet, connect in
            let results = LoadResults()
            let elapsed = fleet.run(seconds: seconds, results: results)
            let (latencies, errors) = results.snapshot()
            let sorted = latencies.sorted()
            let rate = Double(sorted.count) / elapsed
            print(String(format: "  %@: %.1f syncs/s, p50 %.0f ms, p99 %.0f ms, %d errors", name, rate,
                         percentile(sorted, 0.5) * 1000, percentile(sorted, 0.99) * 1000, errors.values.reduce(0, +)))
            BenchChecks.require(errors.isEmpty, "failover, \(name): \(errors.values.reduce(0, +)) errors (target 0)")
            try check(fleet, results, admin: try connect(), name)
            return rate
        }
    }

    /// Two runs with the catalogue searched meanwhile: on the primary, then on the standby.
    private func standbyReads(_ address: ServerAddress, admin: PostgresConnection) throws {
        let reads = StandbyReads(address: address, readers: readers)
        let owner = "bfo_reads_\(UUID().uuidString.prefix(6).lowercased())"
        defer { _ = try? admin.execute("DELETE FROM vocab.shares WHERE owner = $1", [owner]) }
        try reads.seed(admin: admin, owner: owner)
        var rates: [(syncs: Double, searches: Double)] = []
        for kind in ["primary", "standby"] {
            try withFleet(address) { fleet, _ in
                let results = LoadResults()
                let waitForReaders = reads.searches(on: kind, until: .now + .seconds(seconds))
                let elapsed = fleet.run(seconds: seconds, results: results)
                let (found, failed) = waitForReaders()
                let (latencies, errors) = results.snapshot()
                let syncs = Double(latencies.count) / elapsed, searches = Double(found) / elapsed
                print(String(format: "  %d threads searching %d listed books on the %@ meanwhile: %.1f syncs/s (p50 %.0f ms), %.1f searches/s, %d failed",
                             readers, reads.listed, kind, syncs, percentile(latencies.sorted(), 0.5) * 1000, searches, failed))
                BenchChecks.require(errors.isEmpty && failed == 0, "failover, searches on the \(kind): \(errors.values.reduce(0, +)) syncs and \(failed) searches failed")
                rates.append((syncs, searches))
            }
        }
        if rates.count == 2, rates[0].syncs > 0, rates[0].searches > 0 {
            print(String(format: "  the searches on the standby rather than the primary: %.2fx the syncs/s, %.2fx the searches/s",
                         rates[1].syncs / rates[0].syncs, rates[1].searches / rates[0].searches))
        }
    }

    /// A run in which `command` (the control script's) kills a node `killAfter` seconds in.
    private func killed(_ command: String, _ name: String, _ address: ServerAddress, _ cluster: FailoverCluster, target: Double) throws {
        try withFleet(address) { fleet, connect in
            let results = LoadResults()
            var killedAt = ContinuousClock.now
            var lostNode = ""
            var atFailover: (checked: Int, lost: [String])?
            fleet.run(seconds: seconds, results: results) {
                sleep(UInt32(killAfter))
                // From the kill on, no device starts a sync until every record acknowledged so far
                // has been looked up on the new primary: a sync's repair (a full pull pushing back
                // what the cloud lacks) must not put a lost record back before it is looked for.
                results.pause(true)
                defer { results.pause(false) }
                lostNode = (try? cluster.run(command)) ?? ""
                killedAt = .now  // the script returns once every process of the node is killed
                atFailover = try? fleet.lost(results, admin: try waitForPrimary(connect))
            }
            BenchChecks.require(!lostNode.isEmpty, "failover: the control script could not kill \(name)")
            if let atFailover {
                print("    acknowledged records lost at the failover, looked up on the new primary before any device synced again: "
                      + "\(atFailover.lost.count) of \(atFailover.checked) (target 0)")
                let lost = atFailover.lost.prefix(3).joined(separator: ", ")
                BenchChecks.require(atFailover.lost.isEmpty && atFailover.checked > 0, "failover, \(name) killed: \(atFailover.lost.count) acknowledged records lost at the failover (target 0): \(lost)")
            } else {
                BenchChecks.fail("failover, \(name) killed: no primary took the writes within two minutes")
            }
            let events = results.events
            var againAfter: [Double] = []
            var neverAgain = 0, endedFailing = 0
            for device in Set(events.map(\.device)) {
                let own = events.filter { $0.device == device }
                if let last = own.max(by: { $0.ended < $1.ended }), !last.succeeded { endedFailing += 1 }
                if let again = own.filter({ $0.succeeded && $0.ended > killedAt && $0.started > killedAt }).map(\.ended).min() {
                    againAfter.append(killedAt.duration(to: again).seconds)
                } else {
                    neverAgain += 1
                }
            }
            let failed = events.filter { !$0.succeeded }.count
            let every = againAfter.max() ?? .infinity
            print(String(format: "  %@ (%@) killed with SIGKILL %d s in: every device synced again %.1f s after the kill (the first %.1f s); "
                         + "%d of %d syncs failed meanwhile and were retried; %d devices ended on an error, %d never synced again",
                         name, lostNode, killAfter, every, againAfter.min() ?? .infinity, failed, events.count, endedFailing, neverAgain))
            for (message, count) in results.snapshot().1.sorted(by: { $0.value > $1.value }).prefix(3) { print("    \(count)× \(message)") }
            BenchChecks.require(neverAgain == 0 && endedFailing == 0, "failover, \(name) killed: \(neverAgain) devices never synced again, \(endedFailing) ended on an error")
            BenchChecks.require(every < target, String(format: "failover, %@ killed: syncs stopped %.1f s (target < %.0f s)", name, every, target))
            try check(fleet, results, admin: try connect(), name + " killed")
            try cluster.revive(lostNode)
        }
    }

    /// A connection to the node that takes writes, once one does (two minutes at most).
    private func waitForPrimary(_ connect: () throws -> PostgresConnection) throws -> PostgresConnection {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let connection = try? connect(), (try? connection.execute("SELECT pg_is_in_recovery()::text"))?.first?.first == "false" {
                return connection
            }
            usleep(100_000)
        }
        throw BenchError.message("no primary within two minutes")
    }

    /// Every acknowledged record held, no sync repaired a loss, then every device converged.
    private func check(_ fleet: LoadFleet, _ results: LoadResults, admin: PostgresConnection, _ name: String) throws {
        let (checked, lost) = try fleet.lost(results, admin: admin)
        print("    acknowledged records lost: \(lost.count) of \(checked) checked one by one (target 0); "
              + "syncs that repaired their store by a full pull, counted as losses: \(results.repairs) (target 0)")
        BenchChecks.require(lost.isEmpty && checked > 0, "failover, \(name): \(lost.count) acknowledged records lost (\(lost.prefix(3).joined(separator: ", ")))")
        BenchChecks.require(results.repairs == 0, "failover, \(name): \(results.repairs) syncs repaired their store, a loss the sync put back (target 0)")
        let (problems, words) = try fleet.converge(admin: admin)
        print(problems.isEmpty ? "    converged: every device equals the cloud (\(words) live words)" : "    NOT converged: " + problems.prefix(5).joined(separator: "; "))
        BenchChecks.require(problems.isEmpty, "failover, \(name): not converged (\(problems.prefix(3).joined(separator: "; ")))")
    }

    /// Fresh learners on a fresh Vocab server of the cloud at `address`; `body` gets them and an
    /// administrator's connection made after it ran (the primary may have changed).
    private func withFleet<T>(_ address: ServerAddress, _ body: (LoadFleet, () throws -> PostgresConnection) throws -> T) throws -> T {
        let work = NSTemporaryDirectory() + "vocab-failover-\(UUID().uuidString.prefix(6).lowercased())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (certificate, key) = try CloudLoadBenchmark.makeCertificate(in: work)
        var serverAddress = address
        serverAddress.user = CloudSchema.serverRole
        let server = try WebLoadBenchmark.CloudServer(executable: try ChildProcess.vocabProgram(), home: work + "/server", cloud: serverAddress.url,
                                                      password: try BenchCloud.serverPassword(),
                                                      extra: ["--tls-cert", certificate, "--tls-key", key,
                                                              "--connections-per-address", "0", "--bodies-per-address", "0"])
        defer { server.stop() }
        let fleet = try LoadFleet(users: users, devices: devices, work: work, base: "https://127.0.0.1:\(server.port)", certificate: certificate,
                                  admin: try PostgresConnection(address, password: nil))
        let result = try body(fleet) { try PostgresConnection(address, password: nil) }
        try? fleet.remove(admin: try PostgresConnection(address, password: nil))
        return result
    }
}

/// The control script of the cloud's two nodes (scripts/services.sh, start_failover_cluster).
struct FailoverCluster {
    let control: String

    /// Runs `arguments` through the script; returns what it printed.
    @discardableResult
    func run(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: control)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.message("\(control) \(arguments.joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits (two minutes at most) until one node is primary and the other its synchronous standby.
    func waitUntilHealthy() throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let state = (try? run("state")) ?? ""
            if state.range(of: #"\| +secondary +\| +secondary"#, options: .regularExpression) != nil,
               state.range(of: #"\| +primary +\| +primary"#, options: .regularExpression) != nil { return }
            usleep(250_000)
        }
        throw BenchError.message("the cloud's two nodes did not become a primary and its standby within two minutes")
    }

    /// Starts the lost node's keeper again and waits until it is the standby.
    func revive(_ node: String) throws {
        try run("revive", node)
        try waitUntilHealthy()
    }
}

private func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

