import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a server on 127.0.0.1, each read waiting at most a given time: for tests
/// that speak HTTP byte by byte (a request cut short, an answer left unread).
public final class LoopbackConnection {
    private let socket: Int32

    /// Connects to `port`, each read to wait at most `waitSeconds`; nil when nothing accepts there.
    public init?(port: UInt16, waitSeconds: Int = 30) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var timeout = timeval(tv_sec: waitSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        self.socket = socket
    }

    deinit { close(socket) }

    /// Sends `text` whole; whether it went.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return send(bytes: bytes) == bytes.count
    }

    /// Sends `bytes` until all went or the server stopped taking them (it may answer, a 413
    /// say, and close before a large body has gone); how many went.
    @discardableResult
    public func send(bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { break }
            sent += written
        }
        return sent
    }

    /// Up to `most` bytes, as many as have come (empty once the server closed or the wait passed).
    public func receive(most: Int = 64 * 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: most)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Everything until the server closes the connection (or a wait passes with nothing).
    public func receiveAll() -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let part = receive()
            if part.isEmpty { return all }
            all += part
        }
    }

    /// The status of the answer whose first bytes are `bytes` ("HTTP/1.1 200 OK": 200; 0 if none).
    public static func status(_ bytes: [UInt8]) -> Int {
        guard bytes.count > 12 else { return 0 }
        return Int(String(decoding: bytes[9..<12], as: UTF8.self)) ?? 0
    }
}
