import Foundation

/// Backups of a store with 100,000 words and 1,000,000 reviews: `vocab backup` and `vocab
/// backup restore` (time and peak memory) beside `sqlite3 .backup` of the same file (the same
/// SQLite backup API, without Vocab's checks), and what a due automatic backup adds to an
/// ordinary write (it runs detached, so the write should not wait for it).
struct BackupBenchmark {
    let options: BenchOptions

    func run() throws {
        guard let sqlite3 = ChildProcess.which("sqlite3") else {
            throw BenchError.message("the reference needs the sqlite3 program: apt-get install sqlite3")
        }
        let vocab = try ChildProcess.vocabProgram()
        let work = NSTemporaryDirectory() + "vocab-bench-backup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let home = work + "/home", config = work + "/config"
        try FileManager.default.createDirectory(atPath: config + "/vocab", withIntermediateDirectories: true)
        let csv = work + "/words.csv"
        try DataSet.writeCSV(rows: options.rows, to: csv)
        let environment = ["VOCAB_HOME": home, "XDG_CONFIG_HOME": config]
        _ = try ChildProcess.measure(vocab, ["import", csv, "--book", "Big"], environment: environment)
        _ = try ChildProcess.measure(vocab, ["maintain"], environment: environment)  // the search index built, as it is soon after
        let reviews = options.rows * 10
        let script = work + "/reviews.sql"
        try """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(reviews - 1))
            INSERT INTO reviews (id, word, reviewed_at, rating, source)
            SELECT zeroblob(8) || cast(printf('%08x', i) AS BLOB), w.key, 1700000000000 + i * 1000, 1 + i % 4, 'review'
            FROM n JOIN words w ON w.key = 1 + i % \(options.rows);
            """.write(toFile: script, atomically: true, encoding: .utf8)
        _ = try ChildProcess.measure(sqlite3, [home + "/vocab.sqlite"], stdinPath: script)
        let size = (try? FileManager.default.attributesOfItem(atPath: home + "/vocab.sqlite"))?[.size] as? Int ?? 0
        print("backup data: \(options.rows) words, \(reviews) reviews, a \(size / 1_048_576) MiB store")

        var ours: [Measurement] = [], reference: [Measurement] = [], restores: [Measurement] = []
        for run in 0..<options.runs {
            try? FileManager.default.removeItem(atPath: home + "/backups")
            ours.append(try ChildProcess.measure(vocab, ["backup"], environment: environment))
            reference.append(try ChildProcess.measure(sqlite3, [home + "/vocab.sqlite", ".backup '\(work)/reference-\(run).sqlite'"]))
            restores.append(try ChildProcess.measure(vocab, ["backup", "restore", "latest", "--yes"], environment: environment))
            BenchChecks.requireCounts(of: home + "/vocab.sqlite", words: options.rows, reviews: reviews, "backup restore")
        }
        func best(_ runs: [Measurement]) -> Measurement { runs.min { $0.seconds < $1.seconds } ?? Measurement(seconds: 0, maxResidentBytes: 0) }
        let (backup, copy, restore) = (best(ours), best(reference), best(restores))
        print(String(format: "backup of that store: vocab backup %.2f s, %.1f MiB peak (checked); sqlite3 .backup %.2f s, %.1f MiB; ratio %.2fx (target < 1 s, memory flat: < 64 MiB whatever the store's size)",
                     backup.seconds, Double(backup.maxResidentBytes) / 1_048_576, copy.seconds,
                     Double(copy.maxResidentBytes) / 1_048_576, backup.seconds / max(copy.seconds, 1e-9)))
        BenchChecks.target("backup of a \(size / 1_048_576) MiB store took \(String(format: "%.2f", backup.seconds)) s", backup.seconds, atMost: 1)
        BenchChecks.target("backup's peak memory, a \(size / 1_048_576) MiB store: \(String(format: "%.1f", Double(backup.maxResidentBytes) / 1_048_576)) MiB",
                           Double(backup.maxResidentBytes) / 1_048_576, atMost: 64)
        print(String(format: "restore of it: vocab backup restore %.2f s, %.1f MiB peak (the store backed up first, the backup checked)",
                     restore.seconds, Double(restore.maxResidentBytes) / 1_048_576))

        // An ordinary write when a backup is due (started detached) and when none is.
        var due: [Double] = [], notDue: [Double] = []
        for run in 0..<options.runs {
            try? FileManager.default.removeItem(atPath: home + "/backups")
            due.append(try ChildProcess.measure(vocab, ["word", "add", "due\(run)", "--book", "Big"], environment: environment).seconds)
            let deadline = Date().addingTimeInterval(60)
            func taken() -> Bool {
                (try? FileManager.default.contentsOfDirectory(atPath: home + "/backups"))?.contains { $0.hasPrefix("vocab-") } == true
            }
            while !taken(), Date() < deadline { usleep(50_000) }
            // Without it the "none is due" write below would itself start one: its figure would mean nothing.
            guard BenchChecks.require(taken(), "backup: the automatic backup a due write starts did not appear within 60 s") else { return }
            usleep(200_000)
            notDue.append(try ChildProcess.measure(vocab, ["word", "add", "fresh\(run)", "--book", "Big"], environment: environment).seconds)
        }
        let dueBest = due.min() ?? 0, notDueBest = notDue.min() ?? 0
        print(String(format: "a word add when an automatic backup is due: %.1f ms; when none is: %.1f ms; ratio %.2fx (the backup runs detached)",
                     dueBest * 1000, notDueBest * 1000, dueBest / max(notDueBest, 1e-9)))
    }
}
