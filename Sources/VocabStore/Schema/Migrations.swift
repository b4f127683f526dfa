/// The store's schema, one forward-only step per version. A step is never edited once
/// released: later changes are new steps (each with a test that upgrades the previous version).
enum Migrations {
    /// `PRAGMA application_id` of every Vocab store: "Voca" in ASCII.
    static let applicationID: Int64 = 0x566F_6361

    static let steps: [Migration] = [
        Migration(version: 1, sql: """
            CREATE TABLE books (
                id          TEXT PRIMARY KEY NOT NULL,
                name        TEXT NOT NULL,
                name_key    TEXT NOT NULL UNIQUE,   -- name, cleaned and lower-cased
                explain     TEXT NOT NULL DEFAULT '',
                meaning     TEXT NOT NULL DEFAULT '',
                image       BLOB,
                cover_word  TEXT NOT NULL DEFAULT '',
                created_at  INTEGER NOT NULL,       -- ms since the epoch
                modified_at INTEGER NOT NULL
            );
            CREATE TABLE words (
                id            TEXT PRIMARY KEY NOT NULL,
                book_id       TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
                word          TEXT NOT NULL,
                definition    TEXT NOT NULL DEFAULT '',
                detail        TEXT NOT NULL DEFAULT '',
                pronunciation TEXT NOT NULL DEFAULT '',
                synonym       TEXT NOT NULL DEFAULT '',
                antonym       TEXT NOT NULL DEFAULT '',
                date          INTEGER NOT NULL,
                memorized     INTEGER NOT NULL DEFAULT 0,
                created_at    INTEGER NOT NULL,
                modified_at   INTEGER NOT NULL,
                -- Word first: comparisons settle on the text, and a word is found by its text in any book.
                UNIQUE (word, book_id)
            );
            -- Deletions are remembered so that they can travel to other devices.
            CREATE TABLE tombstones (
                id         TEXT PRIMARY KEY NOT NULL,
                kind       TEXT NOT NULL CHECK (kind IN ('book', 'word')),
                deleted_at INTEGER NOT NULL
            );
            """),
    ]

    static var latestVersion: Int64 { steps.last?.version ?? 0 }
}

/// One schema step: the SQL that takes a store from `version - 1` to `version`.
struct Migration {
    let version: Int64
    let sql: String
}
