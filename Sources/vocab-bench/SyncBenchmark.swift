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
            print("sync: skipped (no PostgreSQL; run scripts/bench.sh, which starts one)")
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
        for size in [options.rows / 10, options.rows] {
            let name = "bench_\(size)_\(UInt32.random(in: 0...UInt32.max))"
            try CloudSchema.addUser(name, password: "bench", on: admin)
            var address = adminAddress
            address.user = name
            let store = try Store.open(folder: work + "/\(name)")
            let csv = work + "/words-\(size).csv"
            try DataSet.writeCSV(rows: size, to: csv, seed: UInt64(size) + 1)
            var reader = try WordFileReader(try FileStream(path: csv), format: .csv)
            _ = try WordImporter(defaultBook: "Bench").run(&reader, into: store)
            try store.expandOutboxRanges()
            let records = try store.outbox(limit: size + 10).map(\.record)

            let clock = ContinuousClock()
            var report = SyncReport()
            let first = try clock.measure {
                report = try SyncEngine(store: store, connection: try PostgresConnection(address, password: "bench")).run()
            }
            if size == options.rows {
                // The reference: the same rows, as COPY text, into a table shaped like vocab.records.
                let copyFile = work + "/copy-\(size).tsv"
                var text = ""
                for (index, record) in records.enumerated() {
                    let body = record.body.replacingOccurrences(of: "\\", with: "\\\\")
                    text += "\(name)\t\(record.kind)\t\(record.id.lowercaseText)\t\(index + 1)\tf\t\(body)\n"
                }
                try text.write(toFile: copyFile, atomically: true, encoding: .utf8)
                try admin.execute("DROP TABLE IF EXISTS public.bench_copy; CREATE TABLE public.bench_copy (LIKE vocab.records INCLUDING ALL)")
                let reference = try ChildProcess.measure(psql, ["-q", "-h", adminAddress.host, "-p", String(adminAddress.port), "-U", adminAddress.user,
                                                                "-d", adminAddress.database, "-c", "\\copy public.bench_copy FROM '\(copyFile)'"],
                                                         environment: ["PGPASSWORD": password])
                print(String(format: "first sync of %d words (%d records): vocab sync %.2f s, psql \\copy %.2f s, ratio %.2fx (target <= 2x)",
                             size, report.pushed, first.seconds, reference.seconds, first.seconds / max(reference.seconds, 1e-9)))
                try admin.execute("DROP TABLE public.bench_copy")
            } else {
                print(String(format: "first sync of %d words: %.2f s (%d records pushed)", size, first.seconds, report.pushed))
            }

            // Ten words change on this device; one sync takes them up (best of five rounds).
            let connection = try PostgresConnection(address, password: "bench")
            var small = SyncReport()
            var best = Duration.seconds(3600)
            for round in 0..<5 {
                let words = try store.words().dropFirst(round * 10).prefix(10)
                try store.transaction {
                    for word in words { try store.updateWord(id: word.id, WordChanges(detail: "changed \(UUID().uuidString)")) }
                }
                best = min(best, try clock.measure { small = try SyncEngine(store: store, connection: connection).run() })
            }
            let time = best
            incremental.append((size, time.milliseconds, small.pushed, small.pulled))
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
