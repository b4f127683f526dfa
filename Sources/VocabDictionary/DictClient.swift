import VocabCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A client for DICT servers (RFC 2229), e.g. a local dictd with GCIDE, WordNet or FreeDict
/// dictionaries: connects with a timeout, sends DEFINE, reads the definitions, says QUIT.
public struct DictClient: Sendable {
    public var host: String
    public var port: Int
    /// Seconds allowed for connecting and for each reply.
    public var timeout: Double

    public static let defaultPort = 2628

    public init(host: String, port: Int = DictClient.defaultPort, timeout: Double = 5) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// Parses `HOST` or `HOST:PORT` (and `[IPv6]:PORT`).
    public init(server: String, timeout: Double = 5) throws {
        var host = server, port = DictClient.defaultPort
        if server.hasPrefix("["), let close = server.firstIndex(of: "]") {
            host = String(server[server.index(after: server.startIndex)..<close])
            let rest = server[server.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let value = Int(rest.dropFirst()), (1...65535).contains(value) else { throw DictionaryError.invalidServer(server) }
                port = value
            }
        } else if let colon = server.lastIndex(of: ":"), server.filter({ $0 == ":" }).count == 1 {
            host = String(server[..<colon])
            guard let value = Int(server[server.index(after: colon)...]), (1...65535).contains(value) else {
                throw DictionaryError.invalidServer(server)
            }
            port = value
        }
        guard !host.isEmpty else { throw DictionaryError.invalidServer(server) }
        self.init(host: host, port: port, timeout: timeout)
    }

    /// One definition from one of the server's databases.
    public struct Definition: Sendable, Equatable {
        public var word: String
        public var database: String
        public var databaseDescription: String
        public var text: String
    }

    /// The definitions of `word` in every database (`DEFINE * word`); empty when none matches.
    public func define(_ word: String, database: String = "*") throws -> [Definition] {
        let query = TextRules.trimmingWhiteSpace(word)
        guard !query.isEmpty else { throw DictionaryError.emptyWord }
        let connection = try Connection(host: host, port: port, timeout: timeout)
        defer { connection.close() }
        let banner = try connection.readLine()
        guard banner.hasPrefix("220") else { throw DictionaryError.serverProtocol(String(banner.prefix(80))) }
        try connection.send("CLIENT vocab\r\n")
        _ = try connection.readStatus()
        let quoted = "\"" + query.replacingText("\\", with: "\\\\").replacingText("\"", with: "\\\"") + "\""
        try connection.send("DEFINE \(database) \(quoted)\r\n")
        var definitions: [Definition] = []
        var status = try connection.readStatus()
        if status.code == 552 || status.code == 550 {  // no match / invalid database
            try? connection.send("QUIT\r\n")
            return []
        }
        guard status.code == 150 else { throw DictionaryError.serverProtocol(status.line) }
        while true {
            status = try connection.readStatus()
            if status.code == 250 { break }
            guard status.code == 151 else { throw DictionaryError.serverProtocol(status.line) }
            // 151 "word" database "description"
            let quotedParts = status.line.components(separatedBy: "\"")
            let afterWord = quotedParts.count > 2 ? quotedParts[2].trimmingSpaces() : ""
            let databaseName = afterWord.split(separator: " ").first.map(String.init) ?? ""
            let description = quotedParts.count > 3 ? quotedParts[3] : ""
            var lines: [String] = []
            while true {
                var line = try connection.readLine()
                if line == "." { break }
                if line.hasPrefix("..") { line.removeFirst() }  // dot-stuffing
                lines.append(line)
            }
            definitions.append(Definition(word: quotedParts.count > 1 ? quotedParts[1] : query, database: databaseName,
                                          databaseDescription: description, text: lines.joined(separator: "\n")))
        }
        try? connection.send("QUIT\r\n")
        return definitions
    }
}

/// A TCP connection with timeouts, reading CRLF-terminated lines.
private final class Connection {
    private let socket: Int32
    private let host: String
    private let port: Int
    private var buffer: [UInt8] = []

    init(host: String, port: Int, timeout: Double) throws {
        self.host = host
        self.port = port
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw DictionaryError.serverUnreachable(host: host, port: port, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        var lastError = "no address"
        var address: UnsafeMutablePointer<addrinfo>? = first
        var connected: Int32 = -1
        while let info = address {
            let candidate = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if candidate >= 0 {
                if Connection.connect(candidate, info.pointee.ai_addr, info.pointee.ai_addrlen, timeout: timeout, error: &lastError) {
                    connected = candidate
                    break
                }
                Glibc.close(candidate)
            }
            address = info.pointee.ai_next
        }
        guard connected >= 0 else {
            if lastError == "timed out" { throw DictionaryError.serverTimeout(host: host, port: port) }
            throw DictionaryError.serverUnreachable(host: host, port: port, reason: lastError)
        }
        socket = connected
        var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A non-blocking connect bounded by `timeout`.
    private static func connect(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t,
                                timeout: Double, error: inout String) -> Bool {
        let flags = fcntl(socket, F_GETFL, 0)
        _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(socket, F_SETFL, flags) }
        if Glibc.connect(socket, address, length) == 0 { return true }
        guard errno == EINPROGRESS else { error = String(cString: strerror(errno)); return false }
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(timeout * 1000))
        guard ready > 0 else { error = ready == 0 ? "timed out" : String(cString: strerror(errno)); return false }
        var socketError: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &socketError, &size)
        guard socketError == 0 else { error = String(cString: strerror(socketError)); return false }
        return true
    }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(socket, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw DictionaryError.serverUnreachable(host: host, port: port, reason: String(cString: strerror(errno)))
            }
            offset += sent
        }
    }

    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let got = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw DictionaryError.serverTimeout(host: host, port: port) }
                throw DictionaryError.serverUnreachable(host: host, port: port, reason: String(cString: strerror(errno)))
            }
            if got == 0 { throw DictionaryError.serverProtocol("the connection closed early") }
            buffer += chunk[0..<got]
        }
    }

    func readStatus() throws -> (code: Int, line: String) {
        let line = try readLine()
        guard let code = Int(line.prefix(3)) else { throw DictionaryError.serverProtocol(String(line.prefix(80))) }
        return (code, line)
    }

    func close() { Glibc.close(socket) }
}
