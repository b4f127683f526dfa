-- The cloud schema version 5 as Vocab installed it before the Vocab server became the cloud's
-- only door (commit 83e62c6, CloudSchema.installSQL), kept for the test of the upgrade in place.
DO $$ BEGIN
    CREATE ROLE vocab_user NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
CREATE SCHEMA IF NOT EXISTS vocab;
CREATE SEQUENCE IF NOT EXISTS vocab.change_seq;
-- Books, words, reviews and deletions of every user, one row per object, keyed by owner
-- first (so they partition by owner). `seq` orders a user's changes.
CREATE TABLE IF NOT EXISTS vocab.records (
    owner   name NOT NULL DEFAULT session_user,
    kind    text NOT NULL CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review', 'settings')),
    id      uuid NOT NULL,
    seq     bigint NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    body    jsonb NOT NULL,
    PRIMARY KEY (owner, kind, id)
);
CREATE INDEX IF NOT EXISTS records_by_owner_seq ON vocab.records (owner, seq);
-- Version 3: the learner's scheduling settings (FSRS parameters, desired retention)
-- travel as one 'settings' record per account. An older table's kind check is replaced
-- once (adding a check reads the whole table under an exclusive lock: not on every init).
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'vocab.records'::regclass
                   AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%settings%') THEN
        ALTER TABLE vocab.records DROP CONSTRAINT IF EXISTS records_kind_check;
        ALTER TABLE vocab.records ADD CONSTRAINT records_kind_check CHECK (kind IN ('book', 'word', 'review', 'settings'));
    END IF;
END $$;
-- One row per user: the user's write lock, and the administrator's cap on records.
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
-- Version 4: each user's changes are numbered by a counter of their own (a global
-- sequence told anyone how many records the others pushed), and an account is capped in
-- bytes as well as records.
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS next_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS max_bytes bigint CHECK (max_bytes IS NULL OR max_bytes >= 0);
ALTER TABLE vocab.accounts ADD COLUMN IF NOT EXISTS total_bytes bigint NOT NULL DEFAULT 0;
INSERT INTO vocab.accounts (owner) SELECT DISTINCT owner FROM vocab.records ON CONFLICT (owner) DO NOTHING;
UPDATE vocab.accounts a SET
    live_books = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'book' AND NOT r.deleted),
    live_words = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'word' AND NOT r.deleted),
    live_reviews = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'review' AND NOT r.deleted),
    total_records = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner),
    next_seq = greatest(a.next_seq, (SELECT coalesce(max(r.seq), 0) FROM vocab.records r WHERE r.owner = a.owner)),
    total_bytes = (SELECT coalesce(sum(octet_length(r.body::text)), 0) FROM vocab.records r WHERE r.owner = a.owner);
CREATE TABLE IF NOT EXISTS vocab.meta (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO vocab.meta VALUES ('schema_version', '5') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
-- What a new account may hold until the administrator says otherwise.
INSERT INTO vocab.meta VALUES ('default_max_records', '500000'), ('default_max_bytes', '268435456') ON CONFLICT (key) DO NOTHING;
-- An account row for `who`, with the default caps, unless there is one (called by
-- vocab.push, vocab.add_device and the administrator's add-user; not granted to users).
CREATE OR REPLACE FUNCTION vocab.open_account(who name) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    INSERT INTO vocab.accounts (owner, max_records, max_bytes)
    SELECT who, (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_records'),
           (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_bytes')
    ON CONFLICT (owner) DO NOTHING
$fn$;
REVOKE ALL ON FUNCTION vocab.open_account(name) FROM PUBLIC;
-- Version 5: devices. A learner signs in once with the password (checked by PostgreSQL);
-- the device gets a login role of its own whose password is a secret only the device
-- knows (the server keeps its SCRAM verifier). The function vocab.me() maps a device to its learner;
-- a signed-out device's role can no longer log in and maps to nobody.
CREATE TABLE IF NOT EXISTS vocab.devices (
    role    name PRIMARY KEY,
    owner   name NOT NULL,
    label   text NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    seen    timestamptz,
    revoked timestamptz
);
CREATE INDEX IF NOT EXISTS devices_by_owner ON vocab.devices (owner);
ALTER TABLE vocab.devices ENABLE ROW LEVEL SECURITY;
-- The learner the caller acts for: a device's learner (while the device is signed in and
-- the learner's role exists), a learner's own role, or NULL.
CREATE OR REPLACE FUNCTION vocab.me() RETURNS name
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM vocab.devices d WHERE d.role = session_user)
        THEN (SELECT d.owner FROM vocab.devices d WHERE d.role = session_user AND d.revoked IS NULL
              AND EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = d.owner AND pg_has_role(r.oid, 'vocab_user', 'MEMBER')))
        ELSE session_user END
$fn$;
-- vocab.me() for the functions that act on an account: refused (42501) when the caller
-- is a signed-out device or no Vocab user at all.
CREATE OR REPLACE FUNCTION vocab.signed_in_learner() RETURNS name
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.me();
BEGIN
    IF me IS NULL OR NOT pg_has_role(session_user, 'vocab_user', 'MEMBER') THEN
        RAISE EXCEPTION 'this device was signed out, or is not a Vocab user' USING ERRCODE = '42501';
    END IF;
    RETURN me;
END
$fn$;
-- Signs `target`'s devices out (all of them when `only` is NULL): no more logins, their
-- sessions ended. Returns how many. Called by the functions below and by administrators.
CREATE OR REPLACE FUNCTION vocab.sign_out_devices(target name, one_device name) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE device name; n integer := 0;
BEGIN
    FOR device IN UPDATE vocab.devices d SET revoked = now()
                  WHERE d.owner = target AND d.revoked IS NULL AND (one_device IS NULL OR d.role = one_device) RETURNING d.role LOOP
        IF EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = device) THEN
            EXECUTE format('ALTER ROLE %I NOLOGIN', device);
        END IF;
        PERFORM pg_terminate_backend(a.pid) FROM pg_stat_activity a WHERE a.usename = device AND a.pid <> pg_backend_pid();
        n := n + 1;
    END LOOP;
    RETURN n;
END
$fn$;
-- Adds a device for the learner signing in with the password: a new login role whose
-- password is `verifier` (SCRAM-SHA-256, made on the device: the secret never travels),
-- with the learner's limits. At most 10 devices signed in and 30 added an hour per
-- learner (`device_sign_ins_per_hour` in vocab.meta changes the 30); roles signed out over
-- an hour ago are dropped. Returns the role's name.
CREATE OR REPLACE FUNCTION vocab.add_device(label text, verifier text) RETURNS name
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := session_user; device name; old name;
BEGIN
    IF NOT pg_has_role(me, 'vocab_user', 'MEMBER') OR EXISTS (SELECT 1 FROM vocab.devices d WHERE d.role = me) THEN
        RAISE EXCEPTION 'only a learner signing in with the password may add a device' USING ERRCODE = '42501';
    END IF;
    IF verifier IS NULL OR verifier NOT LIKE 'SCRAM-SHA-256$%' OR octet_length(verifier) > 512 THEN
        RAISE EXCEPTION 'a device needs a SCRAM-SHA-256 verifier' USING ERRCODE = '22023';
    END IF;
    PERFORM vocab.open_account(me);
    PERFORM 1 FROM vocab.accounts a WHERE a.owner = me FOR UPDATE;
    IF (SELECT count(*) FROM vocab.devices d WHERE d.owner = me AND d.revoked IS NULL) >= 10 THEN
        RAISE EXCEPTION 'the account has 10 devices signed in; sign one out first' USING ERRCODE = '53400';
    END IF;
    IF (SELECT count(*) FROM vocab.devices d WHERE d.owner = me AND d.created > now() - interval '1 hour') >=
       coalesce((SELECT m.value::bigint FROM vocab.meta m WHERE m.key = 'device_sign_ins_per_hour'), 30) THEN
        RAISE EXCEPTION 'the account signed in too many devices in the last hour; try again later' USING ERRCODE = '53400';
    END IF;
    FOR old IN DELETE FROM vocab.devices d WHERE d.owner = me AND d.revoked < now() - interval '1 hour' RETURNING d.role LOOP
        IF EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = old) THEN
            EXECUTE format('DROP ROLE %I', old);
        END IF;
    END LOOP;
    device := 'vd_' || replace(gen_random_uuid()::text, '-', '');
    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L CONNECTION LIMIT 2 IN ROLE vocab_user', device, verifier);
    EXECUTE format('ALTER ROLE %I SET temp_file_limit = %L', device, '64MB');
    EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', device, '120s');
    EXECUTE format('ALTER ROLE %I SET lock_timeout = %L', device, '30s');
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %L', device, '120s');
    INSERT INTO vocab.devices (role, owner, label) VALUES (device, me, left(coalesce(label, ''), 80));
    RETURN device;
END
$fn$;
-- The caller's learner's devices signed in, the caller's own marked.
CREATE OR REPLACE FUNCTION vocab.my_devices() RETURNS TABLE (role name, label text, created timestamptz, seen timestamptz, this boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT d.role, d.label, d.created, d.seen, d.role = session_user FROM vocab.devices d
    WHERE d.owner = vocab.me() AND d.revoked IS NULL ORDER BY d.created
$fn$;
-- Signs out one of the caller's learner's devices (NULL: all of them, the caller's too).
CREATE OR REPLACE FUNCTION vocab.sign_out(device name) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
    RETURN vocab.sign_out_devices(vocab.signed_in_learner(), device);
END
$fn$;
ALTER TABLE vocab.records ENABLE ROW LEVEL SECURITY;
ALTER TABLE vocab.records FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_rows ON vocab.records;
CREATE POLICY own_rows ON vocab.records
    USING (owner = vocab.me()) WITH CHECK (owner = vocab.me());
ALTER TABLE vocab.accounts ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_account ON vocab.accounts;
CREATE POLICY own_account ON vocab.accounts USING (owner = vocab.me());

-- The most bytes one record of a kind may hold (its body as text).
CREATE OR REPLACE FUNCTION vocab.most_bytes(kind text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$
    SELECT CASE kind WHEN 'book' THEN 2097152 WHEN 'word' THEN 524288 WHEN 'settings' THEN 65536 ELSE 4096 END
$fn$;
REVOKE ALL ON FUNCTION vocab.most_bytes(text) FROM PUBLIC;

-- Stores a batch of the caller's records (a JSON array of {"k","i","d","b"}, sent as text
-- and measured before it is parsed: at most 16 MiB; a body at most 2 MiB for a book —
-- its cover —, 512 KiB for a word, 64 KiB for settings, 4 KiB for a review) if the
-- caller's latest seq is still `expected`; returns the new latest seq, or NULL when
-- another device pushed first (pull, then push again). `fresh`: the account had no
-- rows, so a plain insert (cheaper; a conflict is an error and the client retries).
DROP FUNCTION IF EXISTS vocab.push(bigint, jsonb, boolean);
-- The batch's records as they were and are: one index look-up per record of the batch
-- (a LATERAL that cannot be flattened; a hash join read the whole account, and a
-- 100,000-word first sync passed the 64 MB of temporary files a user may have).
-- Generic plans only: planned for this owner's name, a lookup by key believed a new
-- learner among a few big ones had a row or two (the owner's statistics say so) and
-- read all of the learner's records through records_by_owner_seq for each record it
-- looked up — a first sync of 10,000 words beside a million others' records took 10 s
-- instead of 0.4 s. Planned for any owner, it takes the primary key.
CREATE OR REPLACE FUNCTION vocab.push(expected bigint, batch_text text, fresh boolean) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
    me name := vocab.signed_in_learner();
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
BEGIN
    IF octet_length(batch_text) > 16777216 THEN
        RAISE EXCEPTION 'a batch may hold 16 MiB, and this one holds % bytes', octet_length(batch_text)
            USING ERRCODE = '54000';
    END IF;
    batch := batch_text::jsonb;
    PERFORM vocab.open_account(me);
    SELECT a.max_records, a.max_bytes, a.next_seq INTO cap, byte_cap, latest FROM vocab.accounts a WHERE a.owner = me FOR UPDATE;
    IF latest <> expected THEN
        RETURN NULL;
    END IF;
    IF fresh THEN
        -- Into an account the caller says is empty: a plain INSERT, which fails (and
        -- changes nothing) should any record be there already. When it succeeds every
        -- record is new, so the counters and bytes come from the batch alone: no lookup
        -- of each record before and after. The records are measured as they go in (one
        -- pass over the batch); one too large undoes the whole push below.
        WITH stored AS (
            INSERT INTO vocab.records (owner, kind, id, seq, deleted, body)
            SELECT me, e.v->>'k', (e.v->>'i')::uuid, latest + e.n, (e.v->>'d')::boolean, e.v->'b'
            FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(v, n)
            RETURNING kind AS k, deleted AS d, octet_length(body::text) AS size)
        SELECT count(*) FILTER (WHERE x.k = 'book' AND NOT x.d) AS books,
               count(*) FILTER (WHERE x.k = 'word' AND NOT x.d) AS words,
               count(*) FILTER (WHERE x.k = 'review' AND NOT x.d) AS reviews,
               coalesce(sum(x.size), 0) AS bytes,
               (array_agg(x.k) FILTER (WHERE x.size > vocab.most_bytes(x.k)))[1] AS big_kind,
               (array_agg(x.size) FILTER (WHERE x.size > vocab.most_bytes(x.k)))[1] AS big_size
        INTO batch_live FROM stored x;
        SELECT 0::bigint AS books, 0::bigint AS words, 0::bigint AS reviews, 0::bigint AS existing, 0::bigint AS bytes
        INTO before_live;
        after_live := batch_live;
    ELSE
        -- Each body's size: what a record may hold.
        SELECT (array_agg(x.k) FILTER (WHERE s.size > vocab.most_bytes(x.k)))[1] AS big_kind,
               (array_agg(s.size) FILTER (WHERE s.size > vocab.most_bytes(x.k)))[1] AS big_size
        INTO batch_live
        FROM jsonb_to_recordset(batch) AS x(k text, b jsonb)
        CROSS JOIN LATERAL (SELECT octet_length(x.b::text) AS size) s;
        -- The batch's records as they were: the live counters and the bytes kept in
        -- step. Each is looked up by its key.
        SELECT count(*) FILTER (WHERE r.kind = 'book' AND NOT r.deleted) AS books,
               count(*) FILTER (WHERE r.kind = 'word' AND NOT r.deleted) AS words,
               count(*) FILTER (WHERE r.kind = 'review' AND NOT r.deleted) AS reviews,
               count(*) AS existing, coalesce(sum(octet_length(r.body::text)), 0) AS bytes
        INTO before_live
        FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
        CROSS JOIN LATERAL (SELECT r.kind, r.deleted, r.body FROM vocab.records r
                            WHERE r.owner = me AND r.kind = x.k AND r.id = x.i OFFSET 0) r;
        -- A deletion sticks, and a deleted record keeps its last known fields plus what
        -- the deletion says (a folded book's mergedInto).
        INSERT INTO vocab.records AS r (owner, kind, id, seq, deleted, body)
        SELECT me, e.v->>'k', (e.v->>'i')::uuid, latest + e.n, (e.v->>'d')::boolean, e.v->'b'
        FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(v, n)
        ON CONFLICT (owner, kind, id) DO UPDATE SET seq = excluded.seq,
            deleted = r.deleted OR excluded.deleted,
            body = CASE WHEN excluded.deleted THEN r.body || excluded.body ELSE excluded.body END;
        SELECT count(*) FILTER (WHERE r.kind = 'book' AND NOT r.deleted) AS books,
               count(*) FILTER (WHERE r.kind = 'word' AND NOT r.deleted) AS words,
               count(*) FILTER (WHERE r.kind = 'review' AND NOT r.deleted) AS reviews,
               coalesce(sum(octet_length(r.body::text)), 0) AS bytes
        INTO after_live
        FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
        CROSS JOIN LATERAL (SELECT r.kind, r.deleted, r.body FROM vocab.records r
                            WHERE r.owner = me AND r.kind = x.k AND r.id = x.i OFFSET 0) r;
    END IF;
    IF batch_live.big_kind IS NOT NULL THEN
        RAISE EXCEPTION 'a % record of % bytes is larger than a % may be', batch_live.big_kind, batch_live.big_size, batch_live.big_kind
            USING ERRCODE = '54000';
    END IF;
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
    IF cap IS NOT NULL AND total > cap THEN
        RAISE EXCEPTION 'the account % may hold % records, and this push would make it %', me, cap, total
            USING ERRCODE = '53400';
    END IF;
    IF byte_cap IS NOT NULL AND bytes > byte_cap THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and this push would make it %', me, byte_cap, bytes
            USING ERRCODE = '53400';
    END IF;
    RETURN latest;
END
$fn$;

-- The caller's records after `after`, oldest first, at most `most` (a user reads the
-- table only through this: no planner estimate or row count of anyone else's rows).
CREATE OR REPLACE FUNCTION vocab.pull(after bigint, most integer)
RETURNS TABLE (kind text, id uuid, seq bigint, deleted boolean, body jsonb)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT r.kind, r.id, r.seq, r.deleted, r.body FROM vocab.records r
    WHERE r.owner = vocab.me() AND r.seq > after ORDER BY r.seq LIMIT least(greatest(most, 0), 10000)
$fn$;

-- The caller's live counts, for the check that ends every sync.
DROP FUNCTION IF EXISTS vocab.counts();
-- With the latest seq they hold (one snapshot): counts are comparable only with a device
-- that has pulled exactly that far.
-- Version 5: a signed-out device is refused here (every sync and every check starts with
-- it), and a device's last sign of life is kept (at most once a minute).
CREATE FUNCTION vocab.counts() RETURNS TABLE (books bigint, words bigint, reviews bigint, latest bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.signed_in_learner();
BEGIN
    UPDATE vocab.devices d SET seen = now() WHERE d.role = session_user AND (d.seen IS NULL OR d.seen < now() - interval '1 minute');
    RETURN QUERY SELECT a.live_books, a.live_words, a.live_reviews, a.next_seq FROM vocab.accounts a WHERE a.owner = me;
END
$fn$;

REVOKE ALL ON SCHEMA vocab FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM vocab_user;
REVOKE ALL ON SEQUENCE vocab.change_seq FROM vocab_user;
REVOKE ALL ON FUNCTION vocab.push(bigint, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION vocab.pull(bigint, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION vocab.counts() FROM PUBLIC;
REVOKE ALL ON FUNCTION vocab.me(), vocab.signed_in_learner(), vocab.sign_out_devices(name, name), vocab.add_device(text, text),
    vocab.my_devices(), vocab.sign_out(name) FROM PUBLIC;
GRANT USAGE ON SCHEMA vocab TO vocab_user;
GRANT SELECT ON vocab.meta TO vocab_user;
GRANT EXECUTE ON FUNCTION vocab.push(bigint, text, boolean) TO vocab_user;
GRANT EXECUTE ON FUNCTION vocab.pull(bigint, integer) TO vocab_user;
GRANT EXECUTE ON FUNCTION vocab.counts() TO vocab_user;
GRANT EXECUTE ON FUNCTION vocab.me(), vocab.add_device(text, text), vocab.my_devices(), vocab.sign_out(name) TO vocab_user;
-- Nothing a user could fill or hold outside the account: no temporary tables in this
-- database, no large objects, no transaction ids on demand (a loop of them walks the
-- cluster toward wraparound), and no statistics of others' tables or sessions.
DO $$ BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END $$;
REVOKE EXECUTE ON FUNCTION pg_catalog.lo_creat(integer), pg_catalog.lo_create(oid), pg_catalog.lo_from_bytea(oid, bytea),
    pg_catalog.lo_import(text), pg_catalog.lo_import(text, oid), pg_catalog.lo_open(oid, integer),
    pg_catalog.lowrite(integer, bytea), pg_catalog.lo_put(oid, bigint, bytea) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.txid_current(), pg_catalog.pg_current_xact_id() FROM PUBLIC;
REVOKE SELECT ON pg_catalog.pg_stat_activity, pg_catalog.pg_stat_all_tables, pg_catalog.pg_stat_user_tables,
    pg_catalog.pg_stat_xact_all_tables, pg_catalog.pg_stat_xact_user_tables, pg_catalog.pg_statio_all_tables,
    pg_catalog.pg_statio_user_tables, pg_catalog.pg_stat_all_indexes, pg_catalog.pg_stat_user_indexes,
    pg_catalog.pg_statio_all_indexes, pg_catalog.pg_statio_user_indexes FROM PUBLIC;
