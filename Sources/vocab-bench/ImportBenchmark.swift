import Foundation

/// Import of a CSV word list: `vocab import` against `sqlite3 .import --csv` of the same file
/// into the same words table (and, for scale, into a bare table), the search indexing each
/// leaves for later, and the peak memory of importing a million words.
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
        let vocab = try ChildProcess.vocabProgram()

        // No automatic backups: a detached backup after each import would run beside the next measurement.
        let config = work + "/config"
        try FileManager.default.createDirectory(atPath: config + "/vocab", withIntermediateDirectories: true)
        try #"{"backups": {"automatic": false}}"#.write(toFile: config + "/vocab/config.json", atomically: true, encoding: .utf8)
        let csv = work + "/words.csv"
        let size = try DataSet.writeCSV(rows: options.rows, to: csv)
        print("data: \(options.rows) words, \(size / 1024) KiB of CSV")

        // The reference writes into an empty store made by `vocab` itself.
        let emptyStore = try BenchStore.emptyStoreFile(home: work + "/empty-home", config: config)
        // The bare table is made with the page size a new store has, so that the two differ in schema only.
        let pageSize = BenchStore.pageSize(of: emptyStore)

        var ours: [Double] = [], sameTable: [Double] = [], bareTable: [Double] = []
        var ourIndexing: [Double] = [], referenceIndexing: [Double] = []
        for run in 0..<options.runs {
            let home = work + "/home-\(run)"
            let environment = ["VOCAB_HOME": home, "XDG_CONFIG_HOME": config]
            ours.append(try ChildProcess.measure(vocab, ["import", csv, "--book", "Bench"], environment: environment).seconds)
            BenchChecks.requireCounts(of: home + "/vocab.sqlite", words: options.rows, "CSV import")
            // The import left its words' search indexing to a detached `vocab maintain`: run it
            // in the foreground too, which returns when every word is indexed.
            ourIndexing.append(try ChildProcess.measure(vocab, ["maintain"], environment: environment).seconds)
            let same = work + "/same-\(run).sqlite", sameScript = work + "/same-\(run).sql"
            try FileManager.default.copyItem(atPath: emptyStore, toPath: same)
            try ReferenceSQL.sameTableScript(csv: csv).write(toFile: sameScript, atomically: true, encoding: .utf8)
            sameTable.append(try ChildProcess.measure(sqlite3, [same], stdinPath: sameScript).seconds)
            BenchChecks.requireCounts(of: same, words: options.rows, "CSV import's reference (sqlite3 .import)")
            try ReferenceSQL.indexScript.write(toFile: sameScript, atomically: true, encoding: .utf8)
            referenceIndexing.append(try ChildProcess.measure(sqlite3, [same], stdinPath: sameScript).seconds)
            let bareScript = work + "/bare-\(run).sql"
            try ReferenceSQL.bareTableScript(csv: csv, pageSize: pageSize).write(toFile: bareScript, atomically: true, encoding: .utf8)
            bareTable.append(try ChildProcess.measure(sqlite3, [work + "/bare-\(run).sqlite"], stdinPath: bareScript).seconds)
        }
        let oursBest = ours.min() ?? 0, sameBest = sameTable.min() ?? 0, bareBest = bareTable.min() ?? 0
        print(String(format: "import %d words from CSV: vocab import %.3f s, sqlite3 .import into the same words table %.3f s, ratio %.2fx (target <= 1x)",
                     options.rows, oursBest, sameBest, oursBest / max(sameBest, 1e-9)))
        print(String(format: "  (sqlite3 .import into a bare table with only the word indexes: %.3f s, ratio %.2fx; target <= 1.5x)",
                     bareBest, oursBest / max(bareBest, 1e-9)))
        BenchChecks.target("CSV import: \(String(format: "%.2f", oursBest / max(sameBest, 1e-9)))x sqlite3 into the same table", oursBest / max(sameBest, 1e-9), atMost: 1)
        BenchChecks.target("CSV import: \(String(format: "%.2f", oursBest / max(bareBest, 1e-9)))x sqlite3 into a bare table", oursBest / max(bareBest, 1e-9), atMost: 1.5)
        let indexBest = ourIndexing.min() ?? 0, referenceIndexBest = referenceIndexing.min() ?? 0
        print(String(format: "  then search indexing of those words, in the background: vocab maintain %.3f s, sqlite3 one INSERT ... SELECT into the index %.3f s, ratio %.2fx",
                     indexBest, referenceIndexBest, indexBest / max(referenceIndexBest, 1e-9)))

        guard !options.skipMemory else { return }
        let big = work + "/million.csv"
        try DataSet.writeCSV(rows: options.memoryRows, to: big, seed: 7)
        // No background indexing of the million words afterwards: the store is deleted at once.
        let memory = try ChildProcess.measure(vocab, ["import", big, "--book", "Bench"],
                                              environment: ["VOCAB_HOME": work + "/home-big", "XDG_CONFIG_HOME": config, "VOCAB_BACKGROUND": "off"])
        BenchChecks.requireCounts(of: work + "/home-big/vocab.sqlite", words: options.memoryRows, "peak-memory import")
        try ReferenceSQL.bareTableScript(csv: big, pageSize: pageSize).write(toFile: work + "/ref-big.sql", atomically: true, encoding: .utf8)
        let referenceMemory = try ChildProcess.measure(sqlite3, [work + "/ref-big.sqlite"], stdinPath: work + "/ref-big.sql")
        print(String(format: "peak memory importing %d words: vocab import %.1f MiB (%.1f s), sqlite3 .import %.1f MiB (%.1f s) (target < 64 MiB)",
                     options.memoryRows, Double(memory.maxResidentBytes) / 1_048_576, memory.seconds,
                     Double(referenceMemory.maxResidentBytes) / 1_048_576, referenceMemory.seconds))
        BenchChecks.target("peak memory importing \(options.memoryRows) words", Double(memory.maxResidentBytes) / 1_048_576, atMost: 64)
    }
}

/// The references, both in WAL mode with the cache `vocab import` uses.
enum ReferenceSQL {
    /// The same file into the same `words` table (an empty Vocab store): SQLite's own CSV reader
    /// fills a temporary table, and one INSERT … SELECT moves the rows in, making ids, the date
    /// in milliseconds and the memorised flag in SQL as `vocab import` does in Swift.
    static func sameTableScript(csv: String) -> String {
        """
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -24576;
        -- As vocab import does, the words' search indexing is left for later (indexScript): new
        -- words wait above the index's mark; their counts are caught up at the end, set-wise.
        INSERT INTO books (id, name, name_key, created_at, modified_at)
        VALUES ('01a22ec8-16df-709d-bb67-e21ba4c9b18c', 'Bench', 'bench', 0, 0);
        CREATE TEMP TABLE import_rows (word, definition, detail, pronunciation, synonym, antonym, date, memorized);
        .import --csv --skip 1 '\(csv)' import_rows
        INSERT INTO words (id, book, word, definition, detail, pronunciation, synonym, antonym, date, memorized,
                           created_at, modified_at, word_key)
        SELECT printf('01a22ec8-16df-7000-8000-%012x', rowid), (SELECT key FROM books),
               word, definition, detail, pronunciation, synonym, antonym, unixepoch(date) * 1000,
               memorized = 'yes', 1796081194719, 1796081194719, lower(word)
        FROM import_rows;
        \(countNewWords)
        """
    }

    /// What `vocab import` does at its end, set-wise: the new words' counts per book.
    static let countNewWords = """
        INSERT INTO book_counts (book, words, memorized, fresh)
        SELECT book, count(*), sum(memorized), sum(memorized = 0 AND scheduled = 0) FROM words
        WHERE rowid > (SELECT counted_through FROM word_marks) GROUP BY book
        ON CONFLICT (book) DO UPDATE SET words = words + excluded.words,
            memorized = memorized + excluded.memorized, fresh = fresh + excluded.fresh;
        UPDATE word_marks SET counted_through = (SELECT max(rowid) FROM words);

        """

    /// The search indexing `sameTableScript` left for later, in one statement.
    static let indexScript = """
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -24576;
        BEGIN;
        INSERT INTO words_search (rowid, word, definition, detail, pronunciation, synonym, antonym)
        SELECT rowid, word, definition, detail, pronunciation, synonym, antonym FROM words
        WHERE rowid > (SELECT indexed_through FROM word_marks);
        UPDATE word_marks SET indexed_through = (SELECT max(rowid) FROM words);
        COMMIT;

        """

    /// The same file into a bare table of the file's columns with the word text indexed twice
    /// (unique, and for lookup), in pages of `pageSize` bytes: the lower bound of any import.
    static func bareTableScript(csv: String, pageSize: Int) -> String {
        """
        PRAGMA page_size = \(pageSize);
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -24576;
        CREATE TABLE words (
            word TEXT NOT NULL UNIQUE, definition TEXT, detail TEXT, pronunciation TEXT,
            synonym TEXT, antonym TEXT, date TEXT, memorized TEXT
        );
        CREATE INDEX words_by_text ON words(word);
        .import --csv --skip 1 '\(csv)' words

        """
    }
}
