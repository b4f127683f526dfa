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
        Migration(version: 2, sql: """
            -- A book's words in the order they were added (per-book listing, study, games).
            CREATE INDEX words_by_book ON words(book_id, date);
            -- Every graded answer, append-only; two devices' logs merge by union.
            CREATE TABLE reviews (
                id          TEXT PRIMARY KEY NOT NULL,
                word_id     TEXT NOT NULL,
                reviewed_at INTEGER NOT NULL,
                rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
                duration_ms INTEGER,
                game_id     TEXT,
                source      TEXT NOT NULL CHECK (source IN ('study', 'game', 'review'))
            );
            CREATE INDEX reviews_by_word ON reviews(word_id, reviewed_at);
            -- Derived from reviews (FSRS replay of each word's log); rebuilt whenever logs merge.
            CREATE TABLE schedules (
                word_id     TEXT PRIMARY KEY NOT NULL REFERENCES words(id) ON DELETE CASCADE,
                state       INTEGER NOT NULL,
                step        INTEGER,
                stability   REAL NOT NULL,
                difficulty  REAL NOT NULL,
                due         INTEGER NOT NULL,
                last_review INTEGER NOT NULL,
                reviews     INTEGER NOT NULL,
                lapses      INTEGER NOT NULL,
                first_review INTEGER NOT NULL
            );
            CREATE INDEX schedules_by_due ON schedules(due, word_id);
            CREATE TABLE games (
                id          TEXT PRIMARY KEY NOT NULL,
                started_at  INTEGER NOT NULL,
                finished_at INTEGER,
                mode        TEXT NOT NULL,
                books       TEXT NOT NULL,   -- book names, joined by newlines, as played
                planned     INTEGER NOT NULL,
                answered    INTEGER NOT NULL DEFAULT 0,
                correct     INTEGER NOT NULL DEFAULT 0,
                config      TEXT NOT NULL    -- JSON of the options the game ran with
            );
            CREATE TABLE game_answers (
                game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                word_id  TEXT NOT NULL,
                word     TEXT NOT NULL,
                expected TEXT NOT NULL,
                given    TEXT NOT NULL,
                correct  INTEGER NOT NULL,
                PRIMARY KEY (game_id, position)
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
