import Foundation

/// The server side of Vocab: one schema, row-level security so that each database role sees
/// and changes only its own rows, and a role that every Vocab user is a member of.
public enum CloudSchema {
    /// The group role every Vocab user belongs to.
    public static let userGroup = "vocab_user"
    /// The schema this Vocab speaks; `vocab cloud init` installs it, clients refuse others.
    public static let version = 3

    /// Idempotent: running it again changes nothing (and upgrades an older schema).
    ///
    /// Users only read: SELECT on their own rows (row-level security). Every write goes through
    /// `vocab.push`, a SECURITY DEFINER function with a pinned search_path that acts on the
    /// caller's rows alone and serialises one user's writes with a lock on the user's own row
    /// of `vocab.accounts` — a lock no other user can take or wait on. Users hold no privilege
    /// that can lock a shared table against others (LOCK TABLE beyond ACCESS SHARE needs
    /// UPDATE, DELETE or TRUNCATE; SELECT … FOR UPDATE needs UPDATE), and no advisory lock is
    /// used. Nothing outlives a transaction, so it works through a transaction pooler.
    static let installSQL = """
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
        INSERT INTO vocab.accounts (owner) SELECT DISTINCT owner FROM vocab.records ON CONFLICT (owner) DO NOTHING;
        UPDATE vocab.accounts a SET
            live_books = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'book' AND NOT r.deleted),
            live_words = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'word' AND NOT r.deleted),
            live_reviews = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner AND r.kind = 'review' AND NOT r.deleted),
            total_records = (SELECT count(*) FROM vocab.records r WHERE r.owner = a.owner);
        CREATE TABLE IF NOT EXISTS vocab.meta (key text PRIMARY KEY, value text NOT NULL);
        INSERT INTO vocab.meta VALUES ('schema_version', '3') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
        ALTER TABLE vocab.records ENABLE ROW LEVEL SECURITY;
        ALTER TABLE vocab.records FORCE ROW LEVEL SECURITY;
        DROP POLICY IF EXISTS own_rows ON vocab.records;
        CREATE POLICY own_rows ON vocab.records
            USING (owner = session_user) WITH CHECK (owner = session_user);
        ALTER TABLE vocab.accounts ENABLE ROW LEVEL SECURITY;
        DROP POLICY IF EXISTS own_account ON vocab.accounts;
        CREATE POLICY own_account ON vocab.accounts USING (owner = session_user);

        -- Stores a batch of the caller's records (a JSON array of {"k","i","d","b"}) if the
        -- caller's latest seq is still `expected`; returns the new latest seq, or NULL when
        -- another device pushed first (pull, then push again). `fresh`: the account had no
        -- rows, so a plain insert (cheaper; a conflict is an error and the client retries).
        CREATE OR REPLACE FUNCTION vocab.push(expected bigint, batch jsonb, fresh boolean) RETURNS bigint
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
        DECLARE
            me name := session_user;
            cap bigint;
            latest bigint;
            total bigint;
            before_live record;
            after_live record;
            added bigint;
        BEGIN
            IF NOT pg_has_role(me, 'vocab_user', 'MEMBER') THEN
                RAISE EXCEPTION 'not a Vocab user' USING ERRCODE = '42501';
            END IF;
            INSERT INTO vocab.accounts (owner) VALUES (me) ON CONFLICT (owner) DO NOTHING;
            SELECT a.max_records INTO cap FROM vocab.accounts a WHERE a.owner = me FOR UPDATE;
            SELECT coalesce(max(r.seq), 0) INTO latest FROM vocab.records r WHERE r.owner = me;
            IF latest <> expected THEN
                RETURN NULL;
            END IF;
            IF fresh THEN
                INSERT INTO vocab.records (owner, kind, id, seq, deleted, body)
                SELECT me, x.k, x.i, nextval('vocab.change_seq'), x.d, x.b
                FROM jsonb_to_recordset(batch) AS x(k text, i uuid, d boolean, b jsonb);
                SELECT 0::bigint AS books, 0::bigint AS words, 0::bigint AS reviews, 0::bigint AS existing INTO before_live;
                SELECT count(*) FILTER (WHERE x.k = 'book' AND NOT x.d) AS books,
                       count(*) FILTER (WHERE x.k = 'word' AND NOT x.d) AS words,
                       count(*) FILTER (WHERE x.k = 'review' AND NOT x.d) AS reviews
                INTO after_live FROM jsonb_to_recordset(batch) AS x(k text, d boolean);
            ELSE
                -- The batch's records as they were, to keep the live counters in step.
                SELECT count(*) FILTER (WHERE r.kind = 'book' AND NOT r.deleted) AS books,
                       count(*) FILTER (WHERE r.kind = 'word' AND NOT r.deleted) AS words,
                       count(*) FILTER (WHERE r.kind = 'review' AND NOT r.deleted) AS reviews,
                       count(*) AS existing
                INTO before_live
                FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
                JOIN vocab.records r ON r.owner = me AND r.kind = x.k AND r.id = x.i;
                -- A deletion sticks, and a deleted record keeps its last known fields plus what
                -- the deletion says (a folded book's mergedInto).
                INSERT INTO vocab.records AS r (owner, kind, id, seq, deleted, body)
                SELECT me, x.k, x.i, nextval('vocab.change_seq'), x.d, x.b
                FROM jsonb_to_recordset(batch) AS x(k text, i uuid, d boolean, b jsonb)
                ON CONFLICT (owner, kind, id) DO UPDATE SET seq = excluded.seq,
                    deleted = r.deleted OR excluded.deleted,
                    body = CASE WHEN excluded.deleted THEN r.body || excluded.body ELSE excluded.body END;
                SELECT count(*) FILTER (WHERE r.kind = 'book' AND NOT r.deleted) AS books,
                       count(*) FILTER (WHERE r.kind = 'word' AND NOT r.deleted) AS words,
                       count(*) FILTER (WHERE r.kind = 'review' AND NOT r.deleted) AS reviews
                INTO after_live
                FROM jsonb_to_recordset(batch) AS x(k text, i uuid)
                JOIN vocab.records r ON r.owner = me AND r.kind = x.k AND r.id = x.i;
            END IF;
            added := jsonb_array_length(batch) - before_live.existing;
            UPDATE vocab.accounts a SET
                live_books = a.live_books + after_live.books - before_live.books,
                live_words = a.live_words + after_live.words - before_live.words,
                live_reviews = a.live_reviews + after_live.reviews - before_live.reviews,
                total_records = a.total_records + added
            WHERE a.owner = me
            RETURNING a.total_records INTO total;
            IF cap IS NOT NULL THEN
                IF total > cap THEN
                    RAISE EXCEPTION 'the account % may hold % records, and this push would make it %', me, cap, total
                        USING ERRCODE = '53400';
                END IF;
            END IF;
            RETURN (SELECT max(r.seq) FROM vocab.records r WHERE r.owner = me);
        END
        $fn$;

        -- The caller's live counts, for the check that ends every sync.
        DROP FUNCTION IF EXISTS vocab.counts();
        -- With the latest seq they hold (one snapshot): counts are comparable only with a device
        -- that has pulled exactly that far.
        CREATE FUNCTION vocab.counts() RETURNS TABLE (books bigint, words bigint, reviews bigint, latest bigint)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
            SELECT a.live_books, a.live_words, a.live_reviews,
                   (SELECT coalesce(max(r.seq), 0) FROM vocab.records r WHERE r.owner = session_user)
            FROM vocab.accounts a WHERE a.owner = session_user
        $fn$;

        REVOKE ALL ON SCHEMA vocab FROM PUBLIC;
        REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM PUBLIC;
        REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM vocab_user;
        REVOKE ALL ON SEQUENCE vocab.change_seq FROM vocab_user;
        REVOKE ALL ON FUNCTION vocab.push(bigint, jsonb, boolean) FROM PUBLIC;
        REVOKE ALL ON FUNCTION vocab.counts() FROM PUBLIC;
        GRANT USAGE ON SCHEMA vocab TO vocab_user;
        GRANT SELECT ON vocab.records TO vocab_user;
        GRANT SELECT ON vocab.meta TO vocab_user;
        GRANT EXECUTE ON FUNCTION vocab.push(bigint, jsonb, boolean) TO vocab_user;
        GRANT EXECUTE ON FUNCTION vocab.counts() TO vocab_user;
        """

    /// `addUser`, returning the new user's login on the administrator's server.
    public static func addUserReturningLogin(_ name: String, password: String, admin: PostgresConnection,
                                             base: ServerAddress) throws -> CloudLogin {
        try addUser(name, password: password, on: admin)
        var address = base
        address.user = name
        return CloudLogin(address: address, password: password)
    }

    /// Caps the records (books, words, reviews, deletions) `name` may hold; nil removes the cap.
    public static func setRecordLimit(_ name: String, to limit: Int?, on connection: PostgresConnection) throws {
        guard try !connection.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [name]).isEmpty else {
            throw CloudError.serverError("there is no user \(name)")
        }
        try connection.execute("""
            INSERT INTO vocab.accounts (owner, max_records) VALUES ($1, $2::bigint)
            ON CONFLICT (owner) DO UPDATE SET max_records = excluded.max_records
            """, [name, limit.map(String.init)])
    }

    /// Installs or upgrades the schema with an administrator's connection.
    public static func install(on connection: PostgresConnection) throws {
        try connection.transaction {
            _ = try connection.execute(installSQL)
        }
    }

    /// Creates a user who can log in and sync (or sets a new password for an existing one).
    public static func addUser(_ name: String, password: String, on connection: PostgresConnection) throws {
        guard name.range(of: "^[A-Za-z][A-Za-z0-9_]{0,62}$", options: .regularExpression) != nil else {
            throw CloudError.invalidRoleName(name)
        }
        guard !password.isEmpty else { throw CloudError.emptyPassword }
        // Role names cannot be parameters; the name is checked above. The password is a literal
        // built by the server's own quoting function, so no text of ours is spliced in.
        let quoted = try connection.execute("SELECT quote_literal($1)", [password]).first?.first ?? nil
        guard let quoted else { throw CloudError.serverError("could not quote the password") }
        let exists = try connection.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [name]).isEmpty == false
        try connection.transaction {
            if exists {
                try connection.execute("ALTER ROLE \"\(name)\" LOGIN PASSWORD \(quoted)")
            } else {
                try connection.execute("CREATE ROLE \"\(name)\" LOGIN PASSWORD \(quoted) IN ROLE vocab_user")
            }
            try connection.execute("GRANT vocab_user TO \"\(name)\"")
            // Bounded waits on the server too: no statement, lock or idle transaction of this
            // user holds anything for long, whatever the client does.
            try connection.execute("ALTER ROLE \"\(name)\" SET statement_timeout = '120s'")
            try connection.execute("ALTER ROLE \"\(name)\" SET lock_timeout = '30s'")
            try connection.execute("ALTER ROLE \"\(name)\" SET idle_in_transaction_session_timeout = '120s'")
        }
    }
}
