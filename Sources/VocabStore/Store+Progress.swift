import Dispatch
import FoundationEssentials
import VocabCore

extension Store {
    /// Feeds `tally` every row a progress report is made of: the review log in (word, time)
    /// order, the schedules, and the words' dates. `books` are the report's books, numbered in
    /// this order in the tally; `onlyThese` limits the rows to them (otherwise every book is in
    /// `books` and no filter is needed).
    ///
    /// A large log is read in two halves at once (the words below a middle key on this
    /// connection, the rest on a second one, each half tallied apart and then added up): the
    /// reading is most of the time, and it halves. The second connection's snapshot may be a
    /// commit newer than this one's; a word's reviews all come from one of them.
    public func tallyProgress(_ tally: inout ProgressTally, books: [UUID], onlyThese: Bool) throws {
        try tallyProgress(&tally, books: books, onlyThese: onlyThese, splitFrom: Self.progressSplitWords)
    }

    /// `tallyProgress`, reading the log in two halves once its word keys lie `splitFrom` apart.
    func tallyProgress(_ tally: inout ProgressTally, books: [UUID], onlyThese: Bool, splitFrom: Int64) throws {
        try guarded {
            try database.readTransaction {
                let index = try bookNumbering(books)
                if onlyThese && index.isEmpty { return }
                let inBooks = onlyThese ? "w.book IN (\(index.keys.map(String.init).joined(separator: ", ")))" : nil
                try tallyReviews(&tally, inBooks: inBooks, splitFrom: splitFrom)
                let filter = inBooks.map { " WHERE \($0)" } ?? ""
                try database.forEachRow("""
                    SELECT w.book, w.memorized, s.state, s.stability, s.difficulty, s.due, s.last_review
                    FROM schedules s CROSS JOIN words w ON w.key = s.word\(filter)
                    """) { row in
                    tally.schedule(book: index[row.int(0)] ?? -1, memorized: row.bool(1), state: Int(row.int(2)),
                                   stability: row.double(3), difficulty: row.double(4), due: row.int(5), lastReview: row.int(6))
                }
                let since = tally.grid.starts[max(0, tally.grid.todayIndex - tally.days + 1)]
                try database.forEachRow("SELECT w.date FROM words w WHERE w.date >= ?\(inBooks.map { " AND \($0)" } ?? "")",
                                        [.integer(since)]) { row in
                    tally.wordAdded(at: row.int(0))
                }
            }
        }
    }

    /// Logs of words whose keys lie at least this far apart are read in two halves at once.
    static let progressSplitWords: Int64 = 20_000

    private func tallyReviews(_ tally: inout ProgressTally, inBooks: String?, splitFrom: Int64) throws {
        // Two look-ups at the ends of the log's key (min and max in one query read it all).
        let bounds = try database.first("SELECT (SELECT min(word) FROM reviews), (SELECT max(word) FROM reviews)") { ($0.int(0), $0.int(1)) }
        guard let bounds, bounds.1 - bounds.0 >= splitFrom, path != ":memory:", let helper = try? Store(path: path) else {
            return try Self.scanReviews(database, into: &tally, inBooks: inBooks, words: "1")
        }
        let middle = bounds.0 + (bounds.1 - bounds.0) / 2
        let upper = ProgressHalf(store: helper, tally: tally, inBooks: inBooks, words: "r.word > \(middle)")
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { upper.run() }
        let lower = Result { try Self.scanReviews(database, into: &tally, inBooks: inBooks, words: "r.word <= \(middle)") }
        done.wait()
        try lower.get()
        if let error = upper.error { throw error }
        tally.add(reviewsOf: upper.tally)
    }

    /// Tallies the reviews of the words `words` picks (SQL over `r.word`), in the log's own
    /// order (its key begins with the word, then the time): no sort.
    fileprivate static func scanReviews(_ database: Database, into tally: inout ProgressTally, inBooks: String?, words: String) throws {
        let sql = inBooks.map {
            "SELECT r.word, r.reviewed_at, r.rating FROM words w CROSS JOIN reviews r ON r.word = w.key WHERE \($0) AND \(words) ORDER BY r.word, r.reviewed_at, r.id"
        } ?? "SELECT r.word, r.reviewed_at, r.rating FROM reviews r WHERE \(words)"
        try database.forEachRow(sql) { row in
            tally.review(word: row.int(0), at: row.int(1), rating: Int(row.int(2)))
        }
    }

    /// The store's key of each book in `books`, mapped to its position there.
    private func bookNumbering(_ books: [UUID]) throws -> [Int64: Int] {
        let wanted = Dictionary(books.enumerated().map { ($1.storageText, $0) }, uniquingKeysWith: { first, _ in first })
        var keys: [Int64: Int] = [:]
        try database.forEachRow("SELECT key, id FROM books") { row in
            if let position = wanted[row.text(1)] { keys[row.int(0)] = position }
        }
        return keys
    }
}

/// The upper half of a log, tallied on its own connection and thread while the caller's
/// tallies the lower half; read only after the thread is done.
private final class ProgressHalf: @unchecked Sendable {
    let store: Store
    var tally: ProgressTally
    let inBooks: String?
    let words: String
    var error: Error?

    init(store: Store, tally: ProgressTally, inBooks: String?, words: String) {
        self.store = store
        self.tally = tally
        self.inBooks = inBooks
        self.words = words
    }

    func run() {
        do {
            try store.guarded {
                try store.database.execute("PRAGMA query_only = ON")
                try store.database.readTransaction {
                    try Store.scanReviews(store.database, into: &tally, inBooks: inBooks, words: words)
                }
            }
        } catch {
            self.error = error
        }
    }
}
