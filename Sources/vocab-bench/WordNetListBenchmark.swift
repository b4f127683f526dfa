import Foundation

/// A real list: every lemma of WordNet 3.0 (Debian's wordnet-base), a book per part of speech
/// (155,287 rows), each with its first sense's gloss as the definition. `vocab import` of the
/// CSV against `sqlite3 .import` of the same file into the same tables of an empty Vocab store,
/// and into a bare table with the word indexes only.
struct WordNetListBenchmark {
    let options: BenchOptions
    static let folder = "/usr/share/wordnet"
    static let parts = [("noun", "WordNet nouns"), ("verb", "WordNet verbs"), ("adj", "WordNet adjectives"), ("adv", "WordNet adverbs")]

    func run() throws {
        guard let sqlite3 = ChildProcess.which("sqlite3") else {
            throw BenchError.message("the reference needs the sqlite3 program: apt-get install sqlite3")
        }
        guard FileManager.default.fileExists(atPath: Self.folder + "/index.noun") else {
            BenchChecks.referenceMissing("a real list (WordNet)", "no WordNet 3.0 at \(Self.folder): apt-get install wordnet-base",
                                         skipWith: "--skip-wordnet")
            return
        }
        let work = NSTemporaryDirectory() + "vocab-bench-wordnet-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work + "/config/vocab", withIntermediateDirectories: true)
        defer { if options.keep { print("kept: \(work)") } else { try? FileManager.default.removeItem(atPath: work) } }
        try #"{"backups": {"automatic": false}}"#.write(toFile: work + "/config/vocab/config.json", atomically: true, encoding: .utf8)
        let csv = work + "/wordnet.csv"
        let rows = try Self.writeCSV(to: csv)
        let vocab = try ChildProcess.vocabProgram()
        let empty = try BenchStore.emptyStoreFile(home: work + "/empty-home", config: work + "/config")
        let pageSize = BenchStore.pageSize(of: empty)

        var ours: [Double] = [], same: [Double] = [], bare: [Double] = []
        for run in 0..<options.runs {
            let home = work + "/home-\(run)"
            let environment = ["VOCAB_HOME": home, "XDG_CONFIG_HOME": work + "/config", "VOCAB_BACKGROUND": "off"]
            ours.append(try ChildProcess.measure(vocab, ["import", csv], environment: environment).seconds)
            BenchChecks.requireCounts(of: home + "/vocab.sqlite", words: rows, "WordNet list import")
            let sameStore = work + "/same-\(run).sqlite", script = work + "/same-\(run).sql"
            try FileManager.default.copyItem(atPath: empty, toPath: sameStore)
            try Self.sameTableScript(csv: csv).write(toFile: script, atomically: true, encoding: .utf8)
            same.append(try ChildProcess.measure(sqlite3, [sameStore], stdinPath: script).seconds)
            BenchChecks.requireCounts(of: sameStore, words: rows, "WordNet list's reference (sqlite3 .import)")
            let bareScript = work + "/bare-\(run).sql"
            try Self.bareTableScript(csv: csv, pageSize: pageSize).write(toFile: bareScript, atomically: true, encoding: .utf8)
            bare.append(try ChildProcess.measure(sqlite3, [work + "/bare-\(run).sqlite"], stdinPath: bareScript).seconds)
        }
        let oursBest = ours.min() ?? 0, sameBest = same.min() ?? 0, bareBest = bare.min() ?? 0
        print(String(format: "a real list, every WordNet lemma (%d rows, 4 books, with glosses): vocab import %.3f s, sqlite3 .import into the same tables %.3f s, ratio %.2fx (target <= 2x)",
                     rows, oursBest, sameBest, oursBest / max(sameBest, 1e-9)))
        BenchChecks.target("WordNet list import: \(String(format: "%.2f", oursBest / max(sameBest, 1e-9)))x sqlite3", oursBest / max(sameBest, 1e-9), atMost: 2)
        print(String(format: "  (sqlite3 .import into a bare table with only the word indexes: %.3f s, ratio %.2fx)",
                     bareBest, oursBest / max(bareBest, 1e-9)))
    }

    /// Writes `book,word,definition` for every lemma of every part of speech; returns the rows.
    static func writeCSV(to path: String) throws -> Int {
        var out = "book,word,definition\n"
        var rows = 0
        for (part, book) in parts {
            let index = try String(contentsOfFile: folder + "/index." + part, encoding: .utf8)
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/data." + part))
            for line in index.split(separator: "\n") where !line.hasPrefix(" ") {
                let fields = line.split(separator: " ")
                // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
                guard fields.count > 4, let pointers = Int(fields[3]), fields.count > 6 + pointers,
                      let offset = Int(fields[6 + pointers]) else { continue }
                let word = fields[0].replacingOccurrences(of: "_", with: " ")
                out += "\(book),\(quoted(word)),\(quoted(gloss(in: data, at: offset)))\n"
                rows += 1
            }
        }
        try out.write(toFile: path, atomically: true, encoding: .utf8)
        return rows
    }

    /// The gloss of the synset at byte `offset` of a data file: what follows " | " on its line.
    private static func gloss(in data: Data, at offset: Int) -> String {
        guard offset < data.count else { return "" }
        let end = data[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
        let line = String(decoding: data[offset..<end], as: UTF8.self)
        guard let bar = line.range(of: " | ") else { return "" }
        return line[bar.upperBound...].trimmingCharacters(in: .whitespaces)
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func sameTableScript(csv: String) -> String {
        let books = parts.enumerated().map { index, part in
            "('01a22ec8-16df-709d-bb67-e21ba4c9b1\(index)0', '\(part.1)', '\(part.1.lowercased())', 0, 0)"
        }.joined(separator: ", ")
        return """
            PRAGMA synchronous = NORMAL;
            PRAGMA cache_size = -24576;
            INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES \(books);
            CREATE TEMP TABLE import_rows (book, word, definition);
            .import --csv --skip 1 '\(csv)' import_rows
            INSERT INTO words (id, book, word, definition, date, created_at, modified_at, word_key)
            SELECT printf('01a22ec8-16df-7000-8000-%012x', r.rowid), b.key, r.word, r.definition,
                   1796081194719, 1796081194719, 1796081194719, lower(r.word)
            FROM import_rows r JOIN books b ON b.name = r.book;
            \(ReferenceSQL.countNewWords)
            """
    }

    /// In pages of the size a new store has.
    private static func bareTableScript(csv: String, pageSize: Int) -> String {
        """
        PRAGMA page_size = \(pageSize);
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -24576;
        CREATE TABLE words (book TEXT NOT NULL, word TEXT NOT NULL, definition TEXT, UNIQUE (word, book));
        CREATE INDEX words_by_text ON words(word);
        .import --csv --skip 1 '\(csv)' words

        """
    }
}
