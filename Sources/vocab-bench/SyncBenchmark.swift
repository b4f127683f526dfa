import Foundation
import VocabCore
import VocabStore
import VocabCloud
import VocabSync
import VocabCloudAPI

/// The first sync of a whole account against `psql \copy` of the same rows into the same
/// server, and an incremental sync of 10 changed words in accounts of 10k and 100k words (and
/// two reviews a word, synced before): the cloud's functions as a Vocab server runs them (its
/// role, a device's key), then the whole way a device goes (HTTP to `vocab serve --cloud`).
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
        let tier = try BenchCloud.connect(adminAddress)
        let work = NSTemporaryDirectory() + "vocab-bench-sync-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        // The accounts made here go at the end: left, they grew the records table run after
        // run, and later first syncs went into a larger table than the reference's.
        let made = MadeAccounts()
        defer { made.remove(on: admin) }

        var incremental: [(Int, Double, Int, Int)] = []
        var copyReference: Double?
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
            // The reference: the same words, read from the source file (never from what the
            // sync stored), as COPY text of records shaped as the sync's, into a table shaped
            // like vocab.records; the two run in turns.
            var copyFile: String?
            if size == options.rows {
                let file = work + "/copy-\(size).tsv"
                try writeCopyRows(fromCSV: work + "/words-\(size).csv", to: file)
                copyFile = file
            }
            var firstSyncs: [Double] = [], references: [Double] = []
            var account: (name: String, address: ServerAddress, store: Store, device: DeviceKey)?
            var report = SyncReport()
            for _ in 0..<runs {
                let name = "bench_\(size)_\(UInt32.random(in: 0...UInt32.max))"
                try CloudSchema.addUser(name, password: "bench", on: admin)
                made.names.append(name)
                var address = adminAddress
                address.user = name
                let device = try BenchCloud.device(name, password: "bench", on: tier)
                try FileManager.default.copyItem(atPath: pristine, toPath: work + "/\(name)")
                let store = try Store.open(folder: work + "/\(name)")
                firstSyncs.append(try clock.measure {
                    report = try SyncEngine(store: store, connection: tier, device: device, account: address).run()
                }.seconds)
                let stored = try admin.execute("SELECT count(*)::text FROM vocab.records WHERE owner = $1", [name]).first?.first ?? nil
                BenchChecks.require(stored == String(size + 1), "sync: the server holds \(stored ?? "no") records for \(size) words and their book, \(size + 1) expected")
                account = (name, address, store, device)
                if let copyFile {
                    try admin.execute("DROP TABLE IF EXISTS public.bench_copy; CREATE TABLE public.bench_copy (LIKE vocab.records INCLUDING ALL)")
                    references.append(try ChildProcess.measure(psql, ["-q", "-h", adminAddress.host, "-p", String(adminAddress.port),
                                                                      "-U", adminAddress.user, "-d", adminAddress.database,
                                                                      "-c", "\\copy public.bench_copy (owner, kind, id, seq, deleted, body) FROM '\(copyFile)'"],
                                                               environment: ["PGPASSWORD": password]).seconds)
                    let copied = try admin.execute("SELECT count(*)::text FROM public.bench_copy").first?.first ?? nil
                    BenchChecks.require(copied == String(size), "sync: psql \\copy stored \(copied ?? "no") rows of \(size)")
                }
            }
            if copyFile != nil { try admin.execute("DROP TABLE IF EXISTS public.bench_copy") }
            guard let (name, address, store, device) = account else { continue }
            _ = name
            let first = firstSyncs.min() ?? 0
            if let reference = references.min() {
                copyReference = reference
                let ratio = first / max(reference, 1e-9)
                print(String(format: "first sync of %d words (%d records), the cloud's functions as the server runs them: %.2f s, psql \\copy of the same words from the file %.2f s, ratio %.2fx (target <= 2x; best of %d each, in turns)",
                             size, report.pushed, first, reference, ratio, options.runs))
                BenchChecks.target("first sync of \(size) words: \(String(format: "%.2f", ratio))x psql \\copy", ratio, atMost: 2)
            } else {
                print(String(format: "first sync of %d words: %.2f s (%d records pushed)", size, first, report.pushed))
            }

            try Self.addHistory(to: store) { _ = try SyncEngine(store: store, connection: tier, device: device, account: address).run() }
            // Ten words change on this device; one sync takes them up (best of fifteen rounds: a sync
            // of a few milliseconds on two busy cores varies by half from round to round).
            var small = SyncReport()
            var best = Duration.seconds(3600)
            // The words to change are picked before the rounds: reading all 100,000 words before
            // each round (as this bench did) left the caches and the heap to the next sync,
            // which then grew with the account for reasons of the bench's own.
            let changing = try store.words().prefix(150).map(\.id)
            for round in 0..<15 {
                try store.transaction {
                    for id in changing.dropFirst(round * 10).prefix(10) {
                        try store.updateWord(id: id, WordChanges(detail: "changed \(UUID().uuidString)"))
                    }
                }
                best = min(best, try clock.measure { small = try SyncEngine(store: store, connection: tier, device: device, account: address).run() })
            }
            incremental.append((size, best.milliseconds, small.pushed, small.pulled))
        }
        for (size, ms, pushed, pulled) in incremental {
            print(String(format: "incremental sync of 10 changed words in an account of %d words and %d reviews (the cloud's functions): %.1f ms, %d records pushed, %d pulled (target < 50 ms, flat)",
                         size, size * Self.reviewsPerWord, ms, pushed, pulled))
            BenchChecks.target("incremental sync at \(size) words (the cloud's functions): \(String(format: "%.1f", ms)) ms", ms, atMost: 50)
        }
        if incremental.count == 2 {
            let growth = incremental[1].1 / max(incremental[0].1, 1e-9)
            print(String(format: "growth 10x account: incremental sync %.2fx (target <= 1.2x)", growth))
            BenchChecks.target("incremental sync (the cloud's functions), 10x account: \(String(format: "%.2f", growth))x", growth, atMost: 1.2)
        }
        let small = try throughTheServer(pristine: work + "/pristine-\(options.rows / 10)", words: options.rows / 10, reference: nil,
                                         admin: admin, adminAddress: adminAddress, work: work, made: made)
        let large = try throughTheServer(pristine: work + "/pristine-\(options.rows)", words: options.rows, reference: copyReference,
                                         admin: admin, adminAddress: adminAddress, work: work, made: made)
        let growth = large / max(small, 1e-9)
        print(String(format: "growth 10x account through the Vocab server: incremental sync %.2fx (target <= 1.2x)", growth))
        BenchChecks.target("incremental sync through the Vocab server, 10x account: \(String(format: "%.2f", growth))x", growth, atMost: 1.2)
    }

    /// The same first sync and ten changes as a device does it: over HTTP to a Vocab server
    /// (`vocab serve --cloud` beside the bench, on loopback) in front of the same PostgreSQL.
    /// Returns the incremental sync's time in milliseconds.
    private func throughTheServer(pristine: String, words: Int, reference: Double?, admin: PostgresConnection,
                                  adminAddress: ServerAddress, work: String, made: MadeAccounts) throws -> Double {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: try ChildProcess.vocabProgram())
        server.arguments = ["serve", "--cloud", BenchCloud.serverURL(adminAddress), "--listen", "127.0.0.1:0", "--cache", work + "/server-cache"]
        server.environment = ProcessInfo.processInfo.environment.merging(["VOCAB_HOME": work + "/server-home", "XDG_CONFIG_HOME": work + "/server-config",
                                                                          "PGPASSWORD": try BenchCloud.serverPassword()]) { $1 }
        let pipe = Pipe()
        server.standardOutput = pipe
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.interrupt(); server.waitUntilExit() }
        var text = "", base: String?
        while base == nil {
            let data = pipe.fileHandleForReading.availableData
            guard !data.isEmpty else { throw BenchError.message("vocab serve --cloud did not start: \(text)") }
            text += String(decoding: data, as: UTF8.self)
            base = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression).map { String(text[$0]) }
        }
        guard let base else { return 0 }
        let clock = ContinuousClock()
        // As a device syncs (two batches of new records on their way at once), and, in turns with
        // it, one batch at a time (as before devices sent them ahead).
        var best = Double.infinity, bestOneAtATime = Double.infinity, report = SyncReport()
        var last: (store: Store, account: ServerAccount)?
        for run in 0..<options.runs {
            for ahead in [1, 2] {
                let name = "bench_http_\(run)_\(ahead)_\(UInt32.random(in: 0...UInt32.max))"
                try CloudSchema.addUser(name, password: "bench", on: admin)
                made.names.append(name)
                let login = try ServerAccount.signIn(url: base, user: name, password: "bench", label: "bench")
                let account = try ServerAccount(login)
                try FileManager.default.copyItem(atPath: pristine, toPath: work + "/\(name)")
                let store = try Store.open(folder: work + "/\(name)")
                let seconds = try clock.measure {
                    report = try SyncEngine(store: store, channel: ServerSyncChannel(account: account, pushesAhead: ahead),
                                            account: login.accountAddress.url, learner: name).run()
                }.seconds
                let stored = try admin.execute("SELECT count(*)::text FROM vocab.records WHERE owner = $1", [name]).first?.first ?? nil
                BenchChecks.require(stored == String(words + 1), "sync over HTTP: the server holds \(stored ?? "no") records, \(words + 1) expected")
                if ahead == 1 {
                    bestOneAtATime = min(bestOneAtATime, seconds)
                } else {
                    best = min(best, seconds)
                    last = (store, account)
                }
            }
        }
        let ratio = reference.map { best / max($0, 1e-9) }
        print(String(format: "first sync of %d words through the Vocab server (HTTP, loopback): %.2f s, %d records%@ (target <= 1.5x); one batch at a time: %.2f s%@",
                     words, best, report.pushed, ratio.map { String(format: ", %.2fx psql \\copy of the same words", $0) } ?? "",
                     bestOneAtATime, reference.map { String(format: ", %.2fx", bestOneAtATime / max($0, 1e-9)) } ?? ""))
        if let ratio { BenchChecks.target("first sync through the Vocab server: \(String(format: "%.2f", ratio))x psql \\copy", ratio, atMost: 1.5) }
        guard let (store, account) = last else { return 0 }
        try Self.addHistory(to: store) {
            _ = try SyncEngine(store: store, channel: ServerSyncChannel(account: account), account: account.login.accountAddress.url,
                               learner: account.login.account ?? "").run()
        }
        let changing = try store.words().prefix(150).map(\.id)
        var small = Duration.seconds(3600)
        for round in 0..<15 {
            try store.transaction {
                for id in changing.dropFirst(round * 10).prefix(10) {
                    try store.updateWord(id: id, WordChanges(detail: "changed \(UUID().uuidString)"))
                }
            }
            small = min(small, try clock.measure {
                _ = try SyncEngine(store: store, channel: ServerSyncChannel(account: account), account: account.login.accountAddress.url,
                                   learner: account.login.account ?? "").run()
            })
        }
        print(String(format: "incremental sync of 10 changed words through the Vocab server, account of %d words and %d reviews: %.1f ms",
                     words, words * Self.reviewsPerWord, small.milliseconds))
        return small.milliseconds
    }

    /// Reviews a word has in the accounts whose incremental sync is timed.
    static let reviewsPerWord = 2

    /// A learner's history on `store`'s words, `reviewsPerWord` each (a day apart, a year ago),
    /// taken up by `sync` untimed: an account's incremental sync may grow with its log no more
    /// than with its words (each sync's closing check once counted the whole log).
    private static func addHistory(to store: Store, sync: () throws -> Void) throws {
        let start = Timestamp.now().adding(seconds: -365 * 86_400)
        var batches = BenchStore.ReviewBatches(store: store)
        let words = try store.words()
        for word in words {
            for day in 0..<reviewsPerWord {
                try batches.add(ReviewRecord(id: UUID.timeOrdered(), wordId: word.id, reviewedAt: start.adding(seconds: Double(day) * 86_400),
                                             rating: .good, source: .review))
            }
        }
        try batches.finish()
        let held = try store.reviewCount()
        BenchChecks.require(held == words.count * reviewsPerWord, "sync: the store holds \(held) reviews, \(words.count * reviewsPerWord) made")
        try sync()
    }

    /// The words of `csv` as `COPY` text of `vocab.records` rows (owner, kind, id, seq, deleted,
    /// body): each body holds a word's synced fields and a stamp per field, as a sync's does.
    private func writeCopyRows(fromCSV csv: String, to path: String) throws {
        var reader = try WordFileReader(try FileStream(path: csv), format: .csv)
        let book = UUID.timeOrdered(), now = Timestamp.now()
        var text: [UInt8] = []
        var seq = 0
        while let row = try reader.nextRow() {
            seq += 1
            let values = row.values
            var word = Word(bookId: book, word: values[.word] ?? "", definition: values[.definition] ?? "",
                            detail: values[.detail] ?? "", pronunciation: values[.pronunciation] ?? "",
                            synonym: values[.synonym] ?? "", antonym: values[.antonym] ?? "",
                            date: now, createdAt: now, modifiedAt: now)
            word.memorized = values[.memorized] == "yes"
            var members: [(String, JSONValue)] = []
            var stamps: [(String, JSONValue)] = []
            for field in WordFields.all.dropFirst() {
                let value: JSONValue
                switch field.read(word) {
                case .text(let text): value = .string(text)
                case .id(let id): value = .string(id.lowercaseText)
                case .time(let time): value = .int(time.milliseconds)
                case .flag(let flag): value = .bool(flag)
                case .bytes: value = .null
                }
                members.append((field.name, value))
                if field.synced { stamps.append((field.name, .array([.int(now.milliseconds), .string("bench-device")]))) }
            }
            members.append(("stamps", .object(stamps)))
            let body = JSONValue.object(members).compact.replacingOccurrences(of: "\\", with: "\\\\")
            text += "bench\tword\t\(UUID.timeOrdered().lowercaseText)\t\(seq)\tf\t".utf8
            text += body.utf8
            text.append(UInt8(ascii: "\n"))
        }
        try Data(text).write(to: URL(fileURLWithPath: path))
    }
}
