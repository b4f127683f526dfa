import Foundation

/// The server side of Vocab: one schema, row-level security so that each database role sees
/// and changes only its own rows, and a role that every Vocab user is a member of.
public enum CloudSchema {
    /// The group role every Vocab user belongs to.
    public static let userGroup = "vocab_user"
    public static let version = 1

    /// Idempotent: running it again changes nothing (and upgrades an older schema).
    static let installSQL = """
        DO $$ BEGIN
            CREATE ROLE vocab_user NOLOGIN;
        EXCEPTION WHEN duplicate_object THEN NULL;
        END $$;
        CREATE SCHEMA IF NOT EXISTS vocab;
        CREATE SEQUENCE IF NOT EXISTS vocab.change_seq;
        -- Books, words, reviews and deletions of every user, one row per object. `seq` orders a
        -- user's changes: writes of one user are serialised (advisory lock) so that sequence
        -- values commit in order and a reader's token never skips a row committed late.
        CREATE TABLE IF NOT EXISTS vocab.records (
            owner   name NOT NULL DEFAULT current_user,
            kind    text NOT NULL CHECK (kind IN ('book', 'word', 'review')),
            id      uuid NOT NULL,
            seq     bigint NOT NULL,
            deleted boolean NOT NULL DEFAULT false,
            body    jsonb NOT NULL,
            PRIMARY KEY (owner, kind, id)
        );
        CREATE INDEX IF NOT EXISTS records_by_owner_seq ON vocab.records (owner, seq);
        CREATE TABLE IF NOT EXISTS vocab.meta (key text PRIMARY KEY, value text NOT NULL);
        INSERT INTO vocab.meta VALUES ('schema_version', '1') ON CONFLICT (key) DO NOTHING;
        ALTER TABLE vocab.records ENABLE ROW LEVEL SECURITY;
        ALTER TABLE vocab.records FORCE ROW LEVEL SECURITY;
        DROP POLICY IF EXISTS own_rows ON vocab.records;
        CREATE POLICY own_rows ON vocab.records
            USING (owner = current_user) WITH CHECK (owner = current_user);
        REVOKE ALL ON SCHEMA vocab FROM PUBLIC;
        REVOKE ALL ON ALL TABLES IN SCHEMA vocab FROM PUBLIC;
        GRANT USAGE ON SCHEMA vocab TO vocab_user;
        GRANT SELECT, INSERT, UPDATE, DELETE ON vocab.records TO vocab_user;
        GRANT SELECT ON vocab.meta TO vocab_user;
        GRANT USAGE ON SEQUENCE vocab.change_seq TO vocab_user;
        """

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
        }
    }
}
