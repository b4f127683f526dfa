-- The cloud's functions, policies and grants: run at every install and upgrade, after the
-- tables (`tables.sql` or the numbered steps), so each is as this Vocab wrote it.
-- An account row for `who`, with the default caps, unless there is one.
CREATE OR REPLACE FUNCTION vocab.open_account(who name) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    INSERT INTO vocab.accounts (owner, max_records, max_bytes)
    SELECT who, (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_records'),
           (SELECT value::bigint FROM vocab.meta WHERE key = 'default_max_bytes')
    ON CONFLICT (owner) DO NOTHING
$fn$;
REVOKE ALL ON FUNCTION vocab.open_account(name) FROM PUBLIC;

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
    WHERE d.id = device AND d.revoked IS NULL AND d.secret_sha256 = sha256(convert_to(coalesce(secret, ''), 'UTF8'));
    IF who IS NULL THEN
        RAISE EXCEPTION 'this device was signed out' USING ERRCODE = '42501';
    END IF;
    PERFORM set_config('vocab.learner', who, true);
    -- When it was last seen is a hint: a row another transaction holds is left as it is
    -- (a learner's request never waits on a lock for it).
    UPDATE vocab.devices d SET seen = now() WHERE d.id = (
        SELECT l.id FROM vocab.devices l WHERE l.id = device AND (l.seen IS NULL OR l.seen < now() - interval '1 minute')
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
    SELECT d.legacy_verifier FROM vocab.devices d WHERE d.id = device AND d.revoked IS NULL AND d.secret_sha256 IS NULL
$fn$;
-- Keeps the SHA-256 of a version-5 device's secret, which the server has just checked
-- against its old verifier.
CREATE OR REPLACE FUNCTION vocab.adopt_device_secret(device name, secret text) RETURNS boolean
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    UPDATE vocab.devices d SET secret_sha256 = sha256(convert_to(secret, 'UTF8')), legacy_verifier = NULL
    WHERE d.id = device AND d.revoked IS NULL AND d.secret_sha256 IS NULL AND d.legacy_verifier IS NOT NULL RETURNING true
$fn$;
-- Signs `target`'s devices out (all of them when `one_device` is NULL); returns how many.
CREATE OR REPLACE FUNCTION vocab.sign_out_devices(target name, one_device name) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    WITH gone AS (UPDATE vocab.devices d SET revoked = now()
                  WHERE d.owner = target AND d.revoked IS NULL AND (one_device IS NULL OR d.id = one_device) RETURNING 1)
    SELECT count(*)::integer FROM gone
$fn$;
-- Adds a device to `who`'s account, whose password a Vocab server has just checked; the
-- device's secret is made by the server and only its SHA-256 is kept here. At most 10
-- devices signed in and 30 added an hour per learner (`device_sign_ins_per_hour` in
-- vocab.meta changes the 30); devices signed out over an hour ago are forgotten.
-- Returns the device's id.
CREATE OR REPLACE FUNCTION vocab.device_sign_ins_per_hour() RETURNS bigint
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT coalesce((SELECT m.value::bigint FROM vocab.meta m WHERE m.key = 'device_sign_ins_per_hour'), 30)
$fn$;
-- Whether `who` may add a device now, asked before a password is checked (a sign-in the
-- device bounds would refuse costs no check): NULL when it may, else what add_device would
-- say in its DETAIL (`devices 10`, `hourly 30`). Nothing when there is no such learner.
CREATE OR REPLACE FUNCTION vocab.device_room(who name) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT CASE
        WHEN (SELECT count(*) FROM vocab.devices d WHERE d.owner = who AND d.revoked IS NULL) >= 10 THEN 'devices 10'
        WHEN (SELECT count(*) FROM vocab.devices d WHERE d.owner = who AND d.created > now() - interval '1 hour')
             >= vocab.device_sign_ins_per_hour() THEN 'hourly ' || vocab.device_sign_ins_per_hour()
    END
$fn$;
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
        RAISE EXCEPTION 'the account has 10 devices signed in; sign one out first' USING ERRCODE = '53400', DETAIL = 'devices 10';
    END IF;
    IF (SELECT count(*) FROM vocab.devices d WHERE d.owner = who AND d.created > now() - interval '1 hour') >= vocab.device_sign_ins_per_hour() THEN
        RAISE EXCEPTION 'the account signed in too many devices in the last hour; try again later' USING ERRCODE = '53400',
            DETAIL = 'hourly ' || vocab.device_sign_ins_per_hour();
    END IF;
    DELETE FROM vocab.devices d WHERE d.owner = who AND d.revoked < now() - interval '1 hour';
    device := 'vd_' || replace(gen_random_uuid()::text, '-', '');
    INSERT INTO vocab.devices (id, owner, label, secret_sha256) VALUES (device, who, left(coalesce(label, ''), 80), secret_sha256);
    RETURN device;
END
$fn$;
-- The devices of `device`'s learner signed in, the asking one marked.
CREATE OR REPLACE FUNCTION vocab.my_devices(device name, secret text)
RETURNS TABLE (id name, label text, created timestamptz, seen timestamptz, this boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT d.id, d.label, d.created, d.seen, d.id = device FROM vocab.devices d
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
    SELECT CASE kind WHEN 'book' THEN {{book_bytes}} WHEN 'word' THEN {{word_bytes}} WHEN 'settings' THEN {{settings_bytes}} ELSE {{other_record_bytes}} END
$fn$;
REVOKE ALL ON FUNCTION vocab.most_bytes(text) FROM PUBLIC;

-- Refuses (SQLSTATE 54000) a batch of more than {{batch_bytes}} bytes, measured as text before it is parsed.
CREATE OR REPLACE FUNCTION vocab.refuse_large_batch(bytes integer) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF bytes > {{batch_bytes}} THEN
        RAISE EXCEPTION 'a batch may hold {{batch_bytes}} bytes, and this one holds % bytes', bytes USING ERRCODE = '54000',
            DETAIL = 'batch {{batch_bytes}} ' || bytes;
    END IF;
END
$fn$;

-- Refuses (SQLSTATE 54000, undoing the push) a record of `kind` of `size` bytes, the first
-- of a batch over its kind's bound (NULL: none was).
CREATE OR REPLACE FUNCTION vocab.refuse_large_record(kind text, size integer) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF kind IS NOT NULL THEN
        RAISE EXCEPTION 'a % record of % bytes is larger than a % may be', kind, size, kind USING ERRCODE = '54000',
            DETAIL = 'record ' || kind || ' ' || size;
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
        RAISE EXCEPTION 'the account % may hold % records, and this push would make it %', me, cap, total USING ERRCODE = '53400',
            DETAIL = 'records ' || cap || ' ' || total;
    END IF;
    IF byte_cap IS NOT NULL AND bytes > byte_cap THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and this push would make it %', me, byte_cap, bytes USING ERRCODE = '53400',
            DETAIL = 'bytes ' || byte_cap || ' ' || bytes;
    END IF;
END
$fn$;

-- Stores a batch of the caller's records (a JSON array of {"k","i","d","b"}, sent as text
-- and measured before it is parsed: at most {{batch_bytes}} bytes; a body at most vocab.most_bytes
-- of its kind) if the caller's latest seq is still `expected`; returns the new latest seq, or NULL when
-- another device pushed first (pull, then push again). With `merge` (version 7) a batch
-- is stored after another device's changes too when it holds none of the records they
-- changed, so that a learner's devices syncing at once all get through; the device
-- knows its own rows by their seqs (the latest returned, less the batch's length).
-- `fresh`: records the device believes new (a first sync), never stored after another
-- device's changes. They go in by vocab.push_lines; one comes here only when that could
-- not take its batch, and is stored (or refused) as any other.
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
                   AND s.book::text = ANY (shared_books) AND s.words > {{words_per_book}}) THEN
            RAISE EXCEPTION 'a shared book may hold {{words_per_book}} words, and this push would make one larger' USING ERRCODE = 'VS010';
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
    -- A page ends at {{pull_bytes}} bytes of bodies (the record that passes them is the last,
    -- so a page holds one record at least); the device asks again from its last seq.
    RETURN QUERY SELECT p.kind, p.id, p.seq, p.deleted, p.body FROM (
        SELECT r.kind, r.id, r.seq, r.deleted, r.body,
               sum(coalesce(r.size, octet_length(r.body::text))) OVER (ORDER BY r.seq) - coalesce(r.size, octet_length(r.body::text)) AS before
        FROM (SELECT * FROM vocab.records r WHERE r.owner = me AND r.seq > after ORDER BY r.seq LIMIT least(greatest(most, 0), 10000)) r
    ) p WHERE p.before < {{pull_bytes}} ORDER BY p.seq;
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

-- Anki's apps (version 10). The caller's collection as of now: first a row of its version
-- and state (none for an account whose apps never synced), then a page of the objects written
-- or removed after version `since` (a removed one without `content`), in the order of their
-- version, kind and id, from after (`after_version`, `after_kind`, `after_id`). A page ends at
-- {{pull_bytes}} bytes of rows (the row that passes them is the last, so a page holds one row
-- at least) or 10,000 rows; the server asks again from its last row until a page is empty.
DROP FUNCTION IF EXISTS vocab.anki_pull(name, text, bigint);
CREATE OR REPLACE FUNCTION vocab.anki_pull(device name, secret text, since bigint, after_version bigint, after_kind text, after_id text)
RETURNS TABLE (kind text, id text, content text, version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT ''::text, ''::text, c.state, c.version FROM vocab.anki_collections c WHERE c.owner = me;
    RETURN QUERY SELECT p.kind, p.id, p.content, p.version FROM (
        SELECT o.kind, o.id, o.content, o.version,
               sum(coalesce(octet_length(o.content), 0)) OVER (ORDER BY o.version, o.kind, o.id) - coalesce(octet_length(o.content), 0) AS before
        FROM (SELECT * FROM vocab.anki_objects o WHERE o.owner = me AND o.version > since
                AND (o.version, o.kind, o.id) > (after_version, after_kind, after_id)
              ORDER BY o.version, o.kind, o.id LIMIT 10000) o
    ) p WHERE p.before < {{pull_bytes}} ORDER BY p.version, p.kind, p.id;
END
$fn$;

-- Stores objects of the caller's collection (a JSON array of {"k","i","r"}, r null for one
-- removed; at most {{batch_bytes}} bytes) and, when given, its state, if the collection is
-- still at version `expected`; returns the new version, or NULL when another server wrote
-- first (pull, then try again). The collection and the account's records together stay
-- within the account's byte cap (SQLSTATE 53400 otherwise, nothing stored). Waits a few
-- seconds at most for the collection's lock (then "busy").
CREATE OR REPLACE FUNCTION vocab.anki_push(device name, secret text, expected bigint, new_state text, batch_text text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    batch jsonb;
    current bigint;
    grown bigint;
    byte_cap bigint;
    record_bytes bigint;
    held bigint;
BEGIN
    PERFORM vocab.refuse_large_batch(octet_length(batch_text));
    batch := batch_text::jsonb;
    PERFORM set_config('lock_timeout', '5s', true);
    INSERT INTO vocab.anki_collections AS c (owner) VALUES (me) ON CONFLICT (owner) DO NOTHING;
    SELECT c.version INTO current FROM vocab.anki_collections c WHERE c.owner = me FOR UPDATE;
    IF current <> expected THEN
        RETURN NULL;
    END IF;
    SELECT coalesce(sum(octet_length(x.r)), 0) - coalesce(sum(octet_length(o.content)), 0) INTO grown
    FROM jsonb_to_recordset(batch) AS x(k text, i text, r text)
    LEFT JOIN vocab.anki_objects o ON o.owner = me AND o.kind = x.k AND o.id = x.i;
    INSERT INTO vocab.anki_objects AS o (owner, kind, id, version, content)
    SELECT me, x.k, x.i, current + 1, x.r FROM jsonb_to_recordset(batch) AS x(k text, i text, r text)
    ON CONFLICT (owner, kind, id) DO UPDATE SET version = excluded.version, content = excluded.content;
    UPDATE vocab.anki_collections c SET version = current + 1, state = coalesce(new_state, c.state), bytes = c.bytes + grown
    WHERE c.owner = me RETURNING c.bytes + c.media_bytes INTO held;
    SELECT a.max_bytes, a.total_bytes INTO byte_cap, record_bytes FROM vocab.accounts a WHERE a.owner = me;
    IF grown > 0 AND byte_cap IS NOT NULL AND record_bytes + held > byte_cap THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and this push would make it %', me, byte_cap, record_bytes + held
            USING ERRCODE = '53400', DETAIL = 'bytes ' || byte_cap || ' ' || (record_bytes + held);
    END IF;
    RETURN current + 1;
END
$fn$;

-- The media of the caller's Anki apps: its latest update number and how many files it holds.
CREATE OR REPLACE FUNCTION vocab.anki_media_state(device name, secret text) RETURNS TABLE (usn bigint, files bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT coalesce((SELECT c.media_usn FROM vocab.anki_collections c WHERE c.owner = me), 0),
        (SELECT count(*) FROM vocab.anki_media m WHERE m.owner = me AND m.sha1 <> '');
END
$fn$;

-- The changes to the caller's media after `after_usn`, oldest first (at most 1,000).
CREATE OR REPLACE FUNCTION vocab.anki_media_changes(device name, secret text, after_usn bigint)
RETURNS TABLE (name text, sha1 text, usn bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT m.name, m.sha1, m.usn FROM vocab.anki_media m WHERE m.owner = me AND m.usn > after_usn
        ORDER BY m.usn LIMIT 1000;
END
$fn$;

-- The contents (base64) of the caller's media files named (a JSON array), in order: up to the
-- first not held, and no further than `most` bytes in all (always the first).
CREATE OR REPLACE FUNCTION vocab.anki_media_files(device name, secret text, names_text text, most bigint)
RETURNS TABLE (name text, data text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    names jsonb := names_text::jsonb;
BEGIN
    IF octet_length(names_text) > 65536 OR jsonb_array_length(names) > 100 THEN
        RAISE EXCEPTION 'at most 100 media files at a time';  -- the server asks for fewer
    END IF;
    RETURN QUERY SELECT h.name, encode(f.data, 'base64') FROM (
        SELECT n.name, n.place, m.sha1, m.size,
               sum(m.size) OVER (ORDER BY n.place) - m.size AS before,
               count(m.name) OVER (ORDER BY n.place) AS held
        FROM jsonb_array_elements_text(names) WITH ORDINALITY AS n(name, place)
        LEFT JOIN vocab.anki_media m ON m.owner = me AND m.name = n.name AND m.sha1 <> ''
    ) h JOIN vocab.anki_media_files f ON f.owner = me AND f.sha1 = h.sha1
    WHERE h.held = h.place AND (h.place = 1 OR h.before + h.size <= most)
    ORDER BY h.place;
END
$fn$;

-- Takes what one of the caller's apps sent: a JSON array of {"n": name, "s": SHA-1 ('' for a
-- deletion), "d": content in base64}, at most {{anki_media_bytes}} bytes of content. Each change
-- gets an update number of its own (a file the same as held, or a deletion of one not held,
-- changes nothing); a content no name holds any more is dropped. Returns the latest number.
-- The media, the collection and the account's records together stay within the account's
-- byte cap (SQLSTATE 53400 otherwise, nothing stored).
CREATE OR REPLACE FUNCTION vocab.anki_media_put(device name, secret text, files_text text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    entry record;
    content bytea;
    current bigint;
    was text;
    grown bigint := 0;
    freed bigint;
    byte_cap bigint;
    record_bytes bigint;
    held bigint;
BEGIN
    IF octet_length(files_text) > {{anki_media_bytes}} / 3 * 4 + 65536 THEN
        RAISE EXCEPTION 'media files may hold {{anki_media_bytes}} bytes at a time';  -- the server sends fewer
    END IF;
    PERFORM set_config('lock_timeout', '5s', true);
    INSERT INTO vocab.anki_collections AS c (owner) VALUES (me) ON CONFLICT (owner) DO NOTHING;
    SELECT c.media_usn INTO current FROM vocab.anki_collections c WHERE c.owner = me FOR UPDATE;
    FOR entry IN SELECT * FROM jsonb_to_recordset(files_text::jsonb) AS x(n text, s text, d text) LOOP
        SELECT m.sha1 INTO was FROM vocab.anki_media m WHERE m.owner = me AND m.name = entry.n;
        was := coalesce(was, '');
        CONTINUE WHEN was = entry.s;
        current := current + 1;
        content := CASE WHEN entry.s = '' THEN NULL ELSE decode(entry.d, 'base64') END;
        IF content IS NOT NULL THEN
            INSERT INTO vocab.anki_media_files (owner, sha1, data) VALUES (me, entry.s, content) ON CONFLICT DO NOTHING;
            IF FOUND THEN grown := grown + octet_length(content); END IF;
        END IF;
        INSERT INTO vocab.anki_media AS m (owner, name, sha1, size, usn)
        VALUES (me, entry.n, entry.s, coalesce(octet_length(content), 0), current)
        ON CONFLICT (owner, name) DO UPDATE SET sha1 = excluded.sha1, size = excluded.size, usn = excluded.usn;
        IF was <> '' AND NOT EXISTS (SELECT 1 FROM vocab.anki_media m WHERE m.owner = me AND m.sha1 = was) THEN
            DELETE FROM vocab.anki_media_files f WHERE f.owner = me AND f.sha1 = was RETURNING octet_length(f.data) INTO freed;
            grown := grown - coalesce(freed, 0);
        END IF;
    END LOOP;
    UPDATE vocab.anki_collections c SET media_usn = current, media_bytes = c.media_bytes + grown
    WHERE c.owner = me RETURNING c.bytes + c.media_bytes INTO held;
    SELECT a.max_bytes, a.total_bytes INTO byte_cap, record_bytes FROM vocab.accounts a WHERE a.owner = me;
    IF grown > 0 AND byte_cap IS NOT NULL AND record_bytes + held > byte_cap THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and these media files would make it %', me, byte_cap, record_bytes + held
            USING ERRCODE = '53400', DETAIL = 'bytes ' || byte_cap || ' ' || (record_bytes + held);
    END IF;
    RETURN current;
END
$fn$;

-- Backups of the caller's account (version 12). Keeps `package` (base64: an Anki package of
-- the `word_count` words an upload of a whole collection is about to delete, with their
-- reviews, written by the server) under `backup_id`, at most the account's byte cap (SQLSTATE
-- 53400 otherwise, nothing kept); kept again under the same id, it is replaced (a call the
-- server runs again keeps one). Only the newest {{backups_per_account}} of the account stay.
CREATE OR REPLACE FUNCTION vocab.backup_keep(device name, secret text, backup_id uuid, why text, word_count integer, package text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    me name := vocab.device_learner(device, secret);
    byte_cap bigint;
    content bytea;
BEGIN
    SELECT coalesce(a.max_bytes, {{default_max_bytes}}) INTO byte_cap FROM vocab.accounts a WHERE a.owner = me;
    IF octet_length(package) > byte_cap / 3 * 4 + 65536 OR octet_length(why) > 64 THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and this backup would take more', me, byte_cap
            USING ERRCODE = '53400', DETAIL = 'bytes ' || byte_cap || ' ' || octet_length(package);
    END IF;
    content := decode(package, 'base64');
    IF octet_length(content) > byte_cap THEN
        RAISE EXCEPTION 'the account % may hold % bytes, and this backup would take %', me, byte_cap, octet_length(content)
            USING ERRCODE = '53400', DETAIL = 'bytes ' || byte_cap || ' ' || octet_length(content);
    END IF;
    INSERT INTO vocab.account_backups AS b (owner, id, taken, reason, words, package)
    VALUES (me, backup_id, clock_timestamp(), why, word_count, content)
    ON CONFLICT (owner, id) DO UPDATE SET taken = excluded.taken, reason = excluded.reason, words = excluded.words,
        package = excluded.package;
    DELETE FROM vocab.account_backups b WHERE b.owner = me AND b.id NOT IN (
        SELECT k.id FROM vocab.account_backups k WHERE k.owner = me ORDER BY k.taken DESC, k.id LIMIT {{backups_per_account}});
END
$fn$;

-- The caller's backups, newest first: id, when taken (Unix seconds), why, how many words, bytes.
CREATE OR REPLACE FUNCTION vocab.backups(device name, secret text)
RETURNS TABLE (id uuid, taken bigint, reason text, words integer, bytes integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT b.id, extract(epoch FROM b.taken)::bigint, b.reason, b.words, octet_length(b.package)
        FROM vocab.account_backups b WHERE b.owner = me ORDER BY b.taken DESC, b.id;
END
$fn$;

-- One of the caller's backups' package (base64); no row when he has none of that id.
CREATE OR REPLACE FUNCTION vocab.backup_package(device name, secret text, backup_id uuid) RETURNS TABLE (package text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE me name := vocab.device_learner(device, secret);
BEGIN
    RETURN QUERY SELECT encode(b.package, 'base64') FROM vocab.account_backups b WHERE b.owner = me AND b.id = backup_id;
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
GRANT EXECUTE ON FUNCTION vocab.me(), vocab.device_learner(name, text), vocab.password_verifier(name), vocab.device_room(name),
    vocab.replace_verifier(name, text, text), vocab.legacy_device_verifier(name), vocab.adopt_device_secret(name, text),
    vocab.add_device(name, text, bytea), vocab.my_devices(name, text), vocab.sign_out(name, text, name),
    vocab.push(name, text, bigint, text, boolean, boolean), vocab.push_lines(name, text, bigint, text),
    vocab.pull(name, text, bigint, integer), vocab.counts(name, text),
    vocab.anki_pull(name, text, bigint, bigint, text, text), vocab.anki_push(name, text, bigint, text, text),
    vocab.anki_media_state(name, text), vocab.anki_media_changes(name, text, bigint), vocab.anki_media_files(name, text, text, bigint),
    vocab.anki_media_put(name, text, text), vocab.backup_keep(name, text, uuid, text, integer, text),
    vocab.backups(name, text), vocab.backup_package(name, text, uuid) TO vocab_server;
-- Nothing anyone but an administrator could fill or hold outside an account: no
-- temporary tables in this database, no large objects, no transaction ids on demand.
DO $$ BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END $$;
REVOKE EXECUTE ON FUNCTION pg_catalog.lo_creat(integer), pg_catalog.lo_create(oid), pg_catalog.lo_from_bytea(oid, bytea),
    pg_catalog.lo_import(text), pg_catalog.lo_import(text, oid), pg_catalog.lo_open(oid, integer),
    pg_catalog.lowrite(integer, bytea), pg_catalog.lo_put(oid, bigint, bytea) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.txid_current(), pg_catalog.pg_current_xact_id() FROM PUBLIC;
