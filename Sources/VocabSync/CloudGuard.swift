import FoundationEssentials

/// The bounds no Vocab user can lift, enforced with the administrator's rights: a user may set
/// his own time-outs to nothing (a role may change its own settings), but the guard ends any
/// session of a Vocab user that sits idle in a transaction, runs one statement, or holds one
/// transaction (and with it a snapshot that stops VACUUM) longer than its bound. Administrators'
/// sessions are never touched.
public struct CloudGuard: Sendable {
    public var idleInTransactionSeconds = 10
    public var statementSeconds = 30
    public var transactionSeconds = 60

    public init() {}

    /// A session the guard ended, and why.
    public struct Ended: Equatable, Sendable {
        public enum Reason: String, Sendable { case idleInTransaction = "idle in a transaction", longStatement = "one statement", longTransaction = "one transaction" }
        public var pid: Int
        public var user: String
        public var reason: Reason
        public var seconds: Int
    }

    /// One round: ends every Vocab user's session past a bound; returns them.
    public func sweep(on connection: PostgresConnection) throws -> [Ended] {
        try connection.execute("""
            WITH offenders AS (
                SELECT a.pid, a.usename::text AS usename,
                    CASE WHEN a.state LIKE 'idle in transaction%' AND now() - a.state_change > make_interval(secs => $1::int) THEN 'idle'
                         WHEN a.state = 'active' AND now() - a.query_start > make_interval(secs => $2::int) THEN 'statement'
                         WHEN now() - a.xact_start > make_interval(secs => $3::int) THEN 'transaction' END AS reason,
                    extract(epoch FROM now() - coalesce(a.xact_start, a.query_start, a.state_change))::bigint AS seconds
                FROM pg_stat_activity a JOIN pg_roles r ON r.rolname = a.usename
                WHERE a.pid <> pg_backend_pid() AND a.backend_type = 'client backend' AND NOT r.rolsuper
                  AND r.rolname <> 'vocab_user' AND pg_has_role(r.oid, 'vocab_user', 'MEMBER')
            )
            SELECT pid::text, usename, reason, seconds::text FROM offenders
            WHERE reason IS NOT NULL AND pg_terminate_backend(pid)
            """, [String(idleInTransactionSeconds), String(statementSeconds), String(transactionSeconds)]).compactMap { row in
            guard row.count == 4, let pid = row[0].flatMap({ Int($0) }) else { return nil }
            let reason: Ended.Reason = row[2] == "idle" ? .idleInTransaction : row[2] == "statement" ? .longStatement : .longTransaction
            return Ended(pid: pid, user: row[1] ?? "?", reason: reason, seconds: row[3].flatMap { Int($0) } ?? 0)
        }
    }
}
