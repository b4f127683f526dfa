import CLibPQ
import Foundation

/// Where and as whom to connect; the password is kept apart and never printed.
public struct ServerAddress: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var database: String
    public var user: String

    /// Parses `postgresql://USER@HOST[:PORT]/DATABASE` (or `postgres://`). A password in the URL
    /// is refused, so that it never lands in shell history or process lists.
    public init(url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
              scheme == "postgresql" || scheme == "postgres", let host = components.host, !host.isEmpty,
              components.password == nil else {
            throw CloudError.invalidURL(url)
        }
        self.host = host
        self.port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? "postgres" : path
        self.user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }

    public init(host: String, port: Int, database: String, user: String) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
    }

    /// The URL form, without any password.
    public var url: String { "postgresql://\(user)@\(host):\(port)/\(database)" }

    /// Host and port, for messages.
    public var server: String { "\(host):\(port)" }
}

/// One libpq connection. Parameters are always sent separately from SQL text.
public final class PostgresConnection {
    private let handle: OpaquePointer
    public let address: ServerAddress

    /// Connects; a refusal (wrong password, unknown role) is `accessDenied`, anything else that
    /// keeps the connection from opening is `unreachable`.
    public init(_ address: ServerAddress, password: String?, timeoutSeconds: Int = 5) throws {
        self.address = address
        // Server notices ("... does not exist, skipping") are not for the user's terminal.
        var keys = ["host", "port", "dbname", "user", "connect_timeout", "application_name", "client_encoding", "options"]
        var values = [address.host, String(address.port), address.database, address.user, String(timeoutSeconds), "vocab", "UTF8",
                      "-c client_min_messages=warning"]
        if let password { keys.append("password"); values.append(password) }
        let keyPointers = keys.map { strdup($0) } + [nil]
        let valuePointers = values.map { strdup($0) } + [nil]
        defer { (keyPointers + valuePointers).forEach { free($0) } }
        let connection = keyPointers.withUnsafeBufferPointer { keysBuffer in
            valuePointers.withUnsafeBufferPointer { valuesBuffer -> OpaquePointer? in
                guard let keysBase = keysBuffer.baseAddress, let valuesBase = valuesBuffer.baseAddress else { return nil }
                return PQconnectdbParams(UnsafeRawPointer(keysBase).assumingMemoryBound(to: UnsafePointer<CChar>?.self),
                                         UnsafeRawPointer(valuesBase).assumingMemoryBound(to: UnsafePointer<CChar>?.self), 0)
            }
        }
        guard let connection else { throw CloudError.unreachable(server: address.server, detail: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let detail = PostgresConnection.firstLine(PQerrorMessage(connection))
            PQfinish(connection)
            if PostgresConnection.isAuthenticationFailure(detail) {
                throw CloudError.accessDenied(server: address.server, detail: detail)
            }
            throw CloudError.unreachable(server: address.server, detail: detail)
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// Runs one statement with text parameters (or, without parameters, a script of several);
    /// returns the rows as text (nil for NULL).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        let result = parameters.isEmpty ? PQexec(handle, sql)
            : withParameters(parameters) { PQexecParams(handle, sql, Int32(parameters.count), nil, $0, nil, nil, 0) }
        guard let result else { throw CloudError.serverError(PostgresConnection.firstLine(PQerrorMessage(handle))) }
        defer { PQclear(result) }
        return try rows(of: result)
    }

    /// Sends one statement without waiting for it: the caller does other work while the
    /// server runs it, then must call `awaitResult()` before anything else.
    public func send(_ sql: String) throws {
        guard PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 0) == 1 else {
            throw failure(detail: PostgresConnection.firstLine(PQerrorMessage(handle)))
        }
    }

    /// Runs `COPY … FROM STDIN` (`sql`) with `data`, rows in COPY's text format, and waits
    /// until the server has stored them.
    public func copyIn(_ sql: String, data: [UInt8]) throws {
        guard let started = PQexec(handle, sql) else { throw failure(detail: PostgresConnection.firstLine(PQerrorMessage(handle))) }
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            _ = try rows(of: started)
            throw CloudError.serverError("the server did not start the COPY")
        }
        let sent = data.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 1 }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { PQputCopyData(handle, $0, Int32(buffer.count)) }
        }
        guard sent == 1, PQputCopyEnd(handle, nil) == 1 else {
            throw failure(detail: PostgresConnection.firstLine(PQerrorMessage(handle)))
        }
        try awaitResult()
    }

    /// Waits for the statement `send` started; returns its rows as text.
    @discardableResult
    public func awaitResult() throws -> [[String?]] {
        var rows: [[String?]] = []
        var firstError: Error?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            do {
                rows = try self.rows(of: result)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        if PQstatus(handle) != CONNECTION_OK {
            throw CloudError.unreachable(server: address.server, detail: PostgresConnection.firstLine(PQerrorMessage(handle)))
        }
        return rows
    }

    private func withParameters<T>(_ parameters: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { buffer in
            body(UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: UnsafePointer<CChar>?.self) })
        }
    }

    private func rows(of result: OpaquePointer) throws -> [[String?]] {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return []
        case PGRES_TUPLES_OK:
            let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
            return (0..<rows).map { row in
                (0..<columns).map { column in
                    PQgetisnull(result, Int32(row), Int32(column)) == 1 ? nil
                        : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
                }
            }
        default:
            let detail = PostgresConnection.firstLine(PQresultErrorMessage(result))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            if state == "42501" { throw CloudError.accessDenied(server: address.server, detail: detail) }
            throw failure(detail: detail)
        }
    }

    /// A lost connection is `unreachable`; anything else the server said is `serverError`.
    private func failure(detail: String) -> CloudError {
        PQstatus(handle) != CONNECTION_OK ? .unreachable(server: address.server, detail: detail) : .serverError(detail)
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
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown error"
    }

    private static func isAuthenticationFailure(_ detail: String) -> Bool {
        let lower = detail.lowercased()
        return lower.contains("password authentication failed") || lower.contains("no password supplied")
            || lower.contains("role") && lower.contains("does not exist") || lower.contains("authentication failed")
            || lower.contains("pg_hba.conf")
    }
}
