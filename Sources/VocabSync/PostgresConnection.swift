import VocabCore
import CLibPQ
import FoundationEssentials
import Glibc

/// Where and as whom to connect; the password is kept apart and never printed.
public struct ServerAddress: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var database: String
    public var user: String
    /// A Vocab server's address ("https://host[:port]") when the account is reached through
    /// one (then `database` is empty); nil for PostgreSQL itself.
    public var web: String?
    /// The other nodes of a cloud with a standby, after `host`:`port`, tried in order by libpq
    /// (`postgresql://u@db1:5432,db2:5432/vocab`).
    public var otherHosts: [HostAndPort] = []
    /// libpq's `target_session_attrs` ("read-write": only the primary will do), when given.
    public var targetSessionAttributes: String?

    /// One node of a multi-host address.
    public struct HostAndPort: Sendable, Equatable {
        public var host: String
        public var port: Int
    }

    /// The values libpq takes for `target_session_attrs`.
    public static let sessionAttributes: Set<String> = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"]

    /// Parses `postgresql://USER@HOST[:PORT][,HOST[:PORT]…]/DATABASE[?target_session_attrs=…]`
    /// (or `postgres://`): libpq's own form, several hosts for a primary and its standbys. A
    /// password in the URL is refused, so that it never lands in shell history or process
    /// lists; so is any other parameter (nothing is silently ignored).
    public init(url: String) throws {
        let lowered = url.lowercased()
        guard let scheme = ["postgresql://", "postgres://"].first(where: { lowered.hasPrefix($0) }) else { throw CloudError.invalidURL(url) }
        var rest = Substring(url.dropFirst(scheme.count))
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).drop { $0 == "/" }
        var hostList = authority
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard !userInfo.contains(":"), !userInfo.isEmpty else { throw CloudError.invalidURL(url) }  // no password here
            guard let decoded = PercentEncoding.decode(String(userInfo)) else { throw CloudError.invalidURL(url) }
            user = decoded
            hostList = authority[authority.index(after: at)...]
        }
        var nodes: [HostAndPort] = []
        for part in hostList.split(separator: ",", omittingEmptySubsequences: false) {
            let (host, port) = Self.hostAndPort(String(part))
            let bare = host.filter { $0 != "[" && $0 != "]" }
            guard !bare.isEmpty, bare.allSatisfy({ $0.isLetter || $0.isNumber || ".-_:".contains($0) }),
                  part.count == host.count || port != nil, (port ?? 5432) > 0, (port ?? 5432) < 65_536 else {
                throw CloudError.invalidURL(url)
            }
            nodes.append(HostAndPort(host: bare, port: port ?? 5432))
        }
        guard let first = nodes.first, !path.contains("/") else { throw CloudError.invalidURL(url) }
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0] == "target_session_attrs", Self.sessionAttributes.contains(pair[1]) else {
                throw CloudError.invalidURL(url)
            }
            targetSessionAttributes = pair[1]
        }
        host = first.host
        port = first.port
        otherHosts = Array(nodes.dropFirst())
        guard let name = PercentEncoding.decode(String(path)) else { throw CloudError.invalidURL(url) }
        database = name.isEmpty ? "postgres" : name
        self.user = user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }

    public init(host: String, port: Int, database: String, user: String) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
    }

    /// The URL form, without any password (a Vocab server's: its address and the user).
    public var url: String {
        if let web { return web + "/" + user }
        return "postgresql://\(user)@\(server)/\(database)" + (targetSessionAttributes.map { "?target_session_attrs=\($0)" } ?? "")
    }

    /// Every node, the first one first.
    public var nodes: [HostAndPort] { [HostAndPort(host: host, port: port)] + otherHosts }

    /// The address of `user` on the Vocab server `web` ("https://host[:port]").
    public init(web: String, user: String) {
        let authority = web.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? web
        let (host, port) = Self.hostAndPort(authority)
        self.host = host
        self.port = port ?? (web.lowercased().hasPrefix("https://") ? 443 : 80)
        database = ""
        self.user = user
        self.web = web
    }

    /// The host (an IPv6 address keeps its brackets) and the port, when one is given, of "host[:port]".
    static func hostAndPort(_ authority: String) -> (host: String, port: Int?) {
        let hostEnd = authority.hasPrefix("[") ? authority.firstIndex(of: "]").map { authority.index(after: $0) } ?? authority.endIndex
            : authority.firstIndex(of: ":") ?? authority.endIndex
        return (String(authority[..<hostEnd]), Int(authority[hostEnd...].dropFirst()))
    }

    /// Host and port (each node's, for a cloud with standbys), for messages.
    public var server: String { nodes.map { $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\($0.host):\($0.port)" }.joined(separator: ",") }
}

/// How long the cloud may keep Vocab waiting. Every wait is bounded: connecting, each
/// statement (the client gives up, cancels it and says so), and on the server each lock.
public struct CloudTimeouts: Sendable, Equatable {
    public var connectSeconds: Int
    public var statementSeconds: Int
    public var lockSeconds: Int

    public init(connectSeconds: Int = 10, statementSeconds: Int = 60, lockSeconds: Int = 15) {
        self.connectSeconds = connectSeconds
        self.statementSeconds = statementSeconds
        self.lockSeconds = lockSeconds
    }

    /// The defaults, or `VOCAB_CLOUD_TIMEOUT` seconds for statements (connect and lock waits
    /// never longer than that).
    public static func from(environment: [String: String]) -> CloudTimeouts {
        guard let text = environment["VOCAB_CLOUD_TIMEOUT"], let seconds = Int(text), seconds > 0 else { return CloudTimeouts() }
        return CloudTimeouts(connectSeconds: min(10, seconds), statementSeconds: seconds, lockSeconds: min(15, seconds))
    }
}

/// One libpq connection. Parameters are always sent separately from SQL text. Every wait for
/// the server is bounded by `timeouts`; nothing outlives a transaction on the server (no
/// session settings, temporary tables or named statements), so it works through a
/// transaction-pooling PgBouncer.
public final class PostgresConnection {
    private let handle: OpaquePointer
    public let address: ServerAddress
    public let timeouts: CloudTimeouts

    /// Connects; a refused login (SQLSTATE 28P01 or 28000: wrong password, unknown role, no
    /// entry in pg_hba.conf) is `accessDenied`, anything else that keeps the connection from
    /// opening in time is `unreachable`.
    public init(_ address: ServerAddress, password: String?, timeouts: CloudTimeouts = CloudTimeouts()) throws {
        self.address = address
        self.timeouts = timeouts
        // libpq is loaded on first use (not by every command): without it, say so.
        guard vocab_libpq_available() == 1 else { throw CloudError.libpqMissing }
        var keys = ["host", "port", "dbname", "user", "application_name", "client_encoding"]
        var values = [address.nodes.map(\.host).joined(separator: ","), address.nodes.map { String($0.port) }.joined(separator: ","),
                      address.database, address.user, "vocab", "UTF8"]
        if let attributes = address.targetSessionAttributes { keys.append("target_session_attrs"); values.append(attributes) }
        if let password { keys.append("password"); values.append(password) }
        let keyPointers = keys.map { strdup($0) } + [nil]
        let valuePointers = values.map { strdup($0) } + [nil]
        defer { (keyPointers + valuePointers).forEach { free($0) } }
        let connection = keyPointers.withUnsafeBufferPointer { keysBuffer in
            valuePointers.withUnsafeBufferPointer { valuesBuffer -> OpaquePointer? in
                guard let keysBase = keysBuffer.baseAddress, let valuesBase = valuesBuffer.baseAddress else { return nil }
                return vocab_PQconnectStartParams(UnsafeRawPointer(keysBase).assumingMemoryBound(to: UnsafePointer<CChar>?.self),
                                            UnsafeRawPointer(valuesBase).assumingMemoryBound(to: UnsafePointer<CChar>?.self), 0)
            }
        }
        guard let connection else { throw CloudError.unreachable(server: address.server, detail: "out of memory") }
        // Verbose errors carry the SQLSTATE ("FATAL:  28P01: …"): logins are judged by code, not by wording.
        vocab_PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        let deadline = ContinuousClock.now + .seconds(timeouts.connectSeconds)
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED {
            guard PostgresConnection.wait(for: vocab_PQsocket(connection), reading: state == PGRES_POLLING_READING, until: deadline) else {
                vocab_PQfinish(connection)
                throw CloudError.unreachable(server: address.server, detail: "no answer within \(timeouts.connectSeconds) s")
            }
            state = vocab_PQconnectPoll(connection)
        }
        guard vocab_PQstatus(connection) == CONNECTION_OK else {
            let message = vocab_PQerrorMessage(connection).map { String(cString: $0) } ?? ""
            vocab_PQfinish(connection)
            let (code, detail) = PostgresConnection.sqlState(in: message)
            if code == "28P01" || code == "28000" || PostgresConnection.isPoolerLoginRefusal(code: code, detail: detail) {
                throw CloudError.accessDenied(server: address.server, detail: detail)
            }
            throw CloudError.unreachable(server: address.server, detail: detail)
        }
        vocab_PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        // Server notices ("... does not exist, skipping") are not for the user's terminal.
        vocab_PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { vocab_PQfinish(handle) }

    /// Runs one statement with text parameters (or, without parameters, a script of several);
    /// returns the rows as text (nil for NULL).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try start(sql, parameters, scriptAllowed: true)
        return try awaitResult()
    }

    /// `execute`, waiting at most `seconds` (less than the connection's bound) for the answer.
    public func execute(_ sql: String, _ parameters: [String?] = [], within seconds: Int) throws -> [[String?]] {
        try start(sql, parameters, scriptAllowed: false)
        return try awaitResult(within: seconds)
    }

    /// Sends one statement without waiting for it: the caller does other work while the
    /// server runs it, then must call `awaitResult()` before anything else.
    public func send(_ sql: String, _ parameters: [String?] = []) throws {
        try start(sql, parameters, scriptAllowed: false)
    }

    /// Sends `sql`: with parameters, or as a script of several statements when allowed and
    /// there are none (PQsendQuery), else as one statement (PQsendQueryParams).
    private func start(_ sql: String, _ parameters: [String?], scriptAllowed: Bool) throws {
        let sent: Int32
        if parameters.isEmpty && scriptAllowed {
            sent = vocab_PQsendQuery(handle, sql)
        } else {
            sent = withParameters(parameters) { vocab_PQsendQueryParams(handle, sql, Int32(parameters.count), nil, $0, nil, nil, 0) }
        }
        guard sent == 1 else { throw failure(detail: PostgresConnection.firstLine(vocab_PQerrorMessage(handle))) }
    }

    /// Waits (at most `timeouts.statementSeconds`) for the statement `send` started; returns
    /// its rows as text. On time out the statement is cancelled and `timedOut` thrown.
    @discardableResult
    public func awaitResult(within seconds: Int? = nil) throws -> [[String?]] {
        var rows: [[String?]] = []
        var firstError: Error?
        while true {
            try waitUntilReady(seconds: seconds.map { min($0, timeouts.statementSeconds) } ?? timeouts.statementSeconds)
            guard let result = vocab_PQgetResult(handle) else { break }
            defer { vocab_PQclear(result) }
            do {
                rows = try self.rows(of: result)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        if vocab_PQstatus(handle) != CONNECTION_OK {
            throw CloudError.unreachable(server: address.server, detail: PostgresConnection.firstLine(vocab_PQerrorMessage(handle)))
        }
        return rows
    }

    /// Reads from the server until a whole result is there, or the statement's time is up.
    private func waitUntilReady(seconds: Int) throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while vocab_PQisBusy(handle) == 1 {
            guard PostgresConnection.wait(for: vocab_PQsocket(handle), reading: true, until: deadline) else {
                cancelRunningStatement()
                throw CloudError.timedOut(server: address.server, seconds: seconds)
            }
            guard vocab_PQconsumeInput(handle) == 1 else {
                throw CloudError.unreachable(server: address.server, detail: PostgresConnection.firstLine(vocab_PQerrorMessage(handle)))
            }
        }
    }

    /// Asks the server to stop the statement, and drops what it still sends.
    private func cancelRunningStatement() {
        if let cancel = vocab_PQgetCancel(handle) {
            var buffer = [CChar](repeating: 0, count: 256)
            _ = vocab_PQcancel(cancel, &buffer, Int32(buffer.count))
            vocab_PQfreeCancel(cancel)
        }
        // Give the server a moment to end the statement; a connection still busy is dropped.
        let deadline = ContinuousClock.now + .seconds(2)
        while vocab_PQisBusy(handle) == 1, PostgresConnection.wait(for: vocab_PQsocket(handle), reading: true, until: deadline),
              vocab_PQconsumeInput(handle) == 1 {}
        while vocab_PQisBusy(handle) == 0, let result = vocab_PQgetResult(handle) { vocab_PQclear(result) }
    }

    /// Waits until the socket is ready (or the deadline passes: false).
    private static func wait(for socket: Int32, reading: Bool, until deadline: ContinuousClock.Instant) -> Bool {
        guard socket >= 0 else { return true }  // libpq reports the failure on the next call
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            var descriptor = pollfd(fd: socket, events: Int16(reading ? POLLIN : POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }

    /// PgBouncer refuses a login with 08P01 (its code for every protocol error) and these words:
    /// an unknown user, or a wrong password or device secret.
    static func isPoolerLoginRefusal(code: String?, detail: String) -> Bool {
        code == "08P01" && ["no such user", "authentication failed", "auth failed"].contains { detail.contains($0) }
    }

    /// The SQLSTATE and first line of a verbose libpq message ("…failed: FATAL:  28P01: password…").
    static func sqlState(in message: String) -> (code: String?, detail: String) {
        let firstLine = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
        guard let match = firstLine.firstMatch(of: #/(FATAL|ERROR|PANIC):  [0-9A-Z]{5}: /#)?.range else {
            return (nil, firstLine.trimmingSpaces())
        }
        let codeStart = firstLine.index(match.upperBound, offsetBy: -7)
        let code = String(firstLine[codeStart..<firstLine.index(codeStart, offsetBy: 5)])
        var detail = firstLine
        detail.removeSubrange(firstLine.index(match.upperBound, offsetBy: -7)..<match.upperBound)
        return (code, detail.trimmingSpaces())
    }

    private func withParameters<T>(_ parameters: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { buffer in
            body(UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: UnsafePointer<CChar>?.self) })
        }
    }

    private func rows(of result: OpaquePointer) throws -> [[String?]] {
        switch vocab_PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return []
        case PGRES_TUPLES_OK:
            let rows = Int(vocab_PQntuples(result)), columns = Int(vocab_PQnfields(result))
            return (0..<rows).map { row in
                (0..<columns).map { column in
                    vocab_PQgetisnull(result, Int32(row), Int32(column)) == 1 ? nil
                        : String(cString: vocab_PQgetvalue(result, Int32(row), Int32(column)))
                }
            }
        default:
            let detail = PostgresConnection.firstLine(vocab_PQresultErrorMessage(result))
            let state = vocab_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            if state == "42501" { throw CloudError.accessDenied(server: address.server, detail: detail) }
            if state == "55P03" { throw CloudError.lockNotAvailable(detail) }
            // vocab.push's refusals: an account's cap (53400), a record or batch over its bound (54000).
            if state == "53400" || state == "54000" { throw CloudError.quotaExceeded(detail: detail) }
            if let refusal = ShareRefusal(sqlState: state) { throw CloudError.shareRefused(refusal) }
            // A node that is no longer the primary (read-only now, shutting down, starting as a
            // standby): the cloud is between nodes, which a new connection will find.
            if Self.betweenNodes.contains(state) { throw CloudError.unreachable(server: address.server, detail: detail) }
            throw failure(detail: detail)
        }
    }

    /// SQLSTATEs of a node that cannot take the cloud's writes now: a read-only transaction
    /// (a standby, or a primary turned standby), an administrator's or a crash's shutdown, a
    /// node starting up.
    static let betweenNodes: Set<String> = ["25006", "57P01", "57P02", "57P03"]

    /// A lost connection is `unreachable`; anything else the server said is `serverError`.
    private func failure(detail: String) -> CloudError {
        vocab_PQstatus(handle) != CONNECTION_OK ? .unreachable(server: address.server, detail: detail) : .serverError(detail)
    }

    /// The SCRAM-SHA-256 verifier of `secret` (salted and hashed here, by libpq: the secret
    /// itself never goes to the server).
    public func scramVerifier(of secret: String) throws -> String {
        guard let made = vocab_PQencryptPasswordConn(handle, secret, address.user, "scram-sha-256") else {
            throw failure(detail: PostgresConnection.firstLine(vocab_PQerrorMessage(handle)))
        }
        defer { vocab_PQfreemem(made) }
        return String(cString: made)
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private static func firstLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        let text = TextRules.trimmingWhiteSpace(String(cString: message))
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown error"
    }
}
