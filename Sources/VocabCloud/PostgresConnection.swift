import CLibPQ
import FoundationEssentials
import Glibc
import VocabCore
import VocabCloudAPI

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
        let connection = try Self.connect(address, password: password, seconds: timeouts.connectSeconds)
        vocab_PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        // Server notices ("... does not exist, skipping") are not for the user's terminal.
        vocab_PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { vocab_PQfinish(handle) }

    /// Opens a connection to the first of the address's hosts that takes it. Polled, libpq
    /// gives up on no host by itself: a host that takes the connection and then never answers
    /// (its machine gone, its server stopped) would use the whole wait and leave the next host
    /// untried. So the hosts after the one the wait ran out on are tried next, each with a
    /// whole wait of its own (as libpq's own connect_timeout does).
    private static func connect(_ address: ServerAddress, password: String?, seconds: Int) throws -> OpaquePointer {
        var nodes = address.nodes
        while true {
            switch try open(nodes, address, password: password, seconds: seconds) {
            case .opened(let connection):
                return connection
            case .timedOut(let stuck):
                guard let index = nodes.firstIndex(of: stuck), index + 1 < nodes.count else {
                    throw CloudError.unreachable(server: address.server, detail: "no answer within \(seconds) s")
                }
                nodes = Array(nodes[(index + 1)...])
            }
        }
    }

    /// How a try at `nodes` ended: a connection open, or the wait run out on one of them.
    private enum Attempt {
        case opened(OpaquePointer)
        case timedOut(on: ServerAddress.HostAndPort)
    }

    /// Tries `nodes` in order (libpq moves on by itself from a host that refuses, fails or is
    /// not what `target_session_attrs` asks) for at most `seconds`; a refused login (SQLSTATE
    /// 28P01 or 28000) is `accessDenied`, any other failure `unreachable`.
    private static func open(_ nodes: [ServerAddress.HostAndPort], _ address: ServerAddress, password: String?, seconds: Int) throws -> Attempt {
        var keys = ["host", "port", "dbname", "user", "application_name", "client_encoding"]
        var values = [nodes.map(\.host).joined(separator: ","), nodes.map { String($0.port) }.joined(separator: ","),
                      address.database, address.user, "vocab", "UTF8"]
        if let attributes = address.targetSessionAttributes { keys.append("target_session_attrs"); values.append(attributes) }
        for (key, value) in address.tls.sorted(by: { $0.key < $1.key }) { keys.append(key); values.append(value) }
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
        let deadline = ContinuousClock.now + .seconds(seconds)
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED {
            guard wait(for: vocab_PQsocket(connection), reading: state == PGRES_POLLING_READING, until: deadline) else {
                // The host libpq was on when the wait ran out.
                let host = vocab_PQhost(connection).map { String(cString: $0) } ?? ""
                let port = vocab_PQport(connection).flatMap { Int(String(cString: $0)) } ?? 0
                vocab_PQfinish(connection)
                return .timedOut(on: ServerAddress.HostAndPort(host: host, port: port))
            }
            state = vocab_PQconnectPoll(connection)
        }
        guard vocab_PQstatus(connection) == CONNECTION_OK else {
            let message = vocab_PQerrorMessage(connection).map { String(cString: $0) } ?? ""
            vocab_PQfinish(connection)
            let (code, detail) = sqlState(in: message)
            if code == "28P01" || code == "28000" || isPoolerLoginRefusal(code: code, detail: detail) {
                throw CloudError.accessDenied(server: address.server, detail: detail)
            }
            throw CloudError.unreachable(server: address.server, detail: detail)
        }
        return .opened(connection)
    }

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
            if state == "53400" || state == "54000" {
                let values = vocab_PQresultErrorField(result, Int32(UInt8(ascii: "D"))).map { String(cString: $0) } ?? ""
                throw CloudError.quotaExceeded(CloudLimit(detail: values))
            }
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
