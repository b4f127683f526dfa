import Foundation

/// What SQLite alone takes to write the rows an import wrote — no Swift in the loop, one
/// `INSERT … SELECT` per table, timed by `sqlite3` itself (`.timer`), best of three — into:
/// - an empty Vocab store (made by `vocab`: the same tables, indexes, triggers and pragmas as
///   the import's): the floor of this schema;
/// - the same tables keyed by integers (words, reviews and schedules refer to each other by
///   integer; each book, word and review keeps a 16-byte id, unique, beside it): the floor of
///   that redesign.
struct SchemaFloor {
    var total: Double
    /// Of `total`, the reviews' insert.
    var reviews: Double
    var integerKeyed: Double

    /// Nil without the sqlite3 program. `imported`: the store the import filled.
    static func measure(imported: String, work: String) throws -> SchemaFloor? {
        guard let sqlite3 = ChildProcess.which("sqlite3") else { return nil }
        let empty = try BenchStore.emptyStoreFile(home: work + "/empty-home", config: work + "/config")
        var totals: [Double] = [], reviews: [Double] = [], integerKeyed: [Double] = []
        for run in 0..<3 {
            let times = try timedStatements(sqlite3, script: sameSchema(imported), copying: empty, work: work, name: "floor-\(run)")
            guard times.count == 6 else { throw BenchError.message("sqlite3 timed \(times.count) statements of the floor, not 6") }
            totals.append(times.reduce(0, +))
            reviews.append(times[3])
            integerKeyed.append(try timedStatements(sqlite3, script: integerKeyedSchema(imported), copying: nil, work: work,
                                                    name: "integers-\(run)").reduce(0, +))
        }
        return SchemaFloor(total: totals.min() ?? 0, reviews: reviews.min() ?? 0, integerKeyed: integerKeyed.min() ?? 0)
    }

    private static func setUp(_ imported: String) -> String {
        """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -24576;
        PRAGMA temp_store = MEMORY;
        ATTACH '\(imported)' AS imported;

        """
    }

    /// `WHERE true`: a bare `SELECT *` from a table of the same shape would copy its pages
    /// whole (SQLite's transfer optimisation), which no import can do.
    private static func sameSchema(_ imported: String) -> String {
        setUp(imported) + """
            .timer on
            BEGIN;
            INSERT INTO books SELECT * FROM imported.books WHERE true;
            INSERT INTO words SELECT * FROM imported.words WHERE true;
            INSERT INTO reviews SELECT * FROM imported.reviews WHERE true;
            INSERT INTO schedules SELECT * FROM imported.schedules WHERE true;
            COMMIT;
            """
    }

    /// The rows with their references turned into integers beforehand (untimed), then written.
    private static func integerKeyedSchema(_ imported: String) -> String {
        setUp(imported) + """
            CREATE TABLE books (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE);
            CREATE TABLE words (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, book INTEGER NOT NULL, word TEXT NOT NULL,
                definition TEXT NOT NULL, detail TEXT NOT NULL, pronunciation TEXT NOT NULL, synonym TEXT NOT NULL,
                antonym TEXT NOT NULL, date INTEGER NOT NULL, memorized INTEGER NOT NULL, created_at INTEGER NOT NULL,
                modified_at INTEGER NOT NULL, stamps TEXT NOT NULL, word_key TEXT NOT NULL, scheduled INTEGER NOT NULL,
                UNIQUE (word, book));
            CREATE INDEX words_by_book ON words (book);
            CREATE INDEX words_by_key ON words (word_key);
            CREATE TABLE reviews (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, word INTEGER NOT NULL,
                reviewed_at INTEGER NOT NULL, rating INTEGER NOT NULL, duration_ms INTEGER, game BLOB, source INTEGER NOT NULL);
            CREATE INDEX reviews_by_word ON reviews (word, reviewed_at);
            CREATE TABLE schedules (word INTEGER PRIMARY KEY, state INTEGER NOT NULL, step INTEGER, stability REAL NOT NULL,
                difficulty REAL NOT NULL, due INTEGER NOT NULL, last_review INTEGER NOT NULL, reviews INTEGER NOT NULL,
                lapses INTEGER NOT NULL, first_review INTEGER NOT NULL);
            CREATE INDEX schedules_by_due ON schedules (due, word);
            CREATE TEMP TABLE b AS SELECT rowid AS n, randomblob(16) AS uuid, id, name, name_key FROM imported.books;
            CREATE TEMP TABLE w AS SELECT w.rowid AS n, randomblob(16) AS uuid, b.n AS book, w.* FROM imported.words w
                JOIN temp.b b ON b.id = w.book_id;
            CREATE TEMP TABLE r AS SELECT r.rowid AS n, randomblob(16) AS uuid, w.n AS word, r.reviewed_at, r.rating, r.duration_ms
                FROM imported.reviews r JOIN temp.w w ON w.id = r.word_id;
            CREATE TEMP TABLE s AS SELECT w.n AS word, s.* FROM imported.schedules s JOIN temp.w w ON w.id = s.word_id;
            .timer on
            BEGIN;
            INSERT INTO books SELECT n, uuid, name, name_key FROM temp.b WHERE true;
            INSERT INTO words SELECT n, uuid, book, word, definition, detail, pronunciation, synonym, antonym, date, memorized,
                created_at, modified_at, stamps, word_key, scheduled FROM temp.w WHERE true;
            INSERT INTO reviews SELECT n, uuid, word, reviewed_at, rating, duration_ms, NULL, 1 FROM temp.r WHERE true;
            INSERT INTO schedules SELECT word, state, step, stability, difficulty, due, last_review, reviews, lapses, first_review
                FROM temp.s WHERE true;
            COMMIT;
            """
    }

    /// Runs `script` with `sqlite3` on a new database (a copy of `copying` when given); returns
    /// the real time of each statement it timed.
    private static func timedStatements(_ sqlite3: String, script: String, copying: String?, work: String, name: String) throws -> [Double] {
        let database = work + "/\(name).sqlite", scriptPath = work + "/\(name).sql", output = work + "/\(name).txt"
        if let copying { try FileManager.default.copyItem(atPath: copying, toPath: database) }
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        _ = try ChildProcess.measure(sqlite3, [database], stdinPath: scriptPath, stdoutPath: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "Run Time: real ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }
    }
}
