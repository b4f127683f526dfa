import Foundation

/// Importing an Anki package: `vocab import` of a package of `ankiNotes` notes with a review
/// history, made and exported by Anki's own Python package, against Anki's own import of the
/// same file into an empty collection (timed inside Python, so Python's start and Anki's
/// loading are not counted against Anki). Target: at most half Anki's time. Beside them, the
/// floor of Vocab's schema and of one keyed by integers (`SchemaFloor`).
struct AnkiBenchmark {
    let options: BenchOptions

    func run() throws {
        let python = ProcessInfo.processInfo.environment["VOCAB_BENCH_ANKI_PYTHON"] ?? "/opt/vocab-test-python/bin/python"
        let script = ChildProcess.scriptPath("bench_anki.py")
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? ChildProcess.measure(python, ["-c", "import anki"])) != nil else {
            BenchChecks.referenceMissing("anki package import", "no Python with Anki's package at \(python); .ci/run installs one",
                                         skipWith: "--skip-anki")
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
        let vocab = try ChildProcess.vocabProgram()
        var ours: [Measurement] = [], anki: [Double] = []
        var ankiBytes = 0
        for run in 0..<min(options.runs, 3) {
            let environment = ["VOCAB_HOME": work + "/home-\(run)", "XDG_CONFIG_HOME": work + "/config", "VOCAB_BACKGROUND": "off"]
            ours.append(try ChildProcess.measure(vocab, ["import", package], environment: environment))
            BenchChecks.requireCounts(of: work + "/home-\(run)/vocab.sqlite", words: options.ankiNotes,
                                      reviews: options.ankiNotes * 4, "anki package import")
            let output = work + "/anki-\(run).txt"
            _ = try ChildProcess.measure(python, [script, "import", package], stdoutPath: output)
            let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: " ")
            guard let seconds = fields.first.flatMap({ Double($0) }), fields.count == 3,
                  Int(fields[1]) == options.ankiNotes, let bytes = Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError.message("Anki's import printed no time, note count and collection size")
            }
            anki.append(seconds)
            ankiBytes = bytes
        }
        let floor = try SchemaFloor.measure(imported: work + "/home-0/vocab.sqlite", work: work)
        let best = ours.map(\.seconds).min() ?? 0, ankiBest = anki.min() ?? 0
        let memory = ours.map(\.maxResidentBytes).max() ?? 0
        print(String(format: "import an Anki package of %d notes (with their review log): vocab import %.2f s (%.1f MiB), Anki's own import %.2f s, ratio %.2fx (target <= 1x)",
                     options.ankiNotes, best, Double(memory) / 1_048_576, ankiBest, best / max(ankiBest, 1e-9)))
        BenchChecks.target("Anki package import: \(String(format: "%.2f", best / max(ankiBest, 1e-9)))x Anki's", best / max(ankiBest, 1e-9), atMost: 1)
        // The store as the import left it (the file and its write-ahead log), beside Anki's collection.
        let storeBytes = ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: work + "/home-0/vocab.sqlite" + suffix))?[.size] as? Int ?? 0)
        }
        print(String(format: "  store size after that import: vocab %.1f MiB, Anki's collection %.1f MiB, ratio %.2fx (target <= 1x)",
                     Double(storeBytes) / 1_048_576, Double(ankiBytes) / 1_048_576, Double(storeBytes) / Double(max(ankiBytes, 1))))
        BenchChecks.target("store after an Anki import: \(String(format: "%.2f", Double(storeBytes) / Double(max(ankiBytes, 1))))x Anki's collection",
                           Double(storeBytes) / Double(max(ankiBytes, 1)), atMost: 1)
        if let floor {
            print(String(format: "  (the floor of this schema: SQLite alone writing the same rows into an empty store, an INSERT ... SELECT per table, %.2f s = %.2fx Anki's import, of it the %d reviews %.2f s)",
                         floor.total, floor.total / max(ankiBest, 1e-9), options.ankiNotes * 4, floor.reviews))
        }
    }
}
