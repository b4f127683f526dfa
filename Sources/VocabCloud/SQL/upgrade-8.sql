-- Step to version 8: brings a cloud of any older version (2 to 7, or 8 installed part-way:
-- version 8 changed within itself) to version 8's tables. Until version 8 the schema was
-- one script run again at each upgrade; this is that script's history, kept as it ran, so
-- it may run again on a cloud at 8 and changes nothing there. Steps after it are numbered
-- and run once.
CREATE SCHEMA IF NOT EXISTS vocab;
CREATE SEQUENCE IF NOT EXISTS vocab.change_seq;
-- Books, words, reviews and deletions of every learner, one row per object, keyed by
-- owner first (so they partition by owner). `seq` orders a learner's changes.
CREATE TABLE IF NOT EXISTS vocab.records (
    owner   name NOT NULL,
    kind    text NOT NULL CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review', 'settings', 'mark')),
    id      uuid NOT NULL,
    seq     bigint NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    body    jsonb NOT NULL,
    PRIMARY KEY (owner, kind, id)
);
-- Version 6: the owner is the learner a request proved, never the session's role.
ALTER TABLE vocab.records ALTER COLUMN owner DROP DEFAULT;
-- The bytes a record is counted with against the account's byte cap: its body as
-- stored (jsonb), measured once as it is written, so that nothing prints a body again
-- to count it (that printing was a third of a first sync's time in the cloud). NULL
-- for a record written before this column: it counts its body as text, as it did then.
ALTER TABLE vocab.records ADD COLUMN IF NOT EXISTS size integer;
CREATE INDEX IF NOT EXISTS records_by_owner_seq ON vocab.records (owner, seq);
-- Version 3: the learner's scheduling settings (FSRS parameters, desired retention)
-- travel as one 'settings' record per account; version 8: a learner's memorised mark on
-- a word of a book he follows is a 'mark' record of his own. An older table's kind check
-- is replaced once (adding a check reads the whole table under an exclusive lock: not on
-- every init).
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'vocab.records'::regclass
                   AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%mark%') THEN
        ALTER TABLE vocab.records DROP CONSTRAINT IF EXISTS records_kind_check;
        ALTER TABLE vocab.records ADD CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review', 'settings', 'mark'));
    END IF;
END $$;
-- One row per learner: the learner's write lock, the administrator's caps, and (version
-- 6) what is kept of the password.
CREATE TABLE IF NOT EXISTS vocab.accounts (
    owner       name PRIMARY KEY,
    max_records bigint CHECK (max_records IS NULL OR max_records >= 0)
);
-- Live (not deleted) records per kind, kept by vocab.push: the counts every sync ends by
-- comparing, at a cost that does not grow with the account.
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS live_books bigint NOT NULL DEFAULT 0;
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS live_words bigint NOT NULL DEFAULT 0;
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS live_reviews bigint NOT NULL DEFAULT 0;
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS total_records bigint NOT NULL DEFAULT 0;
-- Version 4: each learner's changes are numbered by a counter of their own, and an
-- account is capped in bytes as well as records.
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS next_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS max_bytes bigint CHECK (max_bytes IS NULL OR max_bytes >= 0);
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS total_bytes bigint NOT NULL DEFAULT 0;
-- Version 6: the password's verifier (Argon2id, or a SCRAM-SHA-256 verifier copied from
-- a learner role of version 5 until the next sign-in re-hashes it). NULL: no sign-in.
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS verifier text;
INSERT INTO vocab.accounts (owner) SELECT DISTINCT owner FROM vocab.records ON CONFLICT (owner) DO NOTHING;
CREATE TABLE IF NOT EXISTS vocab.meta (key text PRIMARY KEY, value text NOT NULL);
-- Counted again only when the schema before was older than 4 (reads every record).
DO $$ BEGIN
    IF coalesce((SELECT value::int FROM vocab.meta WHERE key = 'schema_version'), 0) < 4 THEN
        UPDATE vocab.accounts a SET
            live_books = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'book' AND NOT r.deleted),
            live_words = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'word' AND NOT r.deleted),
            live_reviews = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'review' AND NOT r.deleted),
            total_records = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner),
            next_seq = greatest(a.next_seq, (SELECT coalesce(max(r.seq), 0) FROM vocab.records r WHERE r.owner = a.owner)),
            total_bytes = (SELECT coalesce(sum(coalesce(r.size, octet_length(r.body::text))), 0) FROM vocab.records r WHERE r.owner = a.owner);
    END IF;
END $$;
-- What a new account may hold until the administrator says otherwise.
INSERT INTO vocab.meta VALUES ('default_max_records', '{{default_max_records}}'), ('default_max_bytes', '{{default_max_bytes}}') ON CONFLICT (key) DO NOTHING;
-- Devices: each signs in once with the learner's password (checked by a Vocab server)
-- and keeps a random secret of its own; the cloud keeps its SHA-256 (version 6; a
-- device of version 5 keeps its role's SCRAM verifier until its first request).
CREATE TABLE IF NOT EXISTS vocab.devices (
    role    name PRIMARY KEY,
    owner   name NOT NULL,
    label   text NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    seen    timestamptz,
    revoked timestamptz
);
ALTER TABLE vocab.devices ADD COLUMN IF NOT EXISTS secret_sha256 bytea;
ALTER TABLE vocab.devices ADD COLUMN IF NOT EXISTS legacy_verifier text;
CREATE INDEX IF NOT EXISTS devices_by_owner ON vocab.devices (owner);

-- Version 6: no learner or device is a database role. A cloud of version 5 keeps every
-- learner's password (the role's SCRAM-SHA-256 verifier, read from pg_authid: this
-- needs a superuser) and every signed-in device (its role's verifier, checked against
-- the device's secret at its first request); then the roles go. A role that cannot be
-- dropped (it owns something elsewhere) can no longer log in and is no Vocab user.
DO $$ DECLARE r record; BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vocab_user') THEN
        FOR r IN SELECT a.rolname, a.rolpassword FROM pg_authid a
                 WHERE pg_has_role(a.oid, 'vocab_user', 'MEMBER') AND a.rolname <> 'vocab_user' AND NOT a.rolsuper
                 AND NOT EXISTS (SELECT 1 FROM vocab.devices d WHERE d.role = a.rolname) LOOP
            INSERT INTO vocab.accounts (owner, max_records, max_bytes)
            SELECT r.rolname, (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_records'),
                   (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_bytes')
            ON CONFLICT (owner) DO NOTHING;
            UPDATE vocab.accounts SET verifier = coalesce(verifier, r.rolpassword) WHERE owner = r.rolname;
        END LOOP;
        UPDATE vocab.devices d SET legacy_verifier = a.rolpassword FROM pg_authid a
        WHERE a.rolname = d.role AND d.secret_sha256 IS NULL AND d.revoked IS NULL AND a.rolcanlogin;
        UPDATE vocab.devices d SET revoked = now() WHERE d.revoked IS NULL AND d.secret_sha256 IS NULL AND d.legacy_verifier IS NULL;
        FOR r IN SELECT a.rolname FROM pg_roles a
                 WHERE pg_has_role(a.oid, 'vocab_user', 'MEMBER') AND a.rolname <> 'vocab_user' AND NOT a.rolsuper LOOP
            PERFORM pg_terminate_backend(s.pid) FROM pg_stat_activity s WHERE s.usename = r.rolname;
            BEGIN
                EXECUTE format('DROP OWNED BY %I', r.rolname);
                EXECUTE format('DROP ROLE %I', r.rolname);
            EXCEPTION WHEN dependent_objects_still_exist OR object_in_use THEN
                EXECUTE format('ALTER ROLE %I NOLOGIN', r.rolname);
                EXECUTE format('REVOKE vocab_user FROM %I', r.rolname);
                RAISE WARNING 'the role % owns objects elsewhere: it can no longer log in, and was kept', r.rolname;
            END;
        END LOOP;
        DROP POLICY IF EXISTS own_rows ON vocab.records;
        DROP POLICY IF EXISTS own_account ON vocab.accounts;
        BEGIN
            DROP OWNED BY vocab_user;
            DROP ROLE vocab_user;
        EXCEPTION WHEN dependent_objects_still_exist OR object_in_use THEN
            RAISE WARNING 'the role vocab_user holds privileges elsewhere: it was kept';
        END;
    END IF;
END $$;
DROP FUNCTION IF EXISTS vocab.push(bigint, text, boolean);
DROP FUNCTION IF EXISTS vocab.pull(bigint, integer);
DROP FUNCTION IF EXISTS vocab.counts();
DROP FUNCTION IF EXISTS vocab.add_device(text, text);
DROP FUNCTION IF EXISTS vocab.my_devices();
DROP FUNCTION IF EXISTS vocab.sign_out(name);
DROP FUNCTION IF EXISTS vocab.signed_in_learner();
-- Earlier cuts of version 8's functions.
DROP FUNCTION IF EXISTS vocab.push(bigint, jsonb, boolean);
DROP FUNCTION IF EXISTS vocab.push(name, text, bigint, text, boolean);
DROP FUNCTION IF EXISTS vocab.my_follows(name, text);
-- Version 8: shared books.
CREATE TABLE IF NOT EXISTS vocab.shares (
    id              uuid PRIMARY KEY,
    owner           name NOT NULL,
    book            uuid NOT NULL,
    -- 26 characters of Crockford's base 32: 128 random bits, made by the server.
    code            text NOT NULL UNIQUE CHECK (code ~ '^[0-9A-HJKMNP-TV-Z]{26}$'),
    listed          boolean NOT NULL DEFAULT false,
    -- The name the owner shows followers and the catalogue (never the account's).
    sharer          text NOT NULL DEFAULT '' CHECK (char_length(sharer) <= 60),
    languages       text NOT NULL DEFAULT '' CHECK (char_length(languages) <= 20),
    -- The book's name as last shared, its live words and the owner's latest change to it
    -- (kept by vocab.push as the owner's devices change it).
    title           text NOT NULL DEFAULT '',
    words           integer NOT NULL DEFAULT 0,
    latest          bigint NOT NULL DEFAULT 0,
    followers       integer NOT NULL DEFAULT 0,
    created         timestamptz NOT NULL DEFAULT now(),
    listing_changed timestamptz NOT NULL DEFAULT now(),
    ended           timestamptz
);
ALTER TABLE vocab.shares ADD COLUMN IF NOT EXISTS latest bigint NOT NULL DEFAULT 0;
-- A follow changes only `followers`, which no index holds: its update stays on its page
-- (HOT), and room is left there for it, so a thousand follows do not grow the indexes.
ALTER TABLE vocab.shares SET (fillfactor = 70);
CREATE UNIQUE INDEX IF NOT EXISTS shares_one_per_book ON vocab.shares (owner, book) WHERE ended IS NULL;
CREATE INDEX IF NOT EXISTS shares_listed_newest ON vocab.shares (created DESC) WHERE listed AND ended IS NULL;
-- Listings change seldom: written straight into the index (a pending list searched
-- linearly made a search three times slower until the next vacuum).
CREATE INDEX IF NOT EXISTS shares_listed_title ON vocab.shares USING gin (to_tsvector('simple', title))
    WITH (fastupdate = off) WHERE listed AND ended IS NULL;
ALTER INDEX vocab.shares_listed_title SET (fastupdate = off);
-- (Indexes of an early version 8 that cost more than they gave.)
DROP INDEX IF EXISTS vocab.shares_listed_followed;
DROP INDEX IF EXISTS vocab.follows_by_share;
CREATE TABLE IF NOT EXISTS vocab.follows (
    follower name NOT NULL,
    share    uuid NOT NULL REFERENCES vocab.shares (id) ON DELETE CASCADE,
    created  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower, share)
);
-- A book's words in seq order: what a follower pulls.
CREATE INDEX IF NOT EXISTS records_by_book ON vocab.records (owner, (body->>'bookId'), seq) WHERE kind = 'word';
