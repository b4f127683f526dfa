import FoundationEssentials
import VocabCore

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
    /// libpq's TLS parameters given in the URL (`sslmode=verify-full`, `sslrootcert=FILE`, …),
    /// by name; libpq's own defaults (and PGSSLMODE, …) for the others. Not part of `url`: the
    /// account is the same whatever protects the way to it.
    public var tls: [String: String] = [:]

    /// The TLS parameters libpq takes in a URL, and the modes `sslmode` may name.
    public static let tlsParameters: Set<String> = ["sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl"]
    public static let tlsModes: Set<String> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// One node of a multi-host address.
    public struct HostAndPort: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// The values libpq takes for `target_session_attrs`.
    public static let sessionAttributes: Set<String> = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"]

    /// The form `parse` takes, as help shows it (`user`: the role it names): several hosts for
    /// a primary and its standbys, and only the one that takes writes.
    public static func form(user: String = "USER") -> String {
        "postgresql://\(user)@HOST[:PORT][,HOST[:PORT]...]/DATABASE[?target_session_attrs=read-write&sslmode=verify-full&sslrootcert=FILE]"
    }

    /// Parses `postgresql://USER@HOST[:PORT][,HOST[:PORT]…]/DATABASE[?target_session_attrs=…]`
    /// (or `postgres://`): libpq's own form, several hosts for a primary and its standbys, and
    /// libpq's TLS parameters (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`, `sslcrl`). A
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
            guard pair.count == 2, let value = PercentEncoding.decode(pair[1]), !value.isEmpty else { throw CloudError.invalidURL(url) }
            if pair[0] == "target_session_attrs", Self.sessionAttributes.contains(value) {
                targetSessionAttributes = value
            } else if Self.tlsParameters.contains(pair[0]), pair[0] != "sslmode" || Self.tlsModes.contains(value), tls[pair[0]] == nil {
                tls[pair[0]] = value
            } else {
                throw CloudError.invalidURL(url)
            }
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
    package static func hostAndPort(_ authority: String) -> (host: String, port: Int?) {
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
