-- Shared books' functions and policies (version 8): run at every install and upgrade, after
-- `functions.sql`.
ALTER TABLE vocab.shares ENABLE ROW LEVEL SECURITY;
ALTER TABLE vocab.follows ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS own_shares ON vocab.shares;
CREATE POLICY own_shares ON vocab.shares USING (owner = vocab.me());
DROP POLICY IF EXISTS own_follows ON vocab.follows;
CREATE POLICY own_follows ON vocab.follows USING (follower = vocab.me());

-- The name a sharer is shown by, with a mark of his account no other account has: six
-- characters of a salted SHA-256 of the owner's name, so that a stranger may copy a name
-- ("Ms. Kim"), never its mark, and the mark tells nobody the owner's name. No name, no mark.
INSERT INTO vocab.meta (key, value) VALUES ('sharer_salt', gen_random_uuid()::text) ON CONFLICT (key) DO NOTHING;
CREATE OR REPLACE FUNCTION vocab.sharer_shown(sharer text, owner name) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT CASE WHEN sharer = '' THEN '' ELSE sharer || ' #' || upper(left(encode(sha256(convert_to(
        (SELECT m.value FROM vocab.meta m WHERE m.key = 'sharer_salt') || ' ' || owner, 'UTF8')), 'hex'), 6)) END
$fn$;
REVOKE ALL ON FUNCTION vocab.sharer_shown(text, name) FROM PUBLIC;

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
    IF live > {{words_per_book}} THEN
        RAISE EXCEPTION 'a shared book may hold {{words_per_book}} words, and this one holds %', live USING ERRCODE = 'VS005';
    END IF;
    SELECT * INTO current FROM vocab.shares s WHERE s.owner = me AND s.book = book_id AND s.ended IS NULL FOR UPDATE;
    IF current.id IS NULL THEN
        IF (SELECT count(*) FROM vocab.shares s WHERE s.owner = me AND s.ended IS NULL) >= {{shares_per_learner}} THEN
            RAISE EXCEPTION 'a learner may share {{shares_per_learner}} books at once' USING ERRCODE = 'VS006';
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
    RETURN QUERY SELECT current.id, current.code, current.listed, vocab.sharer_shown(current.sharer, current.owner), current.languages, current.title,
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
    RETURN QUERY SELECT s.id, s.book, s.code, s.listed, vocab.sharer_shown(s.sharer, s.owner), s.languages, s.title, s.words, s.followers
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
            WHERE f.follower = me AND s.ended IS NULL) >= {{follows_per_learner}} THEN
            RAISE EXCEPTION 'a learner may follow {{follows_per_learner}} books at once' USING ERRCODE = 'VS007';
        END IF;
        INSERT INTO vocab.follows (follower, share) VALUES (me, found.id);
        UPDATE vocab.shares s SET followers = s.followers + 1 WHERE s.id = found.id;
    END IF;
    RETURN QUERY SELECT found.id, found.book, found.title, vocab.sharer_shown(found.sharer, found.owner), found.words;
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
    RETURN QUERY SELECT found.title, vocab.sharer_shown(found.sharer, found.owner), found.words, found.followers, found.owner = me,
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
    SELECT s.id, s.owner, s.book, coalesce(b.body->>'name', s.title), vocab.sharer_shown(s.sharer, s.owner), s.ended IS NOT NULL OR coalesce(b.deleted, true),
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
    RETURN QUERY SELECT s.id, s.code, s.title, vocab.sharer_shown(s.sharer, s.owner), s.languages, s.words, s.followers, s.created
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
