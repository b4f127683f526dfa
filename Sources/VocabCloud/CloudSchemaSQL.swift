import FoundationEssentials
import VocabSync
import VocabCloudAPI

extension CloudSchema {
    /// The schema (`SQL/schema.sql`, then `SQL/sharing.sql`), idempotent: running it again
    /// changes nothing, and it upgrades an older one in place (version 5's learner and device
    /// roles become rows, and the roles go).
    ///
    /// Nobody but the server tier (`vocab_server`) and administrators connect. The server
    /// tier holds no privilege on any table: it runs the functions, each of which takes the
    /// device a request proved (its id and secret, checked against the secret's SHA-256) and
    /// acts on that device's learner's rows alone. One learner's writes are serialised by a
    /// lock on the learner's own row of `vocab.accounts`, waited for five seconds at most (then
    /// "busy"). Nothing outlives a transaction, so it works through a transaction pooler.
    ///
    /// Shared books (version 8, `sharing.sql`): a learner shares one of his books under a code
    /// of 128 random bits; other learners follow it and pull its records straight from the
    /// owner's rows (stored once), through functions that return that book's book and word
    /// records and nothing else of the owner's. The owner sees how many follow, never who; a
    /// follower can write nothing of the owner's (every push writes the pusher's own rows).
    /// Refusals carry SQLSTATEs of their own (`VS001`…), which `ShareRefusal` names.
    static let installSQL = sql("schema.sql") + sql("sharing.sql")

    /// The bounds the SQL is made with, each written once in Swift: `{{name}}` in the files.
    static let boundsInSQL: [String: Int] = [
        "default_max_records": defaultMaxRecords, "default_max_bytes": defaultMaxBytes,
        "words_per_book": SharingBounds.wordsPerBook, "shares_per_learner": SharingBounds.sharesPerLearner,
        "follows_per_learner": SharingBounds.followsPerLearner,
    ]

    /// A file of `SQL/` (embedded at build time) without its last newline, its bounds put in.
    static func sql(_ name: String) -> String {
        var text = embeddedSQL[name].flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if text.hasSuffix("\n") { text.removeLast() }
        for (bound, value) in boundsInSQL { text = text.replacing("{{\(bound)}}", with: String(value)) }
        return text
    }
}
