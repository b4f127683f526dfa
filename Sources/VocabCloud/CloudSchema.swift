import FoundationEssentials
import VocabCloudAPI

/// The cloud's side of Vocab: one schema in PostgreSQL that only Vocab servers (the role
/// `vocab_server`) and administrators reach. Learners are rows with a password verifier,
/// devices rows with their secret's SHA-256 (the schema's SQL is in `SQL/`: see `installSQL`).
public enum CloudSchema {
    /// The one database role of the server tier.
    public static let serverRole = "vocab_server"
    /// The schema this Vocab speaks; `vocab cloud init` installs it, servers refuse others.
    public static let version = 12
    /// What a new account may hold until an administrator says otherwise: records (books,
    /// words, reviews, deletions) and the bytes they take. The cloud's SQL is made with these.
    public static let defaultMaxRecords = 500_000
    public static let defaultMaxBytes = 256 << 20

    /// Caps what `name` may hold: `records` (books, words, reviews, deletions) and, when given,
    /// `bytes`; nil removes a cap. Waits at most a few seconds for the user's account row (the
    /// user may hold it): then names who holds it.
    public static func setLimit(_ name: String, records: Int?, bytes: Int?? = .none, on connection: PostgresConnection) throws {
        try withShortLocks(on: connection) {
            // Inside the short wait too: behind a lock on the whole table, even this read waited
            // the statement's 60 s (issue 68's untested promise, found when tested).
            try requireLearner(name, on: connection)
            try connection.execute("UPDATE vocab.accounts SET max_records = $2::bigint WHERE owner = $1", [name, records.map(String.init)])
            if case .some(let bytes) = bytes {
                try connection.execute("UPDATE vocab.accounts SET max_bytes = $2::bigint WHERE owner = $1", [name, bytes.map(String.init)])
            }
        }
    }

    /// Caps the records `name` may hold; nil removes the cap.
    public static func setRecordLimit(_ name: String, to limit: Int?, on connection: PostgresConnection) throws {
        try setLimit(name, records: limit, on: connection)
    }

    /// Installs or upgrades the schema with an administrator's connection: on a database
    /// without Vocab's tables, makes them; on an older cloud, runs the numbered steps from its
    /// version to this one; then replaces the functions, policies and grants. A cloud already
    /// up to date (the same SQL installed) is left alone: no table is locked. A newer cloud is
    /// refused (this Vocab must be updated), and nothing changes. An upgrade waits at most a
    /// few seconds for each lock (syncs queue behind a waiting upgrade), then names the
    /// sessions that hold it; it is one transaction, so a failed one changes nothing.
    /// Upgrading a cloud of learner roles (version 5) reads their password verifiers, which
    /// only a superuser may.
    @discardableResult
    public static func install(on connection: PostgresConnection) throws -> SchemaInstall {
        let fingerprint = try connection.execute("SELECT md5($1)", [try installSQL]).first?.first ?? nil
        if try installedVersion(on: connection) == version,
           try connection.execute("SELECT value FROM vocab.meta WHERE key = 'install_md5'").first?.first == fingerprint {
            return .upToDate(version: version)
        }
        let superuser = try connection.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").first?.first == "t"
        guard superuser else { throw CloudError.administratorNeeded(connection.address.user) }
        var outcome = SchemaInstall.installed(version: version)
        try withShortLocks(on: connection) {
            // One install at a time; the version is read again under the lock.
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('vocab install'))")
            let found = try installedVersion(on: connection)
            if let found, found > version {
                throw CloudError.schemaTooNew(server: connection.address.server, found: found, known: version)
            }
            _ = try connection.execute(try roleSQL)
            for step in try tableSteps(from: found) { _ = try connection.execute(step) }
            if let found { outcome = found == version ? .refreshed(version: version) : .upgraded(from: found, to: version) }
            _ = try connection.execute(try functionsSQL)
            try connection.execute("""
                INSERT INTO vocab.meta VALUES ('schema_version', $1), ('install_md5', $2)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, [String(version), fingerprint])
        }
        return outcome
    }

    /// What `install` did.
    public typealias SchemaInstall = VocabCloudAPI.SchemaInstall

    /// The version of the cloud's schema `connection` reaches; nil when it has no Vocab tables
    /// (0 when it has some but never said which version).
    static func installedVersion(on connection: PostgresConnection) throws -> Int? {
        guard try connection.execute("SELECT to_regclass('vocab.records') IS NOT NULL").first?.first == "t" else { return nil }
        guard try connection.execute("SELECT to_regclass('vocab.meta') IS NOT NULL").first?.first == "t" else { return 0 }
        let text = try connection.execute("SELECT value FROM vocab.meta WHERE key = 'schema_version'").first?.first ?? nil
        return text.flatMap { Int($0) } ?? 0
    }

    /// Throws unless the cloud `connection` reaches holds the schema this Vocab speaks (older:
    /// an administrator must upgrade it; newer: this Vocab must be updated).
    public static func requireThisVersion(on connection: PostgresConnection) throws {
        let found = try installedVersion(on: connection) ?? 0
        if found < version { throw CloudError.schemaTooOld(server: connection.address.server, found: found, needed: version) }
        if found > version { throw CloudError.schemaTooNew(server: connection.address.server, found: found, known: version) }
    }

    /// Whether the server tier's role may log in (it has a password).
    public static func serverCanLogIn(on connection: PostgresConnection) throws -> Bool {
        try connection.execute("SELECT rolcanlogin FROM pg_roles WHERE rolname = $1", [serverRole]).first?.first == "t"
    }

    /// Sets the password the Vocab servers log in to PostgreSQL with (the role `vocab_server`,
    /// made by `install`), and lets the role log in.
    public static func setServerPassword(_ password: String, on connection: PostgresConnection) throws {
        guard !password.isEmpty else { throw CloudError.emptyPassword }
        let quoted = try connection.execute("SELECT quote_literal($1)", [password]).first?.first ?? nil
        guard let quoted else { throw CloudError.serverError("could not quote the password") }
        try connection.execute("ALTER ROLE \(serverRole) LOGIN PASSWORD \(quoted)")
    }

    /// Runs `body` in a transaction whose locks are waited for at most 3 s; when one is not
    /// granted, throws `blocked` naming the sessions holding locks on Vocab's tables.
    static func withShortLocks(on connection: PostgresConnection, _ body: () throws -> Void) throws {
        do {
            try connection.transaction {
                try connection.execute("SET LOCAL lock_timeout = '3s'")
                try body()
            }
        } catch CloudError.lockNotAvailable {
            throw CloudError.blocked(by: try blockers(on: connection))
        }
    }

    /// The other sessions holding locks on Vocab's tables (or their rows), longest first.
    static func blockers(on connection: PostgresConnection) throws -> [BlockingSession] {
        try connection.execute("""
            SELECT DISTINCT a.pid::text, a.usename::text, a.state,
                   extract(epoch FROM now() - coalesce(a.xact_start, a.backend_start))::bigint::text
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.granted AND l.pid <> pg_backend_pid() AND l.relation IN (
                SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'vocab')
            ORDER BY 4 DESC
            """).compactMap { row in
            guard row.count == 4, let pid = row[0].flatMap({ Int($0) }) else { return nil }
            return BlockingSession(pid: pid, user: row[1] ?? "?", state: row[2] ?? "?", seconds: row[3].flatMap { Int($0) } ?? 0)
        }
    }

    /// Makes a learner who can sign in with `password` (or gives an existing one a new
    /// password: the learner's devices stay signed in). The password is kept as Argon2id.
    public static func addUser(_ name: String, password: String, on connection: PostgresConnection) throws {
        guard UserName.isValid(name) else { throw CloudError.invalidUserName(name) }
        guard !password.isEmpty else { throw CloudError.emptyPassword }
        let verifier = try PasswordVerifier.make(password)
        try connection.transaction {
            try connection.execute("SELECT vocab.open_account($1)", [name])
            try connection.execute("UPDATE vocab.accounts SET verifier = $2 WHERE owner = $1", [name, verifier])
        }
    }

    /// Throws when the cloud has no learner `name`.
    static func requireLearner(_ name: String, on connection: PostgresConnection) throws {
        guard try !connection.execute("SELECT 1 FROM vocab.accounts WHERE owner = $1", [name]).isEmpty else {
            throw CloudError.serverError("there is no user \(name)")
        }
    }
}
