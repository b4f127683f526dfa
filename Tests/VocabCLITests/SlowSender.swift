import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client that sends a POST's head and then its body a byte at a time, as slowly as it
/// likes: a slow phone, or someone holding the server's connections on purpose.
final class SlowSender {
    private let descriptor: Int32

    /// Connects to `port` on loopback from `source` (another loopback address is another
    /// client's) and sends the head (announcing `length` bytes) and the body's first byte.
    convenience init(port: Int, from source: String = "127.0.0.1", path: String, headers: [String] = [], length: Int) throws {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nX-Vocab-Request: 1\r\n"
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(length)\r\n\r\n["
        try self.init(port: port, from: source, sending: head)
    }

    /// Connects to `port` on loopback from `source` and sends `text` (a head, or part of one).
    init(port: Int, from source: String = "127.0.0.1", sending text: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            close(descriptor)
            throw POSIXError(.EPIPE)
        }
    }

    deinit { close(descriptor) }

    /// Sends one more byte of the body; false once the connection is closed.
    @discardableResult
    func sendByte() -> Bool {
        send(" ")
    }

    /// Sends `text` (one more header line, say); false once the connection is closed.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends the body as fast as the server takes it, up to `total` bytes, until the server
    /// closes the connection; returns how many bytes were sent. (A send that blocks 30 s gives up:
    /// a guard against a test that hangs, not a bound it checks.)
    func sendFast(upTo total: Int) -> Int {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let chunk = [UInt8](repeating: 0x20, count: 64 * 1024)
        var sent = 0
        while sent < total {
            let count = chunk.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, min($0.count, total - sent), Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    /// The status the server answered with within `seconds`, nil if none came (or the
    /// connection was closed without one).
    func status(waitingAtMost seconds: Double) -> Int? {
        guard let text = received(waitingAtMost: seconds), text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// Whether the server closed the connection without answering, seen within `seconds`.
    func closedUnanswered(waitingAtMost seconds: Double) -> Bool {
        received(waitingAtMost: seconds) == ""
    }

    /// What the server sent within `seconds`: nil if nothing came, "" if it closed the connection.
    private func received(waitingAtMost seconds: Double) -> String? {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count <= 0 ? "" : String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
