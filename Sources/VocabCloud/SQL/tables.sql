-- The cloud's tables as this version has them, made on a database that has none (an
-- older cloud is brought here by the numbered steps, `upgrade-N.sql`, instead).
CREATE SCHEMA vocab;
-- Books, words, reviews, settings, marks and deletions of every learner, one row per
-- object, keyed by owner first (so they partition by owner). `seq` orders a learner's
-- changes. A learner's scheduling settings (FSRS parameters, desired retention) are one
-- 'settings' record; a memorised mark on a word of a book he follows is a 'mark' record of
-- his own.
CREATE TABLE vocab.records (
    owner   name NOT NULL,
    kind    text NOT NULL CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review', 'settings', 'mark')),
    id      uuid NOT NULL,
    seq     bigint NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    body    jsonb NOT NULL,
    -- The bytes the record is counted with against the account's byte cap: its body as
    -- stored (jsonb), measured once as it is written, so that nothing prints a body again
    -- to count it. NULL for a record written before version 4 had the column: it counts its
    -- body as text.
    size    integer,
    PRIMARY KEY (owner, kind, id)
);
CREATE INDEX records_by_owner_seq ON vocab.records (owner, seq);
-- A book's words in seq order: what a follower pulls.
CREATE INDEX records_by_book ON vocab.records (owner, (body->>'bookId'), seq) WHERE kind = 'word';
-- One row per learner: the learner's write lock, the administrator's caps, the live
-- (not deleted) records per kind that every sync ends by comparing (kept by vocab.push, at
-- a cost that does not grow with the account), the learner's own change counter, and what
-- is kept of the password (Argon2id, or a SCRAM-SHA-256 verifier copied from a learner
-- role of version 5 until the next sign-in re-hashes it; NULL: no sign-in).
CREATE TABLE vocab.accounts (
    owner         name PRIMARY KEY,
    max_records   bigint CHECK (max_records IS NULL OR max_records >= 0),
    live_books    bigint NOT NULL DEFAULT 0,
    live_words    bigint NOT NULL DEFAULT 0,
    live_reviews  bigint NOT NULL DEFAULT 0,
    total_records bigint NOT NULL DEFAULT 0,
    next_seq      bigint NOT NULL DEFAULT 0,
    max_bytes     bigint CHECK (max_bytes IS NULL OR max_bytes >= 0),
    total_bytes   bigint NOT NULL DEFAULT 0,
    verifier      text
);
CREATE TABLE vocab.meta (key text PRIMARY KEY, value text NOT NULL);
-- What a new account may hold until the administrator says otherwise.
INSERT INTO vocab.meta VALUES ('default_max_records', '{{default_max_records}}'), ('default_max_bytes', '{{default_max_bytes}}');
-- Devices: each signs in once with the learner's password (checked by a Vocab server)
-- and keeps a random secret of its own, of which the cloud keeps the SHA-256 (a device of
-- version 5 keeps its role's SCRAM verifier, `legacy_verifier`, until its first request).
CREATE TABLE vocab.devices (
    id              name PRIMARY KEY,
    owner           name NOT NULL,
    label           text NOT NULL,
    created         timestamptz NOT NULL DEFAULT now(),
    seen            timestamptz,
    revoked         timestamptz,
    secret_sha256   bytea,
    legacy_verifier text
);
CREATE INDEX devices_by_owner ON vocab.devices (owner);
-- A learner's shared books: each under a code of 128 random bits.
CREATE TABLE vocab.shares (
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
-- A follow changes only `followers`, which no index holds: its update stays on its page
-- (HOT), and room is left there for it, so a thousand follows do not grow the indexes.
) WITH (fillfactor = 70);
CREATE UNIQUE INDEX shares_one_per_book ON vocab.shares (owner, book) WHERE ended IS NULL;
CREATE INDEX shares_listed_newest ON vocab.shares (created DESC) WHERE listed AND ended IS NULL;
-- Listings change seldom: written straight into the index (a pending list searched
-- linearly made a search three times slower until the next vacuum).
CREATE INDEX shares_listed_title ON vocab.shares USING gin (to_tsvector('simple', title))
    WITH (fastupdate = off) WHERE listed AND ended IS NULL;
CREATE TABLE vocab.follows (
    follower name NOT NULL,
    share    uuid NOT NULL REFERENCES vocab.shares (id) ON DELETE CASCADE,
    created  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower, share)
);
-- Anki's apps (version 10): the collection each learner's Anki apps sync with, kept beside
-- his records so that any server answers any call of a sync. Each object is a row the
-- servers read and write whole and never look into (its update number, its body as Anki's
-- wire carries it, the word, book or review it mirrors); `version` counts the writes, so a
-- server's copy asks only for what changed since; a removed object stays as a row without
-- `content` until every copy has dropped it. `bytes` counts against the account's byte cap.
CREATE TABLE IF NOT EXISTS vocab.anki_collections (
    owner   name PRIMARY KEY,
    version bigint NOT NULL DEFAULT 0,
    state   text,
    bytes   bigint NOT NULL DEFAULT 0,
    media_usn   bigint NOT NULL DEFAULT 0,
    media_bytes bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS vocab.anki_objects (
    owner   name NOT NULL,
    kind    text NOT NULL,
    id      text NOT NULL,
    version bigint NOT NULL,
    content text,
    PRIMARY KEY (owner, kind, id)
);
CREATE INDEX IF NOT EXISTS anki_objects_by_version ON vocab.anki_objects (owner, version, kind, id);
-- Anki's apps' media (version 11): each file's name with the SHA-1 of its content ('' once
-- deleted: the row stays, so the learner's other apps learn of it) and the update number it
-- was written at; the contents once each per learner, by SHA-1. `media_usn` is the latest
-- number, `media_bytes` what the contents hold (against the account's byte cap, with `bytes`).
CREATE TABLE IF NOT EXISTS vocab.anki_media (
    owner name NOT NULL,
    name  text NOT NULL,
    sha1  text NOT NULL,
    size  bigint NOT NULL,
    usn   bigint NOT NULL,
    PRIMARY KEY (owner, name)
);
CREATE INDEX IF NOT EXISTS anki_media_by_usn ON vocab.anki_media (owner, usn);
CREATE TABLE IF NOT EXISTS vocab.anki_media_files (
    owner name NOT NULL,
    sha1  text NOT NULL,
    data  bytea NOT NULL,
    PRIMARY KEY (owner, sha1)
);
-- Backups of an account (version 12): the words a whole Anki collection's upload deleted, as
-- an Anki package with their reviews (the server writes it before the deletion), so that the
-- learner can bring them back. The newest {{backups_per_account}} of an account are kept, each
-- no larger than the account's byte cap; they are not counted in it.
CREATE TABLE IF NOT EXISTS vocab.account_backups (
    owner   name NOT NULL,
    id      uuid NOT NULL,
    taken   timestamptz NOT NULL DEFAULT now(),
    reason  text NOT NULL,
    words   integer NOT NULL,
    package bytea NOT NULL,
    PRIMARY KEY (owner, id)
);
