import CCurl
import FoundationEssentials
import VocabCore
import VocabCloudAPI

/// A device's HTTP connection to a Vocab server (libcurl: HTTPS, or plain HTTP on this
/// machine only), reused between requests (keep-alive: the batches of one sync share it). One
/// request at a time. Bounded: connect and whole-request time-outs, a stall cut-off, no
/// redirects, answers of at most `maximumAnswerBytes`. Secrets go in headers, never in a URL.
public final class ServerConnection {
    /// An answer: its status, its headers (names in lower case) and its body.
    public struct Answer {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
    }

    /// The server, "https://host[:port]" (or "http://127.0.0.1:port").
    public let base: String
    /// The host and port, as messages name the server.
    public let server: String
    private let handle: UnsafeMutableRawPointer
    private let caFile: String?
    private let timeouts: CloudTimeouts
    static let maximumAnswerBytes = 64 << 20

    /// `url`: the server (any path is dropped); `caFile`: the certificates to trust instead of
    /// the system's (a server with a certificate of its own making).
    public init(url: String, caFile: String? = nil, timeouts: CloudTimeouts = CloudTimeouts()) throws {
        let (base, host) = try Self.parse(url)
        self.base = base
        server = host
        self.caFile = caFile
        self.timeouts = timeouts
        guard vocab_libcurl_available() != 0 else { throw CloudError.libcurlMissing }
        _ = vocab_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard let made = vocab_curl_easy_init() else { throw CloudError.unreachable(server: host, detail: "libcurl could not start") }
        handle = made
    }

    deinit { vocab_curl_easy_cleanup(handle) }

    /// Whether `url` names a Vocab server (http:// or https://) rather than a PostgreSQL one.
    public static func isServerURL(_ url: String) -> Bool {
        url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://")
    }

    /// "https://host[:port]" of `url` and "host[:port]"; plain http only to this machine.
    public static func parse(_ url: String) throws -> (base: String, host: String) {
        let lowered = url.lowercased()
        let secure = lowered.hasPrefix("https://")
        guard secure || lowered.hasPrefix("http://") else { throw CloudError.invalidServerURL(url) }
        let rest = url.dropFirst(secure ? 8 : 7)
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.isEmpty, !authority.contains("@"),
              authority.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) }) else {
            throw CloudError.invalidServerURL(url)
        }
        if !secure {
            let host = ServerAddress.hostAndPort(authority).host.filter { $0 != "[" && $0 != "]" }
            guard ["127.0.0.1", "localhost", "::1"].contains(host.lowercased()) else { throw CloudError.plainHTTPBeyondThisMachine(url) }
        }
        return ((secure ? "https://" : "http://") + authority, authority)
    }

    /// Sends one request (`path` from the server's root, query included) and returns the
    /// answer, whatever its status. Throws `unreachable` when no answer came (the server down,
    /// a certificate not trusted, a time-out).
    public func send(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil) throws -> Answer {
        let easy = handle
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        defer { vocab_curl_slist_free_all(list) }
        for (name, value) in headers { list = vocab_curl_slist_append(list, "\(name): \(value)") }
        list = vocab_curl_slist_append(list, "Expect:")  // no 100-continue round trip before a batch
        _ = vocab_curl_setopt_string(easy, CURLOPT_URL, base + path)
        _ = vocab_curl_setopt_long(easy, CURLOPT_NOBODY, method == "HEAD" ? 1 : 0)
        _ = vocab_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))
        _ = vocab_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = vocab_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = vocab_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = vocab_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT, timeouts.connectSeconds)
        _ = vocab_curl_setopt_long(easy, CURLOPT_TIMEOUT, timeouts.statementSeconds + timeouts.connectSeconds)
        _ = vocab_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        _ = vocab_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile { _ = vocab_curl_setopt_string(easy, CURLOPT_CAINFO, caFile) }
        _ = vocab_curl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, { bytes, size, count, context in
            guard let bytes, let context else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard collector.body.count + length <= ServerConnection.maximumAnswerBytes else { return 0 }  // too big: stop
            collector.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
            return length
        })
        _ = vocab_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = vocab_curl_setopt_callback(easy, CURLOPT_HEADERFUNCTION, { bytes, size, count, context in
            guard let bytes, let context else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: size * count), as: UTF8.self)
            if line.hasPrefix("HTTP/") { collector.headers = [:] }  // a new answer (after an interim one)
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                collector.headers[name] = TextRules.trimmingWhiteSpace(String(line[line.index(after: colon)...]))
            }
            return size * count
        })
        _ = vocab_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        let sent = body ?? []
        let code: CURLcode = sent.withUnsafeBufferPointer { buffer in
            if body != nil || method == "POST" || method == "PUT" {
                _ = vocab_curl_setopt_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(buffer.count))
                _ = vocab_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)))
            } else {
                _ = vocab_curl_setopt_long(easy, CURLOPT_HTTPGET, 1)
            }
            _ = vocab_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)  // the method itself (DELETE, or as set above)
            return vocab_curl_easy_perform(easy)
        }
        // Nothing of this request may linger into the next one's options.
        _ = vocab_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, nil)
        _ = vocab_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, nil)
        guard code == CURLE_OK else {
            let detail = code == CURLE_WRITE_ERROR ? "an answer larger than \(Self.maximumAnswerBytes >> 20) MiB"
                : vocab_curl_easy_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
            throw CloudError.unreachable(server: server, detail: detail)
        }
        var status = 0
        _ = vocab_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return Answer(status: status, headers: collector.headers, body: collector.body)
    }

    private final class Collector {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
    }
}
