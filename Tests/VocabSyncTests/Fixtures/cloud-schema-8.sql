-- The cloud's schema as Vocab installed it at version 8 (the last one made by one idempotent
-- script), kept to test upgrades from it. Do not edit.
DO $$ BEGIN
    CREATE ROLE vocab_server NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
-- What the server tier is held to, whatever a server asks: no statement, lock wait or
-- open transaction lasts long, and temporary files are bounded (a superuser-only
-- setting, so no server can lift it).
ALTER ROLE vocab_server SET statement_timeout = '60s';
ALTER ROLE vocab_server SET lock_timeout = '10s';
ALTER ROLE vocab_server SET idle_in_transaction_session_timeout = '60s';
ALTER ROLE vocab_server SET temp_file_limit = '256MB';
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
INSERT INTO vocab.meta VALUES ('default_max_records', '500000'), ('default_max_bytes', '268435456') ON CONFLICT (key) DO NOTHING;
-- An account row for `who`, with the default caps, unless there is one.
CREATE OR REPLACE FUNCTION vocab.open_account(who name) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    INSERT INTO vocab.accounts (owner, max_records, max_bytes)
    SELECT who, (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_records'),
           (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_bytes')
    ON CONFLICT (owner) DO NOTHING
$fn$;
REVOKE ALL ON FUNCTION vocab.open_account(name) FROM PUBLIC;
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
            PERFORM vocab.open_account(r.rolname);
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

-- The learner a server-tier function acts for in this transaction (set by
-- vocab.device_learner): the row-level policies below hold every query to that learner,
-- a second line behind the functions' own WHERE owner = ….
CREATE OR REPLACE FUNCTION vocab.me() RETURNS name
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT nullif(current_setting('vocab.learner', true), '')::name
$fn$;
ALTER TABLE vocab.records ENABLE ROW LEVEL SECURITY;
ALTER TABLE vocab.records NO FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_rows ON vocab.records;
CREATE POLICY own_rows ON vocab.records USING (owner = vocab.me()) WITH CHECK (owner = vocab.me());
ALTER TABLE vocab.accounts ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_account ON vocab.accounts;
CREATE POLICY own_account ON vocab.accounts USING (owner = vocab.me());
ALTER TABLE vocab.devices ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_devices ON vocab.devices;
CREATE POLICY own_devices ON vocab.devices USING (owner = vocab.me());

-- The learner `device` signs in for, when `secret` is its secret and it is signed in;
-- refused (42501) otherwise. Marks the transaction as acting for that learner, and keeps
-- the device's last sign of life (at most once a minute).
CREATE OR REPLACE FUNCTION vocab.device_learner(device name, secret text) RETURNS name
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE who name;
BEGIN
    SELECT d.owner INTO who FROM vocab.devices d
    WHERE d.role = device AND d.revoked IS NULL AND d.secret_sha256 = sha256(convert_to(coalesce(secret, ''), 'UTF8'));
    IF who IS NULL THEN
        RAISE EXCEPTION 'this device was signed out' USING ERRCODE = '42501';
    END IF;
    PERFORM set_config('vocab.learner', who, true);
    -- When it was last seen is a hint: a row another transaction holds is left as it is
    -- (a learner's request never waits on a lock for it).
    UPDATE vocab.devices d SET seen = now() WHERE d.role = (
        SELECT l.role FROM vocab.devices l WHERE l.role = device AND (l.seen IS NULL OR l.seen < now() - interval '1 minute')
        FOR UPDATE SKIP LOCKED);
    RETURN who;
END
$fn$;
-- What is kept of `who`'s password (NULL: no such learner, or no sign-in).
CREATE OR REPLACE FUNCTION vocab.password_verifier(who name) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT a.verifier FROM vocab.accounts a WHERE a.owner = who
$fn$;
-- Replaces `who`'s verifier `old` by `new` (a re-hash after a sign-in that passed);
-- nothing when it changed meanwhile.
CREATE OR REPLACE FUNCTION vocab.replace_verifier(who name, old text, new text) RETURNS boolean
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    UPDATE vocab.accounts a SET verifier = new WHERE a.owner = who AND a.verifier = old
        AND (new LIKE '$argon2id$%') AND octet_length(new) <= 512 RETURNING true
$fn$;
-- A device of version 5 not seen since the upgrade: its role's SCRAM verifier.
CREATE OR REPLACE FUNCTION vocab.legacy_device_verifier(device name) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT d.legacy_verifier FROM vocab.devices d WHERE d.role = device AND d.revoked IS NULL AND d.secret_sha256 IS NULL
$fn$;
-- Keeps the SHA-256 of a version-5 device's secret, which the server has just checked
-- against its old verifier.
CREATE OR REPLACE FUNCTION vocab.adopt_device_secret(device name, secret text) RETURNS boolean
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    UPDATE vocab.devices d SET secret_sha256 = sha256(convert_to(secret, 'UTF8')), legacy_verifier = NULL
    WHERE d.role = device AND d.revoked IS NULL AND d.secret_sha256 IS NULL AND d.legacy_verifier IS NOT NULL RETURNING true
$fn$;
-- Signs `target`'s devices out (all of them when `one_device` is NULL); returns how many.
CREATE OR REPLACE FUNCTION vocab.sign_out_devices(target name, one_device name) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    WITH gone AS (UPDATE vocab.devices d SET revoked = now()
                  WHERE d.owner = target AND d.revoked IS NULL AND (one_device IS NULL OR d.role = one_device) RETURNING 1)
    SELECT count(*)::integer FROM gone
$fn$;
-- Adds a device to `who`'s account, whose password a Vocab server has just checked; the
-- device's secret is made by the server and only its SHA-256 is kept here. At most 10
-- devices signed in and 30 added an hour per learner (`device_sign_ins_per_hour` in
-- vocab.meta changes the 30); devices signed out over an hour ago are forgotten.
-- Returns the device's id.
CREATE OR REPLACE FUNCTION vocab.add_device(who name, label text, secret_sha256 bytea) RETURNS name
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE device name;
BEGIN
    IF octet_length(secret_sha256) IS DISTINCT FROM 32 THEN
        RAISE EXCEPTION 'a device needs the SHA-256 of its secret' USING ERRCODE = '22023';
    END IF;
    PERFORM set_config('lock_timeout', '5s', true);
    PERFORM 1 FROM vocab.accounts a WHERE a.owner = who AND a.verifier IS NOT NULL FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no learner %', who USING ERRCODE = '42501';
    END IF;
    IF (SELECT count(*) FROM vocab.devices d WHERE d.owner = who AND d.revoked IS NULL) >= 10 THEN
        RAISE EXCEPTION 'the account has 10 devices signed in; sign one out first' USING ERRCODE = '53400';
    END IF;
    IF (SELECT count(*) FROM vocab.devices d WHERE d.owner = who AND d.created > now() - interval '1 hour') >=
       coalesce((SELECT m.value::bigint FROM vocab.meta m WHERE m.key = 'device_sign_ins_per_hour'), 30) THEN
        RAISE EXCEPTION 'the account signed in too many devices in the last hour; try again later' USING ERRCODE = '53400';
    END IF;
    DELETE FROM vocab.devices d WHERE d.owner = who AND d.revoked < now() - interval '1 hour';
    device := 'vd_' || replace(gen_random_uuid()::text, '-', '');
    INSERT INTO vocab.devices (role, owner, label, secret_sha256) VALUES (device, who, left(coalesce(label, ''), 80), secret_sha256);
    RETURN device;
END
$fn$;
-- The devices of `device`'s learner signed in, the asking one marked.
CREATE OR REPLACE FUNCTION vocab.my_devices(device name, secret text)
RETURNS TABLE (role name, label text, created timestamptz, seen timestamptz, this boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT d.role, d.label, d.created, d.seen, d.role = device FROM vocab.devices d
    WHERE d.owner = me AND d.revoked IS NULL ORDER BY d.created;
END
$fn$;
-- Signs out one of `device`'s learner's devices (NULL: all of them, the asking one too).
CREATE OR REPLACE FUNCTION vocab.sign_out(device name, secret text, target name) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
    RETURN vocab.sign_out_devices(vocab.device_learner(device, secret), target);
END
$fn$;

-- The most bytes one record of a kind may hold (its body as stored).
CREATE OR REPLACE FUNCTION vocab.most_bytes(kind text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$
    SELECT CASE kind WHEN 'book' THEN 2097152 WHEN 'word' THEN 524288 WHEN 'settings' THEN 65536 ELSE 4096 END
$fn$;
REVOKE ALL ON FUNCTION vocab.most_bytes(text) FROM PUBLIC;

-- Refuses (SQLSTATE 54000) a batch of more than 16 MiB, measured as text before it is parsed.
CREATE OR REPLACE FUNCTION vocab.refuse_large_batch(bytes integer) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF bytes > 16777216 THEN
        RAISE EXCEPTION 'a batch may hold 16 MiB, and this one holds % bytes', bytes USING ERRCODE = '54000';
    END IF;
END
$fn$;

-- Refuses (SQLSTATE 54000, undoing the push) a record of `kind` of `size` bytes, the first
-- of a batch over its kind's bound (NULL: none was).
CREATE OR REPLACE FUNCTION vocab.refuse_large_record(kind text, size integer) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF kind IS NOT NULL THEN
        RAISE EXCEPTION 'a % record of % bytes is larger than a % may be', kind, size, kind USING ERRCODE = '54000';
    END IF;
END
$fn$;

-- The learner's own lock (their row of vocab.accounts) for a push, waited for a few seconds
-- at most (then the server answers "busy, try again": one learner's long request never
-- holds a connection long), with the caps and the latest seq it guards.
CREATE OR REPLACE FUNCTION vocab.take_account(who name, OUT cap bigint, OUT byte_cap bigint, OUT latest bigint)
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM set_config('lock_timeout', '5s', true);
    SELECT a.max_records, a.max_bytes, a.next_seq INTO cap, byte_cap, latest FROM vocab.accounts a WHERE a.owner = who FOR UPDATE;
END
$fn$;

-- Refuses (SQLSTATE 53400, undoing the push) an account past the administrator's caps:
-- `total` records against `cap`, `bytes` against `byte_cap` (NULL: no cap).
CREATE OR REPLACE FUNCTION vocab.refuse_past_caps(me name, cap bigint, total bigint, byte_cap bigint, bytes bigint) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF cap IS NOT NULL AND total > cap THEN
        RAISE EXCEPTION 'the account % may hold % records, and this push would make it %', me, cap, total USING ERRCODE = '53400';
    END IF;
    IF byte_cap IS NOT NULL AND bytes > byte_cap THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and this push would make it %', me, byte_cap, bytes USING ERRCODE = '53400';
    END IF;
END
$fn$;

-- Stores a batch of the caller's records (a JSON array of {"k","i","d","b"}, sent as text
-- and measured before it is parsed: at most 16 MiB; a body at most 2 MiB for a book —
-- its cover —, 512 KiB for a word, 64 KiB for settings, 4 KiB for a review) if the
-- caller's latest seq is still `expected`; returns the new latest seq, or NULL when
-- another device pushed first (pull, then push again). With `merge` (version 7) a batch
-- is stored after another device's changes too when it holds none of the records they
-- changed, so that a learner's devices syncing at once all get through; the device
-- knows its own rows by their seqs (the latest returned, less the batch's length).
-- `fresh`: records the device believes new (a first sync), never stored after another
-- device's changes. They go in by vocab.push_lines; one comes here only when that could
-- not take its batch, and is stored (or refused) as any other.
DROP FUNCTION IF EXISTS vocab.push(bigint, jsonb, boolean);
DROP FUNCTION IF EXISTS vocab.push(name, text, bigint, text, boolean);
-- The batch's records as they were and are: one index look-up per record of the batch
-- (a LATERAL that cannot be flattened; a hash join read the whole account, and a
-- 100,000-word first sync passed the 64 MB of temporary files a user may have).
-- Generic plans only: planned for this owner's name, a lookup by key believed a new
-- learner among a few big ones had a row or two (the owner's statistics say so) and
-- read all of the learner's records through records_by_owner_seq for each record it
-- looked up — a first sync of 10,000 words beside a million others' records took 10 s
-- instead of 0.4 s. Planned for any owner, it takes the primary key.
CREATE OR REPLACE FUNCTION vocab.push(device name, secret text, expected bigint, batch_text text, fresh boolean,
                                      merge boolean DEFAULT false) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    batch jsonb;
    cap bigint;
    byte_cap bigint;
    latest bigint;
    total bigint;
    bytes bigint;
    before_live record;
    after_live record;
    added bigint;
    batch_live record;
    shared_books text[];
    pushed_through bigint;
BEGIN
    PERFORM vocab.refuse_large_batch(octet_length(batch_text));
    batch := batch_text::jsonb;
    SELECT * INTO cap, byte_cap, latest FROM vocab.take_account(me);
    IF latest <> expected THEN
        IF fresh OR NOT merge OR expected > latest OR EXISTS (
            SELECT 1 FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
            JOIN vocab.records r ON r.owner = me AND r.kind = x.k AND r.id = x.i WHERE r.seq > expected) THEN
            RETURN NULL;
        END IF;
    END IF;
    -- A learner who shares books (version 8): the shared books this batch touches — a
    -- word's book now or before (a word moved out), a book itself — get their live words
    -- and latest change kept on their share, which is all a follower's sync asks.
    IF EXISTS (SELECT 1 FROM vocab.shares s WHERE s.owner = me AND s.ended IS NULL) THEN
        shared_books := ARRAY(
            SELECT x.b->>'bookId' FROM jsonb_to_recordset(batch) AS x(k text, b jsonb) WHERE x.k = 'word'
            UNION SELECT x.i::text FROM jsonb_to_recordset(batch) AS x(k text, i uuid) WHERE x.k = 'book'
            UNION SELECT r.body->>'bookId' FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
                  JOIN vocab.records r ON r.owner = me AND r.kind = 'word' AND r.id = x.i WHERE x.k = 'word');
    END IF;
    -- Each body's size: what a record may hold.
    SELECT (array_agg(x.k) FILTER (WHERE s.size > vocab.most_bytes(x.k)))[1] AS big_kind,
           (array_agg(s.size) FILTER (WHERE s.size > vocab.most_bytes(x.k)))[1] AS big_size
    INTO batch_live
    FROM jsonb_to_recordset(batch) AS x(k text, b jsonb)
    CROSS JOIN LATERAL (SELECT pg_column_size(x.b) AS size) s;
    -- The batch's records as they were: the live counters and the bytes kept in
    -- step. Each is looked up by its key.
    SELECT count(*) FILTER (WHERE r.kind = 'book' AND NOT r.deleted) AS books,
           count(*) FILTER (WHERE r.kind = 'word' AND NOT r.deleted) AS words,
           count(*) FILTER (WHERE r.kind = 'review' AND NOT r.deleted) AS reviews,
           count(*) AS existing, coalesce(sum(coalesce(r.size, octet_length(r.body::text))), 0) AS bytes
    INTO before_live
    FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
    CROSS JOIN LATERAL (SELECT r.kind, r.deleted, r.body, r.size FROM vocab.records r
                        WHERE r.owner = me AND r.kind = x.k AND r.id = x.i OFFSET 0) r;
    -- A deletion sticks, and a deleted record keeps its last known fields plus what
    -- the deletion says (a folded book's mergedInto).
    INSERT INTO vocab.records AS r (owner, kind, id, seq, deleted, body, size)
    SELECT me, e.v->>'k', (e.v->>'i')::uuid, latest + e.n, (e.v->>'d')::boolean, e.v->'b', pg_column_size(e.v->'b')
    FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(v, n)
    ON CONFLICT (owner, kind, id) DO UPDATE SET seq = excluded.seq,
        deleted = r.deleted OR excluded.deleted,
        body = CASE WHEN excluded.deleted THEN r.body || excluded.body ELSE excluded.body END,
        size = CASE WHEN excluded.deleted THEN pg_column_size(r.body || excluded.body) ELSE excluded.size END;
    SELECT count(*) FILTER (WHERE r.kind = 'book' AND NOT r.deleted) AS books,
           count(*) FILTER (WHERE r.kind = 'word' AND NOT r.deleted) AS words,
           count(*) FILTER (WHERE r.kind = 'review' AND NOT r.deleted) AS reviews,
           coalesce(sum(r.size), 0) AS bytes
    INTO after_live
    FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
    CROSS JOIN LATERAL (SELECT r.kind, r.deleted, r.size FROM vocab.records r
                        WHERE r.owner = me AND r.kind = x.k AND r.id = x.i OFFSET 0) r;
    PERFORM vocab.refuse_large_record(batch_live.big_kind, batch_live.big_size);
    added := jsonb_array_length(batch) - before_live.existing;
    UPDATE vocab.accounts a SET
        live_books = a.live_books + after_live.books - before_live.books,
        live_words = a.live_words + after_live.words - before_live.words,
        live_reviews = a.live_reviews + after_live.reviews - before_live.reviews,
        total_records = a.total_records + added,
        total_bytes = a.total_bytes + after_live.bytes - before_live.bytes,
        next_seq = a.next_seq + jsonb_array_length(batch)
    WHERE a.owner = me
    RETURNING a.total_records, a.total_bytes, a.next_seq INTO total, bytes, latest;
    IF shared_books IS NOT NULL THEN
        pushed_through := latest;
        UPDATE vocab.shares s SET latest = pushed_through,
            words = (SELECT count(*) FROM vocab.records r
                     WHERE r.owner = me AND r.kind = 'word' AND r.body->>'bookId' = s.book::text AND NOT r.deleted)
        WHERE s.owner = me AND s.ended IS NULL AND s.book::text = ANY (shared_books);
        -- A shared book stays within what a follower may be sent (`share_book`'s bound).
        IF EXISTS (SELECT 1 FROM vocab.shares s WHERE s.owner = me AND s.ended IS NULL
                   AND s.book::text = ANY (shared_books) AND s.words > 10000) THEN
            RAISE EXCEPTION 'a shared book may hold 10000 words, and this push would make one larger' USING ERRCODE = 'VS010';
        END IF;
    END IF;
    PERFORM vocab.refuse_past_caps(me, cap, total, byte_cap, bytes);
    RETURN latest;
END
$fn$;
-- A batch of records that are all new (what a first sync sends: vocab.push with
-- fresh), one record's JSON {"k","i","d","b"} a line: each line is parsed on its own as
-- it goes in, as COPY does, instead of the whole batch as one document first (which cost
-- a first sync a third of its time). A plain INSERT under the learner's lock if his
-- latest seq is still `expected` (else NULL); anything unusual — a record already there, a
-- line that is no record, a learner who shares books — fails, and the device sends the
-- batch to vocab.push instead, which stores or refuses it as always.
-- (A batch's lines as records, each with its line's number; written into the statements
-- that use it.)
CREATE OR REPLACE FUNCTION vocab.lines_as_records(lines text) RETURNS TABLE (n bigint, k text, i uuid, d boolean, b jsonb)
LANGUAGE sql IMMUTABLE AS $fn$
    SELECT x.n, r.k, r.i, r.d, r.b FROM string_to_table(lines, chr(10)) WITH ORDINALITY AS x(line, n)
    CROSS JOIN LATERAL jsonb_to_record(x.line::jsonb) AS r(k text, i uuid, d boolean, b jsonb)
$fn$;
REVOKE ALL ON FUNCTION vocab.lines_as_records(text) FROM PUBLIC;
CREATE OR REPLACE FUNCTION vocab.push_lines(device name, secret text, expected bigint, lines text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    cap bigint;
    byte_cap bigint;
    latest bigint;
    total bigint;
    bytes bigint;
    batch_live record;
    -- The records, when read before the lock (row n of each array is line numbers[n]).
    numbers bigint[];
    kinds text[];
    ids uuid[];
    deletions boolean[];
    bodies jsonb[];
    waited integer := 0;
BEGIN
    PERFORM vocab.refuse_large_batch(octet_length(lines));
    -- The learner's lock, taken at once when free: the lines then go straight in. While
    -- another batch of his is being stored (a device sends the next before the one before
    -- is answered), the lines are read first, meanwhile, and then the lock is waited for.
    -- A batch that came before the one it follows (its `expected` ahead of the latest seq)
    -- lets the lock go and waits for it, a quarter of a second at most.
    LOOP
        BEGIN
            SELECT a.max_records, a.max_bytes, a.next_seq INTO cap, byte_cap, latest
            FROM vocab.accounts a WHERE a.owner = me FOR UPDATE SKIP LOCKED;
            IF NOT FOUND THEN
                IF numbers IS NULL THEN
                    SELECT array_agg(r.n), array_agg(r.k), array_agg(r.i), array_agg(r.d), array_agg(r.b)
                    INTO numbers, kinds, ids, deletions, bodies FROM vocab.lines_as_records(lines) r;
                END IF;
                SELECT * INTO cap, byte_cap, latest FROM vocab.take_account(me);
            END IF;
            EXIT WHEN latest IS NULL OR latest >= expected OR waited >= 50;  -- (fewer than 64 subtransactions)
            RAISE EXCEPTION 'the batch before has not come' USING ERRCODE = 'VS099';  -- lets the lock go
        EXCEPTION WHEN SQLSTATE 'VS099' THEN
            waited := waited + 1;
            PERFORM pg_sleep(0.005);
        END;
    END LOOP;
    IF latest <> expected THEN
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM vocab.shares s WHERE s.owner = me AND s.ended IS NULL) THEN
        RAISE EXCEPTION 'a learner who shares books pushes through vocab.push';
    END IF;
    WITH stored AS (
        INSERT INTO vocab.records (owner, kind, id, seq, deleted, body, size)
        SELECT me, r.k, r.i, latest + r.n, r.d, r.b, pg_column_size(r.b)
        FROM (SELECT * FROM vocab.lines_as_records(lines) WHERE numbers IS NULL  -- read now, unless read already
              UNION ALL SELECT * FROM unnest(numbers, kinds, ids, deletions, bodies)) AS r(n, k, i, d, b)
        RETURNING kind AS k, deleted AS d, size)
    SELECT count(*) AS records,
           count(*) FILTER (WHERE x.k = 'book' AND NOT x.d) AS books,
           count(*) FILTER (WHERE x.k = 'word' AND NOT x.d) AS words,
           count(*) FILTER (WHERE x.k = 'review' AND NOT x.d) AS reviews,
           coalesce(sum(x.size), 0) AS bytes,
           (array_agg(x.k) FILTER (WHERE x.size > vocab.most_bytes(x.k)))[1] AS big_kind,
           (array_agg(x.size) FILTER (WHERE x.size > vocab.most_bytes(x.k)))[1] AS big_size
    INTO batch_live FROM stored x;
    PERFORM vocab.refuse_large_record(batch_live.big_kind, batch_live.big_size);
    UPDATE vocab.accounts a SET
        live_books = a.live_books + batch_live.books,
        live_words = a.live_words + batch_live.words,
        live_reviews = a.live_reviews + batch_live.reviews,
        total_records = a.total_records + batch_live.records,
        total_bytes = a.total_bytes + batch_live.bytes,
        next_seq = a.next_seq + batch_live.records
    WHERE a.owner = me
    RETURNING a.total_records, a.total_bytes, a.next_seq INTO total, bytes, latest;
    PERFORM vocab.refuse_past_caps(me, cap, total, byte_cap, bytes);
    RETURN latest;
END
$fn$;
-- `device`'s learner's records after `after`, oldest first, at most `most`.
CREATE OR REPLACE FUNCTION vocab.pull(device name, secret text, after bigint, most integer)
RETURNS TABLE (kind text, id uuid, seq bigint, deleted boolean, body jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT r.kind, r.id, r.seq, r.deleted, r.body FROM vocab.records r
    WHERE r.owner = me AND r.seq > after ORDER BY r.seq LIMIT least(greatest(most, 0), 10000);
END
$fn$;

-- `device`'s learner's live counts with the latest seq they hold (one snapshot), for
-- the check that ends every sync; a signed-out device is refused here.
CREATE OR REPLACE FUNCTION vocab.counts(device name, secret text) RETURNS TABLE (books bigint, words bigint, reviews bigint, latest bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT a.live_books, a.live_words, a.live_reviews, a.next_seq FROM vocab.accounts a WHERE a.owner = me;
END
$fn$;

-- Only the server tier runs these; it holds no privilege on any table.
REVOKE ALL ON SCHEMA vocab FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA vocab FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA vocab FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM vocab_server;
GRANT USAGE ON SCHEMA vocab TO vocab_server;
GRANT SELECT ON vocab.meta TO vocab_server;
GRANT EXECUTE ON FUNCTION vocab.me(), vocab.device_learner(name, text), vocab.password_verifier(name),
    vocab.replace_verifier(name, text, text), vocab.legacy_device_verifier(name), vocab.adopt_device_secret(name, text),
    vocab.add_device(name, text, bytea), vocab.my_devices(name, text), vocab.sign_out(name, text, name),
    vocab.push(name, text, bigint, text, boolean, boolean), vocab.push_lines(name, text, bigint, text),
    vocab.pull(name, text, bigint, integer), vocab.counts(name, text) TO vocab_server;
-- Nothing anyone but an administrator could fill or hold outside an account: no
-- temporary tables in this database, no large objects, no transaction ids on demand.
DO $$ BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END $$;
REVOKE EXECUTE ON FUNCTION pg_catalog.lo_creat(integer), pg_catalog.lo_create(oid), pg_catalog.lo_from_bytea(oid, bytea),
    pg_catalog.lo_import(text), pg_catalog.lo_import(text, oid), pg_catalog.lo_open(oid, integer),
    pg_catalog.lowrite(integer, bytea), pg_catalog.lo_put(oid, bigint, bytea) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.txid_current(), pg_catalog.pg_current_xact_id() FROM PUBLIC;
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
ALTER TABLE vocab.shares ENABLE ROW LEVEL SECURITY;
ALTER TABLE vocab.follows ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_shares ON vocab.shares;
CREATE POLICY own_shares ON vocab.shares USING (owner = vocab.me());
DROP POLICY IF EXISTS own_follows ON vocab.follows;
CREATE POLICY own_follows ON vocab.follows USING (follower = vocab.me());

-- Shares `book_id` of the device's learner under `new_code` (or changes how an active
-- share of it is listed; `list`, `shown_as`, `langs` NULL: as they are); at most 20 active shares, a book of at most 10,000 words,
-- a listing changed at most once a minute.
CREATE OR REPLACE FUNCTION vocab.share_book(device name, secret text, book_id uuid, new_code text, list boolean,
                                            shown_as text, langs text)
RETURNS TABLE (share uuid, code text, listed boolean, sharer text, languages text, title text, words integer, followers integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    name_now text;
    live integer;
    current vocab.shares;
BEGIN
    SELECT r.body->>'name' INTO name_now FROM vocab.records r
    WHERE r.owner = me AND r.kind = 'book' AND r.id = book_id AND NOT r.deleted;
    IF name_now IS NULL THEN
        RAISE EXCEPTION 'the book is not in the account (sync first)' USING ERRCODE = 'VS004';
    END IF;
    SELECT count(*) INTO live FROM vocab.records r
    WHERE r.owner = me AND r.kind = 'word' AND r.body->>'bookId' = book_id::text AND NOT r.deleted;
    IF live > 10000 THEN
        RAISE EXCEPTION 'a shared book may hold 10000 words, and this one holds %', live USING ERRCODE = 'VS005';
    END IF;
    SELECT * INTO current FROM vocab.shares s WHERE s.owner = me AND s.book = book_id AND s.ended IS NULL FOR UPDATE;
    IF current.id IS NULL THEN
        IF (SELECT count(*) FROM vocab.shares s WHERE s.owner = me AND s.ended IS NULL) >= 20 THEN
            RAISE EXCEPTION 'a learner may share 20 books at once' USING ERRCODE = 'VS006';
        END IF;
        INSERT INTO vocab.shares (id, owner, book, code, listed, sharer, languages, title, words, latest)
        VALUES (gen_random_uuid(), me, book_id, new_code, coalesce(list, false), left(coalesce(shown_as, ''), 60), left(coalesce(langs, ''), 20), name_now, live,
                (SELECT a.next_seq FROM vocab.accounts a WHERE a.owner = me))
        RETURNING * INTO current;
    ELSIF current.listed IS DISTINCT FROM coalesce(list, current.listed) OR current.sharer IS DISTINCT FROM coalesce(shown_as, current.sharer)
          OR current.languages IS DISTINCT FROM coalesce(langs, current.languages) THEN
        IF current.listing_changed > now() - interval '1 minute' THEN
            RAISE EXCEPTION 'a listing may change once a minute' USING ERRCODE = 'VS008';
        END IF;
        UPDATE vocab.shares s SET listed = coalesce(list, s.listed), sharer = left(coalesce(shown_as, s.sharer), 60),
            languages = left(coalesce(langs, s.languages), 20), title = name_now, words = live, listing_changed = now()
        WHERE s.id = current.id RETURNING * INTO current;
    ELSE
        UPDATE vocab.shares s SET title = name_now, words = live WHERE s.id = current.id RETURNING * INTO current;
    END IF;
    RETURN QUERY SELECT current.id, current.code, current.listed, current.sharer, current.languages, current.title,
                        current.words, current.followers;
END
$fn$;

-- Stops sharing `book_id`: the code stops working at once; followers keep what they
-- have and are told, at their next sync, that it no longer updates. Returns how many followed.
CREATE OR REPLACE FUNCTION vocab.unshare(device name, secret text, book_id uuid) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret); count integer;
BEGIN
    UPDATE vocab.shares s SET ended = now() WHERE s.owner = me AND s.book = book_id AND s.ended IS NULL
    RETURNING s.followers INTO count;
    IF count IS NULL THEN
        RAISE EXCEPTION 'the book is not shared' USING ERRCODE = 'VS001';
    END IF;
    RETURN count;
END
$fn$;

-- The learner's active shares, with how many follow each.
CREATE OR REPLACE FUNCTION vocab.my_shares(device name, secret text)
RETURNS TABLE (share uuid, book uuid, code text, listed boolean, sharer text, languages text, title text, words integer,
               followers integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT s.id, s.book, s.code, s.listed, s.sharer, s.languages, s.title, s.words, s.followers
    FROM vocab.shares s WHERE s.owner = me AND s.ended IS NULL ORDER BY s.created;
END
$fn$;

-- The share live under `given_code`, or VS001 (a follow's and a preview's look-up).
CREATE OR REPLACE FUNCTION vocab.live_share(given_code text) RETURNS vocab.shares
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE found vocab.shares;
BEGIN
    SELECT * INTO found FROM vocab.shares s WHERE s.code = upper(given_code) AND s.ended IS NULL;
    IF found.id IS NULL THEN
        RAISE EXCEPTION 'no book is shared under that code' USING ERRCODE = 'VS001';
    END IF;
    RETURN found;
END
$fn$;

-- Follows the book shared under `given_code` (at most 100 followed at once; not one's own).
CREATE OR REPLACE FUNCTION vocab.follow(device name, secret text, given_code text)
RETURNS TABLE (share uuid, book uuid, title text, sharer text, words integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret); found vocab.shares;
BEGIN
    found := vocab.live_share(given_code);
    IF found.owner = me THEN
        RAISE EXCEPTION 'the book is the learner''s own' USING ERRCODE = 'VS003';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM vocab.follows f WHERE f.follower = me AND f.share = found.id) THEN
        IF (SELECT count(*) FROM vocab.follows f JOIN vocab.shares s ON s.id = f.share
            WHERE f.follower = me AND s.ended IS NULL) >= 100 THEN
            RAISE EXCEPTION 'a learner may follow 100 books at once' USING ERRCODE = 'VS007';
        END IF;
        INSERT INTO vocab.follows (follower, share) VALUES (me, found.id);
        UPDATE vocab.shares s SET followers = s.followers + 1 WHERE s.id = found.id;
    END IF;
    RETURN QUERY SELECT found.id, found.book, found.title, found.sharer, found.words;
END
$fn$;

-- What a link's code shares, asked before following it: the book's title, the name its
-- owner chose to be shown by, how many words and followers, whether it is the learner's
-- own and whether he follows it already. Nothing changes.
CREATE OR REPLACE FUNCTION vocab.share_preview(device name, secret text, given_code text)
RETURNS TABLE (title text, sharer text, words integer, followers integer, own boolean, following boolean)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret); found vocab.shares;
BEGIN
    found := vocab.live_share(given_code);
    RETURN QUERY SELECT found.title, found.sharer, found.words, found.followers, found.owner = me,
        EXISTS (SELECT 1 FROM vocab.follows f WHERE f.follower = me AND f.share = found.id);
END
$fn$;

-- Stops following `share_id` (a share that ended too: its notice goes).
CREATE OR REPLACE FUNCTION vocab.unfollow(device name, secret text, share_id uuid) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    DELETE FROM vocab.follows f WHERE f.follower = me AND f.share = share_id;
    IF NOT FOUND THEN RETURN false; END IF;
    UPDATE vocab.shares s SET followers = greatest(s.followers - 1, 0) WHERE s.id = share_id;
    RETURN true;
END
$fn$;

-- (Version 8's first cut had a function of its own for the followed books' states.)
DROP FUNCTION IF EXISTS vocab.my_follows(name, text);
-- The books `who` follows: each one's live words and latest change (what a follower's
-- sync compares), and whether its owner stopped sharing it (or deleted it). Run only by
-- the functions below, for the learner a device proved. (This and book_records are
-- plpgsql, whose plans a session keeps: a SQL function that cannot be inlined — these
-- run as their definer — plans its query again at every call, which was most of what
-- a follower's sync cost the server.)
CREATE OR REPLACE FUNCTION vocab.followed_books(who name)
RETURNS TABLE (share uuid, owner name, book uuid, title text, sharer text, gone boolean, words integer, latest bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT s.id, s.owner, s.book, coalesce(b.body->>'name', s.title), s.sharer, s.ended IS NOT NULL OR coalesce(b.deleted, true),
           s.words, s.latest
    FROM vocab.follows f JOIN vocab.shares s ON s.id = f.share
    LEFT JOIN vocab.records b ON b.owner = s.owner AND b.kind = 'book' AND b.id = s.book
    WHERE f.follower = who ORDER BY f.created;
END
$fn$;
-- A shared book's records after `after`, oldest first, at most `most`: its book record
-- and its words (deleted ones too) — nothing else of its owner's. Only the book itself:
-- the owner's memorised marks, her per-field stamps (times and a store's id) and her
-- edit times are taken out (an edit time becomes the creation time).
CREATE OR REPLACE FUNCTION vocab.book_records(book_owner name, book_id uuid, after bigint, most integer)
RETURNS TABLE (kind text, id uuid, seq bigint, deleted boolean, body jsonb)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT x.kind, x.id, x.seq, x.deleted,
           (x.body - 'memorized' - 'stamps') || jsonb_build_object('modifiedAt', x.body->'createdAt') FROM (
        SELECT r.kind, r.id, r.seq, r.deleted, r.body FROM vocab.records r
        WHERE r.owner = book_owner AND r.kind = 'book' AND r.id = book_id AND r.seq > after
        UNION ALL
        (SELECT r.kind, r.id, r.seq, r.deleted, r.body FROM vocab.records r
         WHERE r.owner = book_owner AND r.kind = 'word' AND r.body->>'bookId' = book_id::text AND r.seq > after
         ORDER BY r.seq LIMIT least(greatest(most, 0), 10000))
    ) x ORDER BY x.seq LIMIT least(greatest(most, 0), 10000);
END
$fn$;

-- The records of a followed book after `after` (`book_records`), for a device of a
-- learner who follows it while it is shared.
CREATE OR REPLACE FUNCTION vocab.pull_shared(device name, secret text, share_id uuid, after bigint, most integer)
RETURNS TABLE (kind text, id uuid, seq bigint, deleted boolean, body jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret); found record;
BEGIN
    SELECT * INTO found FROM vocab.followed_books(me) f WHERE f.share = share_id;
    IF found.share IS NULL THEN
        RAISE EXCEPTION 'the learner does not follow that book' USING ERRCODE = 'VS002';
    END IF;
    IF found.gone THEN
        RAISE EXCEPTION 'the book is no longer shared' USING ERRCODE = 'VS009';
    END IF;
    RETURN QUERY SELECT * FROM vocab.book_records(found.owner, found.book, after, most);
END
$fn$;

-- What a follower's sync asks, in one call: for each followed book a 'state' row (its
-- book's id, latest change, whether it ended, and its title, sharer and live words in the
-- body), then — for a book the device has pulled to `known`'s token for it, and which
-- changed since — its records after that token (at most `most`; the rest by pull_shared).
-- With no tokens it is the list of the books followed.
CREATE OR REPLACE FUNCTION vocab.follow_changes(device name, secret text, known jsonb, most integer)
RETURNS TABLE (share uuid, kind text, id uuid, seq bigint, deleted boolean, body jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret); followed record; after bigint;
BEGIN
    FOR followed IN SELECT * FROM vocab.followed_books(me) LOOP
        RETURN QUERY SELECT followed.share, 'state'::text, followed.book, followed.latest, followed.gone,
            jsonb_build_object('title', followed.title, 'sharer', followed.sharer, 'words', followed.words);
        after := (known->>(followed.share::text))::bigint;
        IF NOT followed.gone AND after IS NOT NULL AND after < followed.latest THEN
            RETURN QUERY SELECT followed.share, x.kind, x.id, x.seq, x.deleted, x.body
            FROM vocab.book_records(followed.owner, followed.book, after, most) x;
        END IF;
    END LOOP;
END
$fn$;

-- The catalogue: listed books whose names hold every word of `query` (as prefixes),
-- of `langs` when given, newest or most followed first.
CREATE OR REPLACE FUNCTION vocab.catalog(device name, secret text, query text, langs text, by_followers boolean, most integer)
RETURNS TABLE (share uuid, code text, title text, sharer text, languages text, words integer, followers integer, created timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    wanted tsquery := (SELECT to_tsquery('simple', string_agg(quote_literal(lower(w)) || ':*', ' & '))
                       FROM unnest(regexp_split_to_array(left(coalesce(query, ''), 200), '[^[:alnum:]]+')) w WHERE w <> '');
BEGIN
    RETURN QUERY SELECT s.id, s.code, s.title, s.sharer, s.languages, s.words, s.followers, s.created
    FROM vocab.shares s
    WHERE s.listed AND s.ended IS NULL
      AND (wanted IS NULL OR to_tsvector('simple', s.title) @@ wanted)
      AND (coalesce(langs, '') = '' OR s.languages = langs)
    ORDER BY CASE WHEN by_followers THEN s.followers END DESC NULLS LAST, s.created DESC
    LIMIT least(greatest(most, 0), 100);
END
$fn$;

-- As every table and function before: the server tier runs these functions and reads no table.
REVOKE ALL ON vocab.shares, vocab.follows FROM PUBLIC, vocab_server;
REVOKE ALL ON FUNCTION vocab.share_book(name, text, uuid, text, boolean, text, text), vocab.unshare(name, text, uuid),
    vocab.my_shares(name, text), vocab.follow(name, text, text), vocab.unfollow(name, text, uuid),
    vocab.pull_shared(name, text, uuid, bigint, integer), vocab.followed_books(name), vocab.book_records(name, uuid, bigint, integer),
    vocab.share_preview(name, text, text), vocab.live_share(text),
    vocab.catalog(name, text, text, text, boolean, integer), vocab.follow_changes(name, text, jsonb, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vocab.share_book(name, text, uuid, text, boolean, text, text), vocab.unshare(name, text, uuid),
    vocab.my_shares(name, text), vocab.follow(name, text, text), vocab.unfollow(name, text, uuid),
    vocab.pull_shared(name, text, uuid, bigint, integer), vocab.share_preview(name, text, text),
    vocab.catalog(name, text, text, text, boolean, integer), vocab.follow_changes(name, text, jsonb, integer) TO vocab_server;
INSERT INTO vocab.meta VALUES ('schema_version', '8') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
