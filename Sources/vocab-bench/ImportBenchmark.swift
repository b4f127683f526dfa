import Foundation

/// Import of a CSV word list: `vocab import` against `sqlite3 .import --csv` of the same file
/// into a table of the same columns with the same uniqueness rule, and the peak memory of
/// importing a million words.
struct ImportBenchmark {
    let options: BenchOptions

    func run() throws {
        guard let sqlite3 = ChildProcess.which("sqlite3") else {
            throw BenchError.message("the reference needs the sqlite3 program: apt-get install sqlite3")
        }
        let work = NSTemporaryDirectory() + "vocab-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer {
            if options.keep { print("kept: \(work)") } else { try? FileManager.default.removeItem(atPath: work) }
        }
        let me = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]

        let csv = work + "/words.csv"
        let size = try DataSet.writeCSV(rows: options.rows, to: csv)
        print("data: \(options.rows) words, \(size / 1024) KiB of CSV")

        var ours: [Double] = [], reference: [Double] = []
        for run in 0..<options.runs {
            let home = work + "/home-\(run)"
            ours.append(try ChildProcess.measure(me, ["vocab", "import", csv, "--book", "Bench"],
                                                 environment: ["VOCAB_HOME": home]).seconds)
            let script = work + "/ref-\(run).sql"
            try ReferenceSQL.importScript(csv: csv).write(toFile: script, atomically: true, encoding: .utf8)
            reference.append(try ChildProcess.measure(sqlite3, [work + "/ref-\(run).sqlite"], stdinPath: script).seconds)
        }
        let oursBest = ours.min() ?? 0, referenceBest = reference.min() ?? 0
        print(String(format: "import %d words from CSV: vocab import %.3f s, sqlite3 .import %.3f s, ratio %.2fx (target <= 1.5x)",
                     options.rows, oursBest, referenceBest, oursBest / max(referenceBest, 1e-9)))

        guard !options.skipMemory else { return }
        let big = work + "/million.csv"
        try DataSet.writeCSV(rows: options.memoryRows, to: big, seed: 7)
        let memory = try ChildProcess.measure(me, ["vocab", "import", big, "--book", "Bench"], environment: ["VOCAB_HOME": work + "/home-big"])
        try ReferenceSQL.importScript(csv: big).write(toFile: work + "/ref-big.sql", atomically: true, encoding: .utf8)
        let referenceMemory = try ChildProcess.measure(sqlite3, [work + "/ref-big.sqlite"], stdinPath: work + "/ref-big.sql")
        print(String(format: "peak memory importing %d words: vocab import %.1f MiB (%.1f s), sqlite3 .import %.1f MiB (%.1f s) (target < 64 MiB)",
                     options.memoryRows, Double(memory.maxResidentBytes) / 1_048_576, memory.seconds,
                     Double(referenceMemory.maxResidentBytes) / 1_048_576, referenceMemory.seconds))
    }
}

/// The reference: the same CSV into a table with the file's columns and the same indexes on
/// the word text (unique, and for lookup) as our words table, in WAL mode like our store.
enum ReferenceSQL {
    static func importScript(csv: String) -> String {
        """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        CREATE TABLE words (
            word TEXT NOT NULL UNIQUE, definition TEXT, detail TEXT, pronunciation TEXT,
            synonym TEXT, antonym TEXT, date TEXT, memorized TEXT
        );
        CREATE INDEX words_by_text ON words(word);
        .import --csv --skip 1 '\(csv)' words

        """
    }
}
