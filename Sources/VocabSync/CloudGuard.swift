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

    /// One round: finds every Vocab user's session past a bound (one read, whose rows the guard
    /// holds before it ends anything), then ends exactly those, each by its pid and start time
    /// (a pid reused by a new session in between is left alone); returns those it ended.
    ///
    /// `pg_terminate_backend` is never part of the statement that picks offenders: in a `WHERE`
    /// the planner may call it before the filters that choose, on every session of the server.
    public func sweep(on connection: PostgresConnection) throws -> [Ended] {
        let offenders = try connection.execute("""
            SELECT * FROM (SELECT a.pid::text, a.backend_start::text, a.usename::text,
                CASE WHEN a.state LIKE 'idle in transaction%' AND now() - a.state_change > make_interval(secs => $1::int) THEN 'idle'
                     WHEN a.state = 'active' AND now() - a.query_start > make_interval(secs => $2::int) THEN 'statement'
                     WHEN now() - a.xact_start > make_interval(secs => $3::int) THEN 'transaction' END AS reason,
                extract(epoch FROM now() - coalesce(a.xact_start, a.query_start, a.state_change))::bigint::text
            FROM pg_stat_activity a JOIN pg_roles r ON r.rolname = a.usename
            WHERE a.pid <> pg_backend_pid() AND a.backend_type = 'client backend' AND NOT r.rolsuper
              AND r.rolname <> 'vocab_user' AND pg_has_role(r.oid, 'vocab_user', 'MEMBER')) sessions
            WHERE reason IS NOT NULL
            """, [String(idleInTransactionSeconds), String(statementSeconds), String(transactionSeconds)])
        var ended: [Ended] = []
        for row in offenders {
            guard row.count == 5, let pidText = row[0], let pid = Int(pidText), let started = row[1],
                  let reasonText = row[3] else { continue }
            // The function is called in the select list, on the one row the filters kept.
            let terminated = try connection.execute("""
                SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity
                WHERE pid = $1::int AND backend_start = $2::timestamptz AND pid <> pg_backend_pid()
                """, [pidText, started])
            guard terminated.first?.first == "true" else { continue }
            let reason: Ended.Reason = reasonText == "idle" ? .idleInTransaction : reasonText == "statement" ? .longStatement : .longTransaction
            ended.append(Ended(pid: pid, user: row[2] ?? "?", reason: reason, seconds: row[4].flatMap { Int($0) } ?? 0))
        }
        return ended
    }
}
