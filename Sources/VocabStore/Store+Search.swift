import FoundationEssentials
import VocabCore

extension Store {
    // MARK: Search

    /// Words whose text, definition, detail, pronunciation, synonym or antonym contains `query`
    /// (ignoring case), best first: the word itself (ignoring case and accents), then words
    /// that start with it, then the rest (by relevance for queries of three characters or more,
    /// else in the order they were added). At most `limit` words.
    ///
    /// Three characters or more are looked up in the trigram index (`words_search`); shorter
    /// queries, which a trigram cannot hold, read the fields (ASCII case ignored).
    public func searchWords(_ query: String, inBook bookId: UUID? = nil, limit: Int? = nil) throws -> [Word] {
        let search = try searchSQL(query, selecting: Columns.word, inBook: bookId, limit: limit)
        return try guarded { try database.query(search.sql, search.arguments) { try $0.decodeWord() } }
    }

    /// The row keys (for `wordListRow(key:)`) of a book's words matching `query`, best first,
    /// as `searchWords` orders them.
    public func searchWordKeys(_ query: String, inBook bookId: UUID, limit: Int? = nil) throws -> [Int64] {
        let search = try searchSQL(query, selecting: "w.rowid", inBook: bookId, limit: limit)
        return try guarded { try database.query(search.sql, search.arguments) { $0.int(0) } }
    }

    /// The columns search looks in: the words table's text fields, which are the columns of the
    /// `words_search` index (schema v8).
    static let searchedColumns = WordFields.all.filter { $0.kind == .text }.map(\.column)

    /// The query behind both searches: `?1` the text to match, `?2` its look-up key, `?3` the
    /// book (or NULL), `?4` the limit (-1: none), `?5` the text with ASCII lower-cased (for
    /// reading fields directly: SQLite's lower() folds ASCII only).
    private func searchSQL(_ query: String, selecting columns: String, inBook bookId: UUID?,
                           limit: Int?) throws -> (sql: String, arguments: [SQLValue]) {
        let needle = TextRules.clean(query)
        guard !needle.isEmpty else { throw VocabError.emptyField(field: "search text") }
        let lowered = TextRules.asciiLowercased(needle)
        let book: SQLValue = bookId.map { .text($0.storageText) } ?? .null
        let fieldsContainText = Self.searchedColumns.map { "instr(lower(\($0)), ?5) > 0" }.joined(separator: " OR ")
        let sql: String
        if needle.unicodeScalars.count >= 3 {
            // A phrase of trigrams: the text as a substring, anywhere. The word found by its key
            // joins in (its case and accents may differ more than the index folds: "Straße"),
            // and so do words still waiting to be indexed, read directly.
            sql = """
                SELECT \(columns) FROM (
                    SELECT rowid AS hit, bm25(words_search) AS relevance FROM words_search WHERE words_search MATCH ?1
                    UNION ALL
                    SELECT rowid, 0 FROM words WHERE word_key = ?2 AND NOT EXISTS
                        (SELECT 1 FROM words_search WHERE words_search MATCH ?1 AND words_search.rowid = words.rowid)
                    UNION ALL
                    SELECT rowid, 0 FROM words WHERE rowid > (SELECT indexed_through FROM word_marks)
                        AND word_key != ?2 AND (\(fieldsContainText))
                ) found JOIN words w ON w.rowid = found.hit
                WHERE ?3 IS NULL OR w.book = \(Columns.bookKey("?3"))
                ORDER BY w.word_key = ?2 DESC, substr(w.word_key, 1, length(?2)) = ?2 DESC, found.relevance, w.rowid
                LIMIT ?4
                """
        } else {
            // Too short for a trigram: read the fields.
            sql = """
                SELECT \(columns) FROM words w
                WHERE (?3 IS NULL OR w.book = \(Columns.bookKey("?3"))) AND (w.word_key = ?2 OR \(fieldsContainText))
                ORDER BY w.word_key = ?2 DESC, substr(w.word_key, 1, length(?2)) = ?2 DESC, w.rowid
                LIMIT ?4
                """
        }
        let phrase = "\"" + needle.replacingText("\"", with: "\"\"") + "\""
        return (sql, [.text(phrase), .text(TextRules.lookupKey(needle)), book, .integer(Int64(limit ?? -1)), .text(lowered)])
    }
}

extension Store {
    /// Brings what is kept beside the words up to the words inserted since the marks
    /// (`word_marks`): each book's counts always, set-wise; the search index when fewer than
    /// `indexLimit` words wait (more — a big import or pull — are left to `indexDeferredWords`,
    /// run in the background; searches read waiting words directly meanwhile). `Store.write`
    /// calls this at the end of every outermost write, in its transaction.
    func catchUpWordMarks(indexLimit: Int64 = 2_000) throws {
        let (counted, indexed, last) = try database.first("""
            SELECT counted_through, indexed_through, (SELECT coalesce(max(rowid), 0) FROM words) FROM word_marks
            """) { ($0.int(0), $0.int(1), $0.int(2)) } ?? (0, 0, 0)
        if last > counted {
            // Book by book through words_by_book: a GROUP BY over the new rows would sort them
            // all (a million-word import's sorter took 25 MiB); DISTINCT keeps only the books.
            let range: [SQLValue] = [.integer(counted), .integer(last)]
            let books = try database.query("SELECT DISTINCT book FROM words WHERE rowid > ?1 AND rowid <= ?2", range) { $0.int(0) }
            for book in books {
                try database.run("""
                    INSERT INTO book_counts (book, words, memorized, fresh)
                    SELECT ?3, count(*), coalesce(sum(memorized), 0), coalesce(sum(memorized = 0 AND scheduled = 0), 0)
                    FROM words WHERE book = ?3 AND rowid > ?1 AND rowid <= ?2
                    ON CONFLICT (book) DO UPDATE SET words = words + excluded.words,
                        memorized = memorized + excluded.memorized, fresh = fresh + excluded.fresh
                    """, range + [.integer(book)])
            }
            try database.run("UPDATE word_marks SET counted_through = ?", [.integer(last)])
        }
        if last > indexed && last - indexed < indexLimit { _ = try indexWaitingWords(limit: indexLimit) }
    }

    /// How many words wait to be indexed for search (an upper bound: words deleted while
    /// waiting count until the indexer passes them).
    public func searchBacklog() throws -> Int {
        Int(try guarded {
            try database.integer("SELECT max(0, coalesce((SELECT max(rowid) FROM words), 0) - indexed_through) FROM word_marks")
        })
    }

    /// Indexes the words that wait for it, `chunk` rowids per transaction (so other writers go
    /// between), until none wait or `isCancelled` says stop; `progress` hears the rowids passed
    /// so far after each chunk. Returns how many rowids it passed.
    @discardableResult
    public func indexDeferredWords(chunk: Int64 = 5_000, isCancelled: () -> Bool = { false },
                                   progress: (Int64) -> Void = { _ in }) throws -> Int64 {
        var passed: Int64 = 0
        while !isCancelled() {
            let step = try write { try indexWaitingWords(limit: chunk) }
            if step == 0 { break }
            passed += step
            progress(passed)
        }
        return passed
    }

    /// Indexes the words with rowids in (indexed_through, indexed_through + limit] in one
    /// statement (FTS5 writes its pending terms at the end of each statement: one word per
    /// statement was seven times slower) and moves the mark. Returns the rowids it passed.
    private func indexWaitingWords(limit: Int64) throws -> Int64 {
        let (start, last) = try database.first("""
            SELECT indexed_through, (SELECT coalesce(max(rowid), 0) FROM words) FROM word_marks
            """) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        guard last > start else { return 0 }
        let end = Swift.min(start + limit, last)
        try database.run("""
            INSERT INTO words_search (rowid, \(Self.searchedColumns.joined(separator: ", ")))
            SELECT rowid, \(Self.searchedColumns.joined(separator: ", ")) FROM words
            WHERE rowid > ?1 AND rowid <= ?2
            """, [.integer(start), .integer(end)])
        try database.run("UPDATE word_marks SET indexed_through = ?", [.integer(end)])
        return end - start
    }
}

extension Store {
    /// What is kept beside the words (the search index, each book's counts, `words.scheduled`,
    /// the log's tally) checked against the words and reviews as they are, up to the marks: one
    /// line per disagreement, none when all agree. For tests and repair checks; reads every word.
    public func derivedDataProblems() throws -> [String] {
        try guarded {
            var problems: [String] = []
            // FTS5's check compares the index with every word: only meaningful when none waits.
            if try database.integer("SELECT coalesce((SELECT max(rowid) FROM words), 0) > indexed_through FROM word_marks") == 0 {
                do {
                    try database.execute("INSERT INTO words_search (words_search, rank) VALUES ('integrity-check', 1)")
                } catch {
                    problems.append("the search index does not hold the words' text: \(error)")
                }
            }
            let books = try database.query("""
                SELECT coalesce(actual.book, kept.book) FROM (
                    SELECT book, count(*) AS words, sum(memorized) AS memorized,
                           sum(memorized = 0 AND NOT EXISTS (SELECT 1 FROM schedules s WHERE s.word = w.key)) AS fresh
                    FROM words w WHERE rowid <= (SELECT counted_through FROM word_marks) GROUP BY book
                ) actual FULL JOIN (SELECT * FROM book_counts WHERE words != 0 OR memorized != 0 OR fresh != 0) kept
                  ON kept.book = actual.book
                WHERE actual.book IS NULL OR kept.book IS NULL OR actual.words != kept.words
                   OR actual.memorized != kept.memorized OR actual.fresh != kept.fresh
                """) { $0.int(0) }
            problems += books.map { "book_counts disagrees with the words of book \($0)" }
            let flags = try database.integer("""
                SELECT count(*) FROM words w WHERE w.scheduled != EXISTS (SELECT 1 FROM schedules s WHERE s.word = w.key)
                """)
            if flags > 0 { problems.append("\(flags) words' scheduled flag disagrees with the schedules") }
            if try database.integer("SELECT (SELECT n FROM review_tally) != (SELECT count(*) FROM reviews)") != 0 {
                problems.append("review_tally disagrees with the reviews")
            }
            return problems
        }
    }
}
