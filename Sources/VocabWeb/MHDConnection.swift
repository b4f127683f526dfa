import CMHD
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

// What the server reads of a libmicrohttpd connection and how it answers on it: called on
// libmicrohttpd's own threads only (a connection's values are not to be read elsewhere).

/// Answers a request from its head alone, at once; libmicrohttpd reads none of its body and
/// closes the connection once the answer is sent.
func refuse(_ connection: OpaquePointer, _ response: HTTPResponse, counting metrics: ServerMetrics) -> MHD_Result {
    var answer = response
    answer.headers.append(("Connection", "close"))
    return respond(connection, answer, counting: metrics)
}

/// The request as a handler sees it: the headers it reads, the query, the client's address.
func request(_ connection: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, client: String,
                     body: [UInt8]) -> HTTPRequest {
    var headers: [String: String] = [:]
    for name in ["Host", "Origin", "Cookie", "Content-Type", "X-Vocab-Request", "Accept-Language", "Accept-Encoding", "Referer",
                 "If-None-Match", "X-Vocab-Language", "User-Agent", "Authorization", "anki-sync"] {
        if let value = header(connection, name) { headers[name.lowercased()] = value }
    }
    return HTTPRequest(method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
                       query: arguments(connection), headers: headers, body: body, peer: client)
}

/// Releases a request's state when libmicrohttpd is done with it (answered, or cut off); the
/// connection's next request's head is waited for from now.
let completedHandler: MHD_RequestCompletedCallback = { cls, connection, state, _ in
    if let cls, let connection, let watched = watched(connection) {
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connections.requestEnded(watched)
    }
    guard let state, let stored = state.pointee else { return }
    Unmanaged<Exchange>.fromOpaque(stored).release()
    state.pointee = nil
}

/// A connection opened (watched from now, by its socket and address) or closed (forgotten).
let connectionHandler: MHD_NotifyConnectionCallback = { cls, connection, context, event in
    guard let cls, let connection, let context else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        let watched = ConnectionGuard.Watched(socket: vocab_mhd_connection_fd(connection), address: connectionAddress(connection))
        context.pointee = Unmanaged.passRetained(watched).toOpaque()
        server.connections.opened(watched)
    } else if let kept = context.pointee {
        let watched = Unmanaged<ConnectionGuard.Watched>.fromOpaque(kept)
        server.connections.closed(watched.takeUnretainedValue())
        watched.release()
        context.pointee = nil
    }
}

/// What the server watches of a request's connection.
func watched(_ connection: OpaquePointer) -> ConnectionGuard.Watched? {
    vocab_mhd_socket_context(connection).map { Unmanaged<ConnectionGuard.Watched>.fromOpaque($0).takeUnretainedValue() }
}

/// The address of the machine at the other end of the connection.
func connectionAddress(_ connection: OpaquePointer) -> String {
    var text = [CChar](repeating: 0, count: 64)
    return vocab_mhd_client_address(connection, &text, text.count) == 1
        ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
}

/// The client's address: the connection's; or, when the connection comes from a trusted proxy,
/// the last address in the last X-Forwarded-For header (the one the proxy appended: what the
/// client wrote comes before it).
func clientAddress(_ connection: OpaquePointer, trusting proxies: Set<String>) -> String {
    let peer = connectionAddress(connection)
    guard proxies.contains(peer), let forwarded = headerValues(connection, "X-Forwarded-For").last,
          let last = forwarded.split(separator: ",").last.map({ String($0).trimmingSpaces() }), !last.isEmpty else { return peer }
    return last
}

/// Every value of the header `name` (a header may be sent more than once), in order, 16 at most.
func headerValues(_ connection: OpaquePointer, _ name: String) -> [String] {
    let wanted = name.lowercased()
    var values: [String] = []
    forEachValue(connection, MHD_ValueKind.HEADER_KIND) { key, value in
        if key.lowercased() == wanted, let value, values.count < 16 { values.append(value) }
        return true
    }
    return values
}

/// Each value of `kind` the request carries (its headers, its query's arguments), in order,
/// until `visit` returns false.
func forEachValue(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ visit: (String, String?) -> Bool) {
    withoutActuallyEscaping(visit) { visit in
        final class Box {
            let visit: (String, String?) -> Bool
            init(_ visit: @escaping (String, String?) -> Bool) { self.visit = visit }
        }
        let box = Box(visit)
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return MHD_Result.YES }
            let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
            return box.visit(String(cString: key), value.map { String(cString: $0) }) ? MHD_Result.YES : MHD_Result.NO
        }
        withExtendedLifetime(box) {
            _ = vocab_MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
    }
}

func header(_ connection: OpaquePointer, _ name: String) -> String? {
    vocab_MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
}

/// The query's arguments (the first value of each name), at most 32 of them.
func arguments(_ connection: OpaquePointer) -> [String: String] {
    var values: [String: String] = [:]
    forEachValue(connection, MHD_ValueKind.GET_ARGUMENT_KIND) { name, value in
        guard values.count < 32 else { return false }
        if values[name] == nil { values[name] = value ?? "" }
        return true
    }
    return values
}

/// Queues `response` on the connection; a refusal is counted by its cause.
func respond(_ connection: OpaquePointer, _ response: HTTPResponse, counting metrics: ServerMetrics) -> MHD_Result {
    if let cause = response.refusalCause { metrics.refused(cause: cause) }
    guard let made = response.body.count < HeldBody.smallest ? response.body.withUnsafeBytes({ bytes in
        vocab_MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }) : HeldBody.response(response.body) else { return MHD_Result.NO }
    defer { vocab_MHD_destroy_response(made) }
    for (name, value) in response.headers { _ = vocab_MHD_add_response_header(made, name, value) }
    return vocab_MHD_queue_response(connection, UInt32(response.status), made)
}

/// A large answer's body handed to libmicrohttpd as it is, not copied (a full download of an Anki
/// collection, 7 MiB compressed, was held twice while it was sent), and held until libmicrohttpd
/// lets go of the answer.
private final class HeldBody {
    /// Bodies smaller than this are copied: the copy costs less than holding them.
    static let smallest = 64 * 1024

    /// Never changed while held, so its storage stays where libmicrohttpd reads it.
    let bytes: [UInt8]

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// An answer that reads `bytes` where they are and lets go of them when it is freed.
    static func response(_ bytes: [UInt8]) -> OpaquePointer? {
        let held = Unmanaged.passRetained(HeldBody(bytes))
        let address = held.takeUnretainedValue().bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let made = vocab_MHD_create_response_from_buffer_with_free_callback_cls(bytes.count, address, { held in
            if let held { Unmanaged<HeldBody>.fromOpaque(held).release() }
        }, held.toOpaque())
        if made == nil { held.release() }
        return made
    }
}
