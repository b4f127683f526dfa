import Foundation

/// What SQLite alone takes to write the rows an import wrote — no Swift in the loop, one
/// `INSERT … SELECT` per table, timed by `sqlite3` itself (`.timer`), best of three — into an
/// empty Vocab store (made by `vocab`: the same tables, indexes, triggers and pragmas as the
/// import's): the floor of this schema.
struct SchemaFloor {
    var total: Double
    /// Of `total`, the reviews' insert.
    var reviews: Double

    /// Nil without the sqlite3 program. `imported`: the store the import filled.
    static func measure(imported: String, work: String) throws -> SchemaFloor? {
        guard let sqlite3 = ChildProcess.which("sqlite3") else { return nil }
        let empty = try BenchStore.emptyStoreFile(home: work + "/empty-home", config: work + "/config")
        var totals: [Double] = [], reviews: [Double] = []
        for run in 0..<3 {
            let times = try timedStatements(sqlite3, script: sameSchema(imported), copying: empty, work: work, name: "floor-\(run)")
            guard times.count == 6 else { throw BenchError.message("sqlite3 timed \(times.count) statements of the floor, not 6") }
            totals.append(times.reduce(0, +))
            reviews.append(times[3])
        }
        return SchemaFloor(total: totals.min() ?? 0, reviews: reviews.min() ?? 0)
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
