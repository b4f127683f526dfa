import Foundation

/// Importing an Anki package: `vocab import` of a package of `ankiNotes` notes with a review
/// history, made and exported by Anki's own Python package, against Anki's own import of the
/// same file into an empty collection (timed inside Python, so Python's start and Anki's
/// loading are not counted against Anki). Target: at most half Anki's time. Beside them, the
/// floor of Vocab's schema: SQLite alone writing the rows that import wrote (books, words,
/// reviews, schedules) into an empty store, one `INSERT … SELECT` each, no Swift in the loop.
struct AnkiBenchmark {
    let options: BenchOptions

    func run() throws {
        let python = ProcessInfo.processInfo.environment["VOCAB_BENCH_ANKI_PYTHON"] ?? "/opt/vocab-test-python/bin/python"
        let script = ChildProcess.scriptPath("bench_anki.py")
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? ChildProcess.measure(python, ["-c", "import anki"])) != nil else {
            print("anki package import: skipped (no Python with Anki's package at \(python); .ci/run installs one)")
            return
        }
        let work = NSTemporaryDirectory() + "vocab-bench-anki-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer {
            if options.keep { print("kept: \(work)") } else { try? FileManager.default.removeItem(atPath: work) }
        }
        let package = work + "/bench.apkg"
        let made = try ChildProcess.measure(python, [script, "make", package, String(options.ankiNotes)])
        let size = (try? FileManager.default.attributesOfItem(atPath: package))?[.size] as? Int ?? 0
        print(String(format: "data: %d Anki notes with 4 reviews each, a %.1f MiB package made by Anki in %.0f s",
                     options.ankiNotes, Double(size) / 1_048_576, made.seconds))
        let me = ChildProcess.thisProgram
        var ours: [Measurement] = [], anki: [Double] = []
        for run in 0..<min(options.runs, 3) {
            let environment = ["VOCAB_HOME": work + "/home-\(run)", "XDG_CONFIG_HOME": work + "/config", "VOCAB_BACKGROUND": "off"]
            ours.append(try ChildProcess.measure(me, ["vocab", "import", package], environment: environment))
            let output = work + "/anki-\(run).txt"
            _ = try ChildProcess.measure(python, [script, "import", package], stdoutPath: output)
            let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: " ")
            guard let seconds = fields.first.flatMap({ Double($0) }), fields.count == 2,
                  Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) == options.ankiNotes else {
                throw BenchError.message("Anki's import printed no time and note count")
            }
            anki.append(seconds)
        }
        let floor = try schemaFloor(imported: work + "/home-0/vocab.sqlite", work: work)
        let best = ours.map(\.seconds).min() ?? 0, ankiBest = anki.min() ?? 0
        let memory = ours.map(\.maxResidentBytes).max() ?? 0
        print(String(format: "import an Anki package of %d notes (with their review log): vocab import %.2f s (%.1f MiB), Anki's own import %.2f s, ratio %.2fx (target <= 0.5x)",
                     options.ankiNotes, best, Double(memory) / 1_048_576, ankiBest, best / max(ankiBest, 1e-9)))
        if let floor {
            print(String(format: "  (the floor of this schema: SQLite alone writing the same rows into an empty store, an INSERT ... SELECT per table, %.2f s = %.2fx Anki's import; of it the %d reviews %.2f s, and %.2f s as rows of integers only, keyed as Anki's revlog is)",
                         floor.total, floor.total / max(ankiBest, 1e-9), options.ankiNotes * 4, floor.reviews, floor.integerKeyedReviews))
        }
    }

    /// SQLite alone copying the imported store's books, words, reviews and schedules into an
    /// empty store (made by `vocab`: the same tables, indexes, triggers and pragmas as the
    /// import's) in one transaction, and the reviews alone into a table keyed by integers (an
    /// integer id, an index by integer word, as Anki's revlog), best of three each, timed by
    /// `sqlite3` itself (`.timer`); nil without the sqlite3 program.
    private func schemaFloor(imported: String, work: String) throws -> (total: Double, reviews: Double, integerKeyedReviews: Double)? {
        guard let sqlite3 = ChildProcess.which("sqlite3") else { return nil }
        let emptyHome = work + "/empty-home"
        _ = try ChildProcess.measure(ChildProcess.thisProgram, ["vocab", "book", "list"],
                                     environment: ["VOCAB_HOME": emptyHome, "XDG_CONFIG_HOME": work + "/config"])
        let setUp = """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA cache_size = -24576;
            PRAGMA temp_store = MEMORY;
            ATTACH '\(imported)' AS imported;
            """
        // `WHERE true`: a bare `SELECT *` from a table of the same shape would copy its pages
        // whole (SQLite's transfer optimisation), which no import can do.
        let sameSchema = setUp + "\n" + """
            .timer on
            BEGIN;
            INSERT INTO books SELECT * FROM imported.books WHERE true;
            INSERT INTO words SELECT * FROM imported.words WHERE true;
            INSERT INTO reviews SELECT * FROM imported.reviews WHERE true;
            INSERT INTO schedules SELECT * FROM imported.schedules WHERE true;
            COMMIT;
            """
        let integerKeyed = setUp + "\n" + """
            CREATE TEMP TABLE rows AS SELECT r.rowid, w.rowid, r.reviewed_at, r.rating, r.duration_ms
                FROM imported.reviews r JOIN imported.words w ON w.id = r.word_id;
            CREATE TABLE revlog (id INTEGER PRIMARY KEY, word INTEGER NOT NULL, reviewed_at INTEGER NOT NULL,
                rating INTEGER NOT NULL, duration_ms INTEGER);
            CREATE INDEX revlog_by_word ON revlog (word, reviewed_at);
            .timer on
            BEGIN;
            INSERT INTO revlog SELECT * FROM temp.rows WHERE true;
            COMMIT;
            """
        var totals: [Double] = [], reviews: [Double] = [], integerKeyedTimes: [Double] = []
        for run in 0..<3 {
            let times = try timedStatements(sqlite3, script: sameSchema, empty: emptyHome + "/vocab.sqlite", work: work, name: "floor-\(run)")
            guard times.count == 6 else { throw BenchError.message("sqlite3 timed \(times.count) statements of the floor, not 6") }
            totals.append(times.reduce(0, +))
            reviews.append(times[3])
            integerKeyedTimes.append(try timedStatements(sqlite3, script: integerKeyed, empty: emptyHome + "/vocab.sqlite",
                                                         work: work, name: "revlog-\(run)").reduce(0, +))
        }
        return (totals.min() ?? 0, reviews.min() ?? 0, integerKeyedTimes.min() ?? 0)
    }

    /// Runs `script` with `sqlite3` on a copy of the store `empty`; returns the real time of
    /// each statement it timed.
    private func timedStatements(_ sqlite3: String, script: String, empty: String, work: String, name: String) throws -> [Double] {
        let store = work + "/\(name).sqlite", scriptPath = work + "/\(name).sql", output = work + "/\(name).txt"
        try FileManager.default.copyItem(atPath: empty, toPath: store)
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        _ = try ChildProcess.measure(sqlite3, [store], stdinPath: scriptPath, stdoutPath: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "Run Time: real ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }
    }
}
