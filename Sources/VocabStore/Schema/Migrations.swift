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
        Migration(version: 3, sql: """
            -- Sync: what changed locally since the last push, the server token, per-field stamps.
            CREATE TABLE sync_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            -- One row per object changed since it was last pushed. REPLACE gives a changed
            -- object a new rowid, so "rowid <= the one read" means "unchanged since read".
            CREATE TABLE outbox (
                kind TEXT NOT NULL CHECK (kind IN ('book', 'word', 'review')),
                id   TEXT NOT NULL,
                UNIQUE (kind, id)
            );
            -- A row here while remote changes (or a bulk import, which fills the outbox itself)
            -- are applied keeps the triggers below quiet.
            CREATE TABLE sync_applying (flag INTEGER NOT NULL);
            -- Remote rows that could not be applied yet (their book had not arrived).
            CREATE TABLE sync_pending (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, id));
            -- JSON {"field": [ms, "device"]}: when and where each field was last set.
            ALTER TABLE books ADD COLUMN stamps TEXT NOT NULL DEFAULT '{}';
            ALTER TABLE words ADD COLUMN stamps TEXT NOT NULL DEFAULT '{}';
            CREATE TRIGGER outbox_book_insert AFTER INSERT ON books WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            CREATE TRIGGER outbox_book_update AFTER UPDATE ON books WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            -- New words are put in the outbox by Store.insert (a trigger per inserted row made bulk
            -- imports a third slower; imports fill the outbox set-wise instead).
            CREATE TRIGGER outbox_word_update AFTER UPDATE ON words WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('word', NEW.id); END;
            CREATE TRIGGER outbox_review_insert AFTER INSERT ON reviews WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('review', NEW.id); END;
            CREATE TRIGGER outbox_tombstone AFTER INSERT ON tombstones WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES (NEW.kind, NEW.id); END;
            -- Everything made before sync existed is waiting to be pushed.
            INSERT INTO outbox SELECT 'book', id FROM books;
            INSERT INTO outbox SELECT 'word', id FROM words;
            INSERT INTO outbox SELECT 'review', id FROM reviews;
            INSERT OR IGNORE INTO outbox SELECT kind, id FROM tombstones;
            """),
        Migration(version: 4, sql: """
            -- Words whose rowid is in (after_rowid, through_rowid] wait to be pushed: a bulk import
            -- records its new words as one range here instead of one outbox row each. The next
            -- push turns ranges into outbox rows first.
            CREATE TABLE outbox_word_ranges (
                after_rowid   INTEGER NOT NULL,
                through_rowid INTEGER NOT NULL CHECK (through_rowid > after_rowid)
            );
            """),
        Migration(version: 5, sql: """
            -- A book's words by rowid (an index on book_id alone sorts its entries by rowid): a
            -- book's first and last word and a seek to a random word are index lookups, so game
            -- setup does not grow with the book, and bulk imports append to the index instead of
            -- inserting at random dates. Date order within a book is sorted when asked for.
            DROP INDEX words_by_book;
            CREATE INDEX words_by_book ON words(book_id);
            """),
        Migration(version: 6, sql: """
            -- A book deleted because it was folded into a same-named book keeps the survivor's id,
            -- and its tombstone carries it: a device that pulls the tombstone before the survivor
            -- moves its own words over instead of deleting them.
            ALTER TABLE tombstones ADD COLUMN merged_into TEXT;
            """),
        Migration(version: 7, sql: """
            -- Only a store bound to an account keeps an outbox: binding queues everything anyway
            -- (Store.syncToken), so a store that never synced need not keep a row for each of
            -- its books, words and reviews (a third of a big store's size, copied by every backup).
            DROP TRIGGER outbox_book_insert;
            DROP TRIGGER outbox_book_update;
            DROP TRIGGER outbox_word_update;
            DROP TRIGGER outbox_review_insert;
            DROP TRIGGER outbox_tombstone;
            CREATE TRIGGER outbox_book_insert AFTER INSERT ON books
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            CREATE TRIGGER outbox_book_update AFTER UPDATE ON books
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            CREATE TRIGGER outbox_word_update AFTER UPDATE ON words
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('word', NEW.id); END;
            CREATE TRIGGER outbox_review_insert AFTER INSERT ON reviews
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('review', NEW.id); END;
            CREATE TRIGGER outbox_tombstone AFTER INSERT ON tombstones
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES (NEW.kind, NEW.id); END;
            DELETE FROM outbox WHERE NOT EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server');
            DELETE FROM outbox_word_ranges WHERE NOT EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server');
            """),
        Migration(version: 8, sql: """
            -- A word is found by its text ignoring case and accents through an index: word_key is
            -- TextRules.lookupKey(word), set by the store's write path (filled here for existing
            -- words, quietly: a key is not a change to push). `scheduled` mirrors "has a
            -- schedules row" (kept by the triggers on schedules) so that new words can be counted.
            INSERT INTO sync_applying VALUES (1);
            ALTER TABLE words ADD COLUMN word_key TEXT NOT NULL DEFAULT '';
            UPDATE words SET word_key = vocab_lookup_key(word);
            ALTER TABLE words ADD COLUMN scheduled INTEGER NOT NULL DEFAULT 0;
            UPDATE words SET scheduled = 1 WHERE id IN (SELECT word_id FROM schedules);
            DELETE FROM sync_applying;
            CREATE INDEX words_by_key ON words(word_key);
            CREATE TRIGGER words_scheduled AFTER INSERT ON schedules BEGIN
                UPDATE words SET scheduled = 1 WHERE id = NEW.word_id AND scheduled = 0;
            END;
            CREATE TRIGGER words_unscheduled AFTER DELETE ON schedules BEGIN
                UPDATE words SET scheduled = 0 WHERE id = OLD.word_id AND scheduled = 1;
            END;
            -- Neither derived column is a change to push: the outbox hears of the others only.
            DROP TRIGGER outbox_word_update;
            CREATE TRIGGER outbox_word_update AFTER UPDATE OF
                book_id, word, definition, detail, pronunciation, synonym, antonym, date, memorized,
                created_at, modified_at, stamps ON words
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('word', NEW.id); END;

            -- Two things are kept beside the words, set-wise rather than by a trigger per
            -- inserted word (a trigger runs once per row of a single-row INSERT, and two of them
            -- made a 100,000-word import twice as slow): each book's counts, and a full-text
            -- index. Words up to a mark are in them; words above it (new rows: a rowid only
            -- grows) wait for the store to catch up (Store.catchUpWordMarks, at the end of each
            -- write; the index of a big import later, in the background). Readers add what
            -- waits, so they are always right. Deletes and updates of words below a mark keep
            -- them in step by the triggers below; a delete lowers the marks to the last rowid
            -- left, so a rowid used again is never below a mark.
            CREATE TABLE word_marks (counted_through INTEGER NOT NULL, indexed_through INTEGER NOT NULL);
            INSERT INTO word_marks SELECT coalesce(max(rowid), 0), coalesce(max(rowid), 0) FROM words;
            CREATE TABLE book_counts (
                book_id   TEXT PRIMARY KEY NOT NULL,
                words     INTEGER NOT NULL,
                memorized INTEGER NOT NULL,
                fresh     INTEGER NOT NULL   -- new words: not memorised, never reviewed
            ) WITHOUT ROWID;
            INSERT INTO book_counts (book_id, words, memorized, fresh)
            SELECT book_id, count(*), sum(memorized), sum(memorized = 0 AND scheduled = 0) FROM words GROUP BY book_id;
            -- Full-text search over every text field: a trigram index finds any substring of
            -- three or more characters, in any script (Korean has no spaces inside words to
            -- split on), ignoring case. It indexes the words table's own rows (no second copy).
            CREATE VIRTUAL TABLE words_search USING fts5(
                word, definition, detail, pronunciation, synonym, antonym,
                content = 'words', content_rowid = 'rowid', tokenize = 'trigram'
            );
            CREATE TRIGGER words_delete AFTER DELETE ON words BEGIN
                UPDATE book_counts SET words = words - 1, memorized = memorized - OLD.memorized,
                    fresh = fresh - (OLD.memorized = 0 AND OLD.scheduled = 0)
                WHERE book_id = OLD.book_id AND OLD.rowid <= (SELECT counted_through FROM word_marks);
                INSERT INTO words_search (words_search, rowid, word, definition, detail, pronunciation, synonym, antonym)
                SELECT 'delete', OLD.rowid, OLD.word, OLD.definition, OLD.detail, OLD.pronunciation, OLD.synonym, OLD.antonym
                WHERE OLD.rowid <= (SELECT indexed_through FROM word_marks);
                UPDATE word_marks SET counted_through = min(counted_through, (SELECT coalesce(max(rowid), 0) FROM words)),
                    indexed_through = min(indexed_through, (SELECT coalesce(max(rowid), 0) FROM words));
            END;
            CREATE TRIGGER words_counted_update AFTER UPDATE OF book_id, memorized, scheduled ON words
            WHEN OLD.rowid <= (SELECT counted_through FROM word_marks) BEGIN
                UPDATE book_counts SET words = words - 1, memorized = memorized - OLD.memorized,
                    fresh = fresh - (OLD.memorized = 0 AND OLD.scheduled = 0)
                WHERE book_id = OLD.book_id;
                INSERT INTO book_counts (book_id, words, memorized, fresh)
                VALUES (NEW.book_id, 1, NEW.memorized, NEW.memorized = 0 AND NEW.scheduled = 0)
                ON CONFLICT (book_id) DO UPDATE SET words = words + 1, memorized = memorized + excluded.memorized,
                    fresh = fresh + excluded.fresh;
            END;
            CREATE TRIGGER words_indexed_update AFTER UPDATE OF word, definition, detail, pronunciation, synonym, antonym ON words
            WHEN OLD.rowid <= (SELECT indexed_through FROM word_marks) BEGIN
                INSERT INTO words_search (words_search, rowid, word, definition, detail, pronunciation, synonym, antonym)
                VALUES ('delete', OLD.rowid, OLD.word, OLD.definition, OLD.detail, OLD.pronunciation, OLD.synonym, OLD.antonym);
                INSERT INTO words_search (rowid, word, definition, detail, pronunciation, synonym, antonym)
                VALUES (NEW.rowid, NEW.word, NEW.definition, NEW.detail, NEW.pronunciation, NEW.synonym, NEW.antonym);
            END;
            CREATE TRIGGER book_counts_book_delete AFTER DELETE ON books BEGIN
                DELETE FROM book_counts WHERE book_id = OLD.id;
            END;
            INSERT INTO words_search (words_search) VALUES ('rebuild');
            """),
        Migration(version: 9, sql: """
            -- The learner's own scheduling (the optimiser): FSRS-6 parameters fitted to their
            -- log (NULL: the published defaults) and the recall they aim for. One row, account
            -- data: it syncs, the newest change winning (changed_at, then device).
            CREATE TABLE learning_settings (
                id          INTEGER PRIMARY KEY CHECK (id = 1),
                parameters  TEXT,
                retention   REAL NOT NULL DEFAULT 0.9 CHECK (retention BETWEEN 0.5 AND 0.99),
                changed_at  INTEGER NOT NULL DEFAULT 0,
                device      TEXT NOT NULL DEFAULT ''
            );
            -- The outbox takes them too: rebuilt with the wider kind check, keeping every rowid
            -- (a push compares them). In legacy mode a rename leaves the triggers that write to
            -- "outbox" as they are, so they write to the new table.
            PRAGMA legacy_alter_table = ON;
            ALTER TABLE outbox RENAME TO outbox_v8;
            CREATE TABLE outbox (
                kind TEXT NOT NULL CHECK (kind IN ('book', 'word', 'review', 'settings')),
                id   TEXT NOT NULL,
                UNIQUE (kind, id)
            );
            INSERT INTO outbox (rowid, kind, id) SELECT rowid, kind, id FROM outbox_v8;
            DROP TABLE outbox_v8;
            PRAGMA legacy_alter_table = OFF;
            """),
        Migration(version: 10, sql: """
            -- A study session's queries, answered from indexes whatever the store's size (a web
            -- server asks them at every card): the day's new words, oldest first, walk only the
            -- words never reviewed; the words first reviewed today are found by that time.
            CREATE INDEX words_new ON words (date, id) WHERE memorized = 0 AND scheduled = 0;
            CREATE INDEX schedules_by_first_review ON schedules (first_review);
            """),
        Migration(version: 11, sql: """
            -- Books, words, reviews and schedules refer to each other by integer keys; each book
            -- and word keeps its id (unique) for sync, files and the command line, and a review
            -- its id as 16 bytes. A word's key is its old rowid (the marks, the outbox's ranges
            -- and the search index count in rowids). Orphaned reviews of a word that is not
            -- here (it waits for its book) wait for it in sync_pending; those of a deleted word
            -- go, as a deleted word's reviews always did. Foreign keys are off while a store is
            -- upgraded (Store turns them on after), so dropping the old tables cascades nothing.
            PRAGMA legacy_alter_table = ON;
            DROP TRIGGER outbox_book_insert;
            DROP TRIGGER outbox_book_update;
            DROP TRIGGER book_counts_book_delete;
            DROP TRIGGER outbox_word_update;
            DROP TRIGGER words_delete;
            DROP TRIGGER words_counted_update;
            DROP TRIGGER words_indexed_update;
            DROP TRIGGER outbox_review_insert;
            DROP TRIGGER words_scheduled;
            DROP TRIGGER words_unscheduled;

            CREATE TABLE books_v11 (
                key         INTEGER PRIMARY KEY,
                id          TEXT NOT NULL UNIQUE,
                name        TEXT NOT NULL,
                name_key    TEXT NOT NULL UNIQUE,
                explain     TEXT NOT NULL DEFAULT '',
                meaning     TEXT NOT NULL DEFAULT '',
                image       BLOB,
                cover_word  TEXT NOT NULL DEFAULT '',
                created_at  INTEGER NOT NULL,
                modified_at INTEGER NOT NULL,
                stamps      TEXT NOT NULL DEFAULT '{}'
            );
            INSERT INTO books_v11 (id, name, name_key, explain, meaning, image, cover_word, created_at, modified_at, stamps)
            SELECT id, name, name_key, explain, meaning, image, cover_word, created_at, modified_at, stamps FROM books ORDER BY rowid;

            CREATE TABLE words_v11 (
                key           INTEGER PRIMARY KEY,
                id            TEXT NOT NULL UNIQUE,
                book          INTEGER NOT NULL REFERENCES books(key) ON DELETE CASCADE,
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
                stamps        TEXT NOT NULL DEFAULT '{}',
                word_key      TEXT NOT NULL DEFAULT '',
                scheduled     INTEGER NOT NULL DEFAULT 0,
                UNIQUE (word, book)
            );
            INSERT INTO words_v11 (key, id, book, word, definition, detail, pronunciation, synonym, antonym, date, memorized,
                                   created_at, modified_at, stamps, word_key, scheduled)
            SELECT w.rowid, w.id, b.key, w.word, w.definition, w.detail, w.pronunciation, w.synonym, w.antonym, w.date, w.memorized,
                   w.created_at, w.modified_at, w.stamps, w.word_key, w.scheduled
            FROM words w JOIN books_v11 b ON b.id = w.book_id ORDER BY w.rowid;

            -- A review is kept in its word's log order, keyed by (word, time, id): one B-tree
            -- holds the log, answers a word's reviews in order, and tells a review already
            -- here (the same review always has the same word and time), with no index beside it.
            CREATE TABLE reviews_v11 (
                word        INTEGER NOT NULL REFERENCES words(key) ON DELETE CASCADE,
                reviewed_at INTEGER NOT NULL,
                id          BLOB NOT NULL,            -- the review's id, its 16 bytes
                rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
                duration_ms INTEGER,
                game_id     TEXT,
                source      TEXT NOT NULL CHECK (source IN ('study', 'game', 'review')),
                PRIMARY KEY (word, reviewed_at, id)
            ) WITHOUT ROWID;
            INSERT OR IGNORE INTO reviews_v11 (word, reviewed_at, id, rating, duration_ms, game_id, source)
            SELECT w.key, r.reviewed_at, vocab_id_bytes(r.id), r.rating, r.duration_ms, r.game_id, r.source
            FROM reviews r JOIN words_v11 w ON w.id = r.word_id WHERE vocab_id_bytes(r.id) IS NOT NULL
            ORDER BY w.key, r.reviewed_at, r.id;
            -- The outbox finds a review to push by its word (the review's key begins with it).
            ALTER TABLE outbox ADD COLUMN word INTEGER;
            UPDATE outbox SET word = (SELECT w.key FROM reviews r JOIN words_v11 w ON w.id = r.word_id WHERE r.id = outbox.id)
            WHERE kind = 'review';
            INSERT OR IGNORE INTO sync_pending (kind, id, body)
            SELECT 'review', r.id, json_object('wordId', r.word_id, 'reviewedAt', r.reviewed_at, 'rating', r.rating,
                                               'durationMs', r.duration_ms, 'gameId', r.game_id, 'source', r.source)
            FROM reviews r
            WHERE NOT EXISTS (SELECT 1 FROM words_v11 w WHERE w.id = r.word_id)
              AND NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.id = r.word_id);
            -- A review that now waits for its word is not this device's to push.
            DELETE FROM outbox WHERE kind = 'review' AND id IN (SELECT id FROM sync_pending WHERE kind = 'review');

            CREATE TABLE schedules_v11 (
                word         INTEGER PRIMARY KEY REFERENCES words(key) ON DELETE CASCADE,
                state        INTEGER NOT NULL,
                step         INTEGER,
                stability    REAL NOT NULL,
                difficulty   REAL NOT NULL,
                due          INTEGER NOT NULL,
                last_review  INTEGER NOT NULL,
                reviews      INTEGER NOT NULL,
                lapses       INTEGER NOT NULL,
                first_review INTEGER NOT NULL
            );
            INSERT INTO schedules_v11 (word, state, step, stability, difficulty, due, last_review, reviews, lapses, first_review)
            SELECT w.key, s.state, s.step, s.stability, s.difficulty, s.due, s.last_review, s.reviews, s.lapses, s.first_review
            FROM schedules s JOIN words_v11 w ON w.id = s.word_id ORDER BY w.key;

            CREATE TABLE book_counts_v11 (
                book      INTEGER PRIMARY KEY,
                words     INTEGER NOT NULL,
                memorized INTEGER NOT NULL,
                fresh     INTEGER NOT NULL   -- new words: not memorised, never reviewed
            );
            INSERT INTO book_counts_v11 (book, words, memorized, fresh)
            SELECT b.key, c.words, c.memorized, c.fresh FROM book_counts c JOIN books_v11 b ON b.id = c.book_id;

            DROP TABLE book_counts;
            DROP TABLE schedules;
            DROP TABLE reviews;
            DROP TABLE words;
            DROP TABLE books;
            ALTER TABLE books_v11 RENAME TO books;
            ALTER TABLE words_v11 RENAME TO words;
            ALTER TABLE reviews_v11 RENAME TO reviews;
            ALTER TABLE schedules_v11 RENAME TO schedules;
            ALTER TABLE book_counts_v11 RENAME TO book_counts;
            PRAGMA legacy_alter_table = OFF;
            UPDATE word_marks SET counted_through = min(counted_through, (SELECT coalesce(max(key), 0) FROM words)),
                indexed_through = min(indexed_through, (SELECT coalesce(max(key), 0) FROM words));

            CREATE INDEX words_by_book ON words (book);
            CREATE INDEX words_by_key ON words (word_key);
            CREATE INDEX words_new ON words (date, id) WHERE memorized = 0 AND scheduled = 0;
            CREATE INDEX schedules_by_due ON schedules (due, word);
            CREATE INDEX schedules_by_first_review ON schedules (first_review);

            CREATE TRIGGER outbox_book_insert AFTER INSERT ON books
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            CREATE TRIGGER outbox_book_update AFTER UPDATE ON books
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            CREATE TRIGGER outbox_word_update AFTER UPDATE OF
                book, word, definition, detail, pronunciation, synonym, antonym, date, memorized,
                created_at, modified_at, stamps ON words
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('word', NEW.id); END;
            -- The outbox names a review by its id's text form (written out here in plain SQL, so
            -- that the trigger runs in any connection) and its word.
            CREATE TRIGGER outbox_review_insert AFTER INSERT ON reviews
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
            BEGIN INSERT OR REPLACE INTO outbox (kind, id, word) VALUES ('review', lower(
                substr(hex(NEW.id), 1, 8) || '-' || substr(hex(NEW.id), 9, 4) || '-' || substr(hex(NEW.id), 13, 4) || '-'
                || substr(hex(NEW.id), 17, 4) || '-' || substr(hex(NEW.id), 21)), NEW.word); END;
            CREATE TRIGGER words_scheduled AFTER INSERT ON schedules BEGIN
                UPDATE words SET scheduled = 1 WHERE key = NEW.word AND scheduled = 0;
            END;
            CREATE TRIGGER words_unscheduled AFTER DELETE ON schedules BEGIN
                UPDATE words SET scheduled = 0 WHERE key = OLD.word AND scheduled = 1;
            END;
            CREATE TRIGGER words_delete AFTER DELETE ON words BEGIN
                UPDATE book_counts SET words = words - 1, memorized = memorized - OLD.memorized,
                    fresh = fresh - (OLD.memorized = 0 AND OLD.scheduled = 0)
                WHERE book = OLD.book AND OLD.key <= (SELECT counted_through FROM word_marks);
                INSERT INTO words_search (words_search, rowid, word, definition, detail, pronunciation, synonym, antonym)
                SELECT 'delete', OLD.key, OLD.word, OLD.definition, OLD.detail, OLD.pronunciation, OLD.synonym, OLD.antonym
                WHERE OLD.key <= (SELECT indexed_through FROM word_marks);
                UPDATE word_marks SET counted_through = min(counted_through, (SELECT coalesce(max(key), 0) FROM words)),
                    indexed_through = min(indexed_through, (SELECT coalesce(max(key), 0) FROM words));
            END;
            CREATE TRIGGER words_counted_update AFTER UPDATE OF book, memorized, scheduled ON words
            WHEN OLD.key <= (SELECT counted_through FROM word_marks) BEGIN
                UPDATE book_counts SET words = words - 1, memorized = memorized - OLD.memorized,
                    fresh = fresh - (OLD.memorized = 0 AND OLD.scheduled = 0)
                WHERE book = OLD.book;
                INSERT INTO book_counts (book, words, memorized, fresh)
                VALUES (NEW.book, 1, NEW.memorized, NEW.memorized = 0 AND NEW.scheduled = 0)
                ON CONFLICT (book) DO UPDATE SET words = words + 1, memorized = memorized + excluded.memorized,
                    fresh = fresh + excluded.fresh;
            END;
            CREATE TRIGGER words_indexed_update AFTER UPDATE OF word, definition, detail, pronunciation, synonym, antonym ON words
            WHEN OLD.key <= (SELECT indexed_through FROM word_marks) BEGIN
                INSERT INTO words_search (words_search, rowid, word, definition, detail, pronunciation, synonym, antonym)
                VALUES ('delete', OLD.key, OLD.word, OLD.definition, OLD.detail, OLD.pronunciation, OLD.synonym, OLD.antonym);
                INSERT INTO words_search (rowid, word, definition, detail, pronunciation, synonym, antonym)
                VALUES (NEW.key, NEW.word, NEW.definition, NEW.detail, NEW.pronunciation, NEW.synonym, NEW.antonym);
            END;
            CREATE TRIGGER book_counts_book_delete AFTER DELETE ON books BEGIN
                DELETE FROM book_counts WHERE book = OLD.key;
            END;
            """),
        // New words by date, then in the order they came (the key every index ends with): the
        // index no longer repeats each word's id.
        Migration(version: 12, sql: """
            DROP INDEX words_new;
            CREATE INDEX words_new ON words (date) WHERE memorized = 0 AND scheduled = 0;
            """),
        // The look-up key is folded by Vocab's own rules now (TextFolding), no longer by
        // Foundation's: keys that the two fold differently (case pairs newer than Foundation's
        // tables, accents after a case change) are made again, so every word is found by the
        // key a look-up computes. Keys are local; nothing is sent.
        Migration(version: 13, sql: """
            UPDATE words SET word_key = vocab_lookup_key(word) WHERE word_key <> vocab_lookup_key(word);
            """),
        // Books followed from other learners: kept here to read and study, never pushed (the
        // cloud keeps one copy, its owner's). `ended`: its owner stopped sharing it, and it
        // became this learner's own (pushed like any other).
        Migration(version: 14, sql: """
            CREATE TABLE shared_books (
                book   INTEGER PRIMARY KEY REFERENCES books(key) ON DELETE CASCADE,
                share  TEXT NOT NULL UNIQUE,
                sharer TEXT NOT NULL DEFAULT '',
                ended  INTEGER NOT NULL DEFAULT 0,
                token  INTEGER NOT NULL DEFAULT 0
            );
            DROP TRIGGER outbox_book_update;
            CREATE TRIGGER outbox_book_update AFTER UPDATE ON books
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
                AND NOT EXISTS (SELECT 1 FROM shared_books s WHERE s.book = NEW.key AND s.ended = 0)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('book', NEW.id); END;
            DROP TRIGGER outbox_word_update;
            CREATE TRIGGER outbox_word_update AFTER UPDATE OF
                book, word, definition, detail, pronunciation, synonym, antonym, date, memorized,
                created_at, modified_at, stamps ON words
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
                AND NOT EXISTS (SELECT 1 FROM shared_books s WHERE s.book = NEW.book AND s.ended = 0)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('word', NEW.id); END;
            """),
        // The learner's memorised mark on a word of a book he follows travels as a 'mark' record
        // of his own (to his other devices; never to the book's owner). The outbox is made again
        // with the wider kind check, keeping every rowid (a push compares them).
        Migration(version: 15, sql: """
            PRAGMA legacy_alter_table = ON;
            ALTER TABLE outbox RENAME TO outbox_v14;
            CREATE TABLE outbox (
                kind TEXT NOT NULL CHECK (kind IN ('book', 'word', 'review', 'settings', 'mark')),
                id   TEXT NOT NULL,
                word INTEGER,
                UNIQUE (kind, id)
            );
            INSERT INTO outbox (rowid, kind, id, word) SELECT rowid, kind, id, word FROM outbox_v14;
            DROP TABLE outbox_v14;
            PRAGMA legacy_alter_table = OFF;
            CREATE TRIGGER outbox_mark_update AFTER UPDATE OF memorized ON words
            WHEN NOT EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM sync_meta WHERE key = 'server')
                AND EXISTS (SELECT 1 FROM shared_books s WHERE s.book = NEW.book AND s.ended = 0)
            BEGIN INSERT OR REPLACE INTO outbox (kind, id) VALUES ('mark', NEW.id); END;
            """),
        // The collection an Anki app syncs with, kept beside the words it mirrors (a server of
        // one learner answers Anki's normal sync from here; a cloud's server keeps a copy of the
        // cloud's, `version` the cloud's version it holds): every object as Anki sent it or as
        // made from Vocab's, with its update number; the graves; one sync under way and how far
        // its chunks went. `source`: the word, book or review an object mirrors (NULL for Anki's
        // own); `stamp`: how that source stood when mirrored. Never pushed as records. Once a
        // collection is kept, `anki_changed` notes every word (its schedule too) and book
        // written since it was last mirrored, so a sync looks at those alone.
        Migration(version: 16, sql: """
            CREATE TABLE anki_collection (
                one      INTEGER PRIMARY KEY CHECK (one = 1),
                usn      INTEGER NOT NULL,
                modified INTEGER NOT NULL,
                schema   INTEGER NOT NULL,
                created  INTEGER NOT NULL,
                version  INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE anki_objects (
                kind   TEXT NOT NULL CHECK (kind IN ('notetype', 'deck', 'deckconfig', 'tag', 'config', 'note', 'card', 'revlog')),
                id     TEXT NOT NULL,
                usn    INTEGER NOT NULL,
                body   TEXT NOT NULL,
                source TEXT,
                stamp  TEXT,
                PRIMARY KEY (kind, id)
            ) WITHOUT ROWID;
            CREATE INDEX anki_objects_usn ON anki_objects (kind, usn);
            CREATE UNIQUE INDEX anki_objects_source ON anki_objects (kind, source) WHERE source IS NOT NULL;
            CREATE TABLE anki_changed (kind TEXT NOT NULL CHECK (kind IN ('word', 'book')), id TEXT NOT NULL);
            CREATE TRIGGER anki_changed_word_insert AFTER INSERT ON words WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed VALUES ('word', NEW.id); END;
            CREATE TRIGGER anki_changed_word_update AFTER UPDATE ON words WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed VALUES ('word', NEW.id); END;
            CREATE TRIGGER anki_changed_word_delete AFTER DELETE ON words WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed VALUES ('word', OLD.id); END;
            CREATE TRIGGER anki_changed_schedule_insert AFTER INSERT ON schedules WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed SELECT 'word', id FROM words WHERE key = NEW.word; END;
            CREATE TRIGGER anki_changed_schedule_update AFTER UPDATE ON schedules WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed SELECT 'word', id FROM words WHERE key = NEW.word; END;
            CREATE TRIGGER anki_changed_schedule_delete AFTER DELETE ON schedules WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed SELECT 'word', id FROM words WHERE key = OLD.word; END;
            CREATE TRIGGER anki_changed_book_insert AFTER INSERT ON books WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed VALUES ('book', NEW.id); END;
            CREATE TRIGGER anki_changed_book_update AFTER UPDATE ON books WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed VALUES ('book', NEW.id); END;
            CREATE TRIGGER anki_changed_book_delete AFTER DELETE ON books WHEN EXISTS (SELECT 1 FROM anki_collection)
            BEGIN INSERT INTO anki_changed VALUES ('book', OLD.id); END;
            CREATE TABLE anki_graves (
                kind TEXT NOT NULL CHECK (kind IN ('note', 'card', 'deck')),
                id   INTEGER NOT NULL,
                usn  INTEGER NOT NULL,
                PRIMARY KEY (kind, id)
            ) WITHOUT ROWID;
            CREATE TABLE anki_session (
                one          INTEGER PRIMARY KEY CHECK (one = 1),
                key          TEXT NOT NULL,
                server_usn   INTEGER NOT NULL,
                client_usn   INTEGER NOT NULL,
                client_newer INTEGER NOT NULL,
                chunked_kind TEXT NOT NULL DEFAULT '',
                chunked_id   TEXT NOT NULL DEFAULT ''
            );
            """),
        // The media files of the learner's Anki apps: each name with the SHA-1 of its content
        // ('' once deleted, the row kept so other apps learn of it) and the update number it was
        // written at; the contents once each, by their SHA-1.
        Migration(version: 17, sql: """
            CREATE TABLE anki_media (
                name TEXT PRIMARY KEY,
                sha1 TEXT NOT NULL,
                size INTEGER NOT NULL,
                usn  INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX anki_media_by_usn ON anki_media (usn);
            CREATE TABLE anki_media_files (
                sha1 TEXT PRIMARY KEY,
                data BLOB NOT NULL
            );
            """),
        // How many objects of each kind the kept Anki collection holds (what every sync's sanity
        // check asks), kept by triggers before each write: a write OR REPLACE deletes the row it
        // replaces, and any other of its kind mirroring the same source, without firing a delete
        // trigger, so they count those too. (A trigger's statements take the conflict rule of the
        // statement that fired it: they meet no conflict, every kind having its row.) A bulk change
        // pauses them (a row in `anki_counts_paused`) and counts once after. Deletions are counted
        // by the store's two ways to delete (a trigger on deletes would cost a cleared collection
        // the whole table row by row: 1.9 s instead of 0.1 s for 300,000 objects).
        Migration(version: 18, sql: """
            CREATE TABLE anki_counts (kind TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO anki_counts (kind, n) SELECT column1, (SELECT count(*) FROM anki_objects WHERE kind = column1)
            FROM (VALUES ('notetype'), ('deck'), ('deckconfig'), ('tag'), ('config'), ('note'), ('card'), ('revlog'));
            CREATE TABLE anki_counts_paused (one INTEGER);
            CREATE TRIGGER anki_counts_insert BEFORE INSERT ON anki_objects WHEN NOT EXISTS (SELECT 1 FROM anki_counts_paused) BEGIN
                UPDATE anki_counts SET n = n + 1 - EXISTS (SELECT 1 FROM anki_objects WHERE kind = NEW.kind AND id = NEW.id)
                    - EXISTS (SELECT 1 FROM anki_objects WHERE kind = NEW.kind AND source = NEW.source AND id <> NEW.id)
                WHERE kind = NEW.kind;
            END;
            CREATE TRIGGER anki_counts_source BEFORE UPDATE OF source ON anki_objects WHEN NOT EXISTS (SELECT 1 FROM anki_counts_paused) BEGIN
                UPDATE anki_counts SET n = n - EXISTS (SELECT 1 FROM anki_objects WHERE kind = NEW.kind AND source = NEW.source AND id <> NEW.id)
                WHERE kind = NEW.kind;
            END;
            """),
        // The collection file a full download sends, kept ready (named by `token`, in a folder
        // of the server's): its one row says the file holds the kept objects as they are. Any
        // object written clears it (the triggers below: a row OR REPLACE deletes is a write of
        // another row, so they see it too), as do the store's ways to delete objects; the
        // collection's stamps are not in it (set in the file as it is sent).
        Migration(version: 19, sql: """
            CREATE TABLE anki_download (token TEXT NOT NULL);
            CREATE TRIGGER anki_download_insert AFTER INSERT ON anki_objects WHEN EXISTS (SELECT 1 FROM anki_download)
            BEGIN DELETE FROM anki_download; END;
            CREATE TRIGGER anki_download_update AFTER UPDATE ON anki_objects WHEN EXISTS (SELECT 1 FROM anki_download)
            BEGIN DELETE FROM anki_download; END;
            """),
        // What an Anki app's call left to do after it was answered (a server of one learner):
        // at most one row, `AnkiPendingWork`.
        Migration(version: 20, sql: """
            CREATE TABLE anki_pending (work TEXT NOT NULL, usn INTEGER NOT NULL, at INTEGER NOT NULL, file TEXT);
            """),
        // The log's length, kept as reviews come and go: every sync's closing check read it, and
        // counting the log took 2 ms at 200,000 reviews — on a cloud's server, at every grade.
        // A review's insert and delete (a word's, through its cascade) each move it by one; an
        // insert the log already holds (ON CONFLICT DO NOTHING) fires nothing; no statement
        // replaces a review (a replace would delete without the delete trigger).
        Migration(version: 21, sql: """
            CREATE TABLE review_tally (n INTEGER NOT NULL);
            INSERT INTO review_tally (n) SELECT count(*) FROM reviews;
            CREATE TRIGGER review_tally_insert AFTER INSERT ON reviews BEGIN UPDATE review_tally SET n = n + 1; END;
            CREATE TRIGGER review_tally_delete AFTER DELETE ON reviews BEGIN UPDATE review_tally SET n = n - 1; END;
            """),
    ]

    static var latestVersion: Int64 { steps.last?.version ?? 0 }
}

/// One schema step: the SQL that takes a store from `version - 1` to `version`.
struct Migration {
    let version: Int64
    let sql: String
}
