import Foundation
import VocabCore
import VocabStore
import VocabSync

/// The first sync of a whole account against `psql \copy` of the same rows into the same
/// server, and an incremental sync of 10 changed words in accounts of 10k and 100k words.
struct SyncBenchmark {
    let options: BenchOptions

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["VOCAB_TEST_PG_ADMIN"], let password = environment["VOCAB_TEST_PG_PASSWORD"] else {
            BenchChecks.referenceMissing("sync", "no PostgreSQL: run scripts/bench.sh, which starts one", skipWith: "--skip-sync")
            return
        }
        guard let psql = ChildProcess.which("psql") else { throw BenchError.message("the reference needs psql (apt-get install postgresql-client)") }
        let adminAddress = try ServerAddress(url: url)
        let admin = try PostgresConnection(adminAddress, password: password)
        try CloudSchema.install(on: admin)
        let work = NSTemporaryDirectory() + "vocab-bench-sync-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        var incremental: [(Int, Double, Int, Int)] = []
        let clock = ContinuousClock()
        for size in [options.rows / 10, options.rows] {
            // One imported store; each first sync runs on a fresh copy of it, into a fresh account.
            let pristine = work + "/pristine-\(size)"
            do {
                let store = try Store.open(folder: pristine)
                let csv = work + "/words-\(size).csv"
                try DataSet.writeCSV(rows: size, to: csv, seed: UInt64(size) + 1)
                var reader = try WordFileReader(try FileStream(path: csv), format: .csv)
                _ = try WordImporter(defaultBook: "Bench").run(&reader, into: store)
            }
            if size == options.rows {
                // What reading the whole outbox costs the client, on a copy of the store.
                let copy = work + "/reading-\(size)"
                try FileManager.default.copyItem(atPath: pristine, toPath: copy)
                let copyStore = try Store.open(folder: copy)
                _ = try copyStore.syncToken(for: "postgresql://bench")  // bound: everything queued, as at a first sync
                var count = 0
                let reading = try clock.measure {
                    count = try copyStore.outbox(limit: size + 10).count
                }
                print(String(format: "  (reading the %d records to push from the store: %.2f s)", count, reading.seconds))
            }
            let runs = size == options.rows ? options.runs : 1
            var firstSyncs: [Double] = []
            var account: (name: String, address: ServerAddress, store: Store)?
            var report = SyncReport()
            for _ in 0..<runs {
                let name = "bench_\(size)_\(UInt32.random(in: 0...UInt32.max))"
                try CloudSchema.addUser(name, password: "bench", on: admin)
                var address = adminAddress
                address.user = name
                try FileManager.default.copyItem(atPath: pristine, toPath: work + "/\(name)")
                let store = try Store.open(folder: work + "/\(name)")
                firstSyncs.append(try clock.measure {
                    report = try SyncEngine(store: store, connection: try PostgresConnection(address, password: "bench")).run()
                }.seconds)
                account = (name, address, store)
            }
            guard let (name, address, store) = account else { continue }
            let first = firstSyncs.min() ?? 0
            if size == options.rows {
                // The reference: the rows the sync stored, as COPY text, into a table shaped like vocab.records.
                let copyFile = work + "/copy-\(size).tsv"
                let rows = try admin.execute("SELECT kind, id::text, body::text FROM vocab.records WHERE owner = $1 ORDER BY seq", [name])
                var text: [UInt8] = []
                for (index, row) in rows.enumerated() {
                    text += "\(name)\t\(row[0] ?? "")\t\(row[1] ?? "")\t\(index + 1)\tf\t".utf8
                    text += (row[2] ?? "{}").replacingOccurrences(of: "\\", with: "\\\\").utf8
                    text.append(UInt8(ascii: "\n"))
                }
                try Data(text).write(to: URL(fileURLWithPath: copyFile))
                var references: [Double] = []
                for _ in 0..<options.runs {
                    try admin.execute("DROP TABLE IF EXISTS public.bench_copy; CREATE TABLE public.bench_copy (LIKE vocab.records INCLUDING ALL)")
                    references.append(try ChildProcess.measure(psql, ["-q", "-h", adminAddress.host, "-p", String(adminAddress.port),
                                                                      "-U", adminAddress.user, "-d", adminAddress.database,
                                                                      "-c", "\\copy public.bench_copy FROM '\(copyFile)'"],
                                                               environment: ["PGPASSWORD": password]).seconds)
                }
                try admin.execute("DROP TABLE public.bench_copy")
                let reference = references.min() ?? 0
                print(String(format: "first sync of %d words (%d records): vocab sync %.2f s, psql \\copy %.2f s, ratio %.2fx (target <= 2x; best of %d each)",
                             size, report.pushed, first, reference, first / max(reference, 1e-9), options.runs))
            } else {
                print(String(format: "first sync of %d words: %.2f s (%d records pushed)", size, first, report.pushed))
            }

            // Ten words change on this device; one sync takes them up (best of five rounds).
            let connection = try PostgresConnection(address, password: "bench")
            var small = SyncReport()
            var best = Duration.seconds(3600)
            // The words to change are picked before the rounds: reading all 100,000 words before
            // each round (as this bench did) left the caches and the heap to the next sync,
            // which then grew with the account for reasons of the bench's own.
            let changing = try store.words().prefix(50).map(\.id)
            for round in 0..<5 {
                try store.transaction {
                    for id in changing.dropFirst(round * 10).prefix(10) {
                        try store.updateWord(id: id, WordChanges(detail: "changed \(UUID().uuidString)"))
                    }
                }
                best = min(best, try clock.measure { small = try SyncEngine(store: store, connection: connection).run() })
            }
            incremental.append((size, best.milliseconds, small.pushed, small.pulled))
        }
        for (size, ms, pushed, pulled) in incremental {
            print(String(format: "incremental sync of 10 changed words in an account of %d words: %.1f ms, %d records pushed, %d pulled (target < 50 ms, flat)",
                         size, ms, pushed, pulled))
        }
        if incremental.count == 2 {
            print(String(format: "growth 10x account: incremental sync %.2fx", incremental[1].1 / max(incremental[0].1, 1e-9)))
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
