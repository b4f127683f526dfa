import FoundationEssentials
import VocabCore
import VocabCloudAPI

extension CloudSchema {
    /// The schema's SQL (`SQL/`), in the order an install runs it:
    ///
    /// 1. `role.sql`: the server tier's role and what it is held to (every install);
    /// 2. the tables: `tables.sql` on a database without them, or else the numbered steps
    ///    `upgrade-N.sql` from the cloud's version to this one (`upgradeSteps`), each run once;
    /// 3. `functions.sql` then `sharing.sql`: functions, row policies and grants, replaced at
    ///    every install.
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
    static var roleSQL: String { get throws { try sql("role.sql") } }
    static var tablesSQL: String { get throws { try sql("tables.sql") } }
    static var functionsSQL: String { get throws { try sql("functions.sql") + "\n" + sql("sharing.sql") } }

    /// `upgradeSteps[n]` brings a cloud of version n - 1 to version n. The first one brings a
    /// cloud of any older version: until version 8 the schema was one script run again at
    /// each upgrade (version 8 changed within itself), and that step is its history, safe to
    /// run again on a cloud at 8.
    static let upgradeSteps: [Int: String] = [8: "upgrade-8.sql", 9: "upgrade-9.sql", 10: "upgrade-10.sql", 11: "upgrade-11.sql",
                                                 12: "upgrade-12.sql"]
    static let firstNumberedStep = 8

    /// Everything an install may run; its md5 tells an up-to-date cloud (nothing to do).
    static var installSQL: String {
        get throws {
            try ([roleSQL, tablesSQL] + upgradeSteps.keys.sorted().map { try sql(upgradeSteps[$0] ?? "") } + [functionsSQL])
                .joined(separator: "\n")
        }
    }

    /// The steps that bring a cloud of `found` (nil: no Vocab tables yet) to this version's
    /// tables, in order; none for a cloud of this version.
    static func tableSteps(from found: Int?) throws -> [String] {
        guard let found else { return [try tablesSQL] }
        guard found < version else { return [] }
        // A cloud at the first numbered step runs it again: version 8 changed within itself.
        let first = found <= firstNumberedStep ? firstNumberedStep : found + 1
        return try (first...version).map { step in try sql(upgradeSteps[step] ?? "upgrade-\(step).sql") }
    }

    /// The bounds the SQL is made with, each written once in Swift: `{{name}}` in the files.
    static let boundsInSQL: [String: Int] = [
        "default_max_records": defaultMaxRecords, "default_max_bytes": defaultMaxBytes,
        "words_per_book": SharingBounds.wordsPerBook, "shares_per_learner": SharingBounds.sharesPerLearner,
        "follows_per_learner": SharingBounds.followsPerLearner,
        "batch_bytes": PushBounds.batchBytes, "book_bytes": PushBounds.bookBytes, "word_bytes": PushBounds.wordBytes,
        "settings_bytes": PushBounds.settingsBytes, "other_record_bytes": PushBounds.otherRecordBytes,
        "pull_bytes": PullBounds.pageBytes, "anki_media_bytes": AnkiMediaBounds.uploadBytes,
        "backups_per_account": AccountBackups.keptPerAccount,
    ]

    /// A file of `SQL/` (embedded at build time) without its last newline, its bounds put in;
    /// a file this build lacks is refused (an install never runs without a part of the schema).
    static func sql(_ name: String, from files: [String: String] = embeddedSQL) throws -> String {
        guard let encoded = files[name], let data = Data(base64Encoded: encoded) else { throw MissingSchemaFile(name: name) }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        for (bound, value) in boundsInSQL { text = text.replacing("{{\(bound)}}", with: String(value)) }
        return text
    }
}

/// A part of the cloud's schema this build of Vocab lacks (a build that went wrong): nothing
/// is installed.
public struct MissingSchemaFile: UserFacingError {
    public let name: String
    public var category: ErrorCategory { .cloudUnavailable }
    public var sentence: Sentence {
        Sentence("This build of Vocab lacks the cloud's %@, so the cloud was left as it was; build Vocab again.", .text(name))
    }
}
