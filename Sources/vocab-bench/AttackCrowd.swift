import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `web-load --attack`'s crowd (issue 67): `addresses` loopback addresses of their own
/// (127.20.x.y), each holding `perAddress` connections straight at the servers (split between
/// them), each sending a request's head a header line at a time, every 2 s — a connection the
/// server cuts (its head's 10 s are up) opens again at once. What it costs the servers is what
/// the run measures beside the learners.
final class AttackCrowd: @unchecked Sendable {
    private let ports: [Int]
    private let addresses: Int
    private let perAddress: Int
    private let thread: Thread
    private let counts = CrowdCounts()
    /// Connections it opened at first, and how many times one was opened again.
    var open: Int { counts.open.load(ordering: .relaxed) }
    var reopened: Int { counts.reopened.load(ordering: .relaxed) }

    init(ports: [Int], addresses: Int = 100, perAddress: Int = 100) {
        self.ports = ports
        self.addresses = addresses
        self.perAddress = perAddress
        let counts = self.counts
        let plan = (0..<addresses).flatMap { a in (0..<perAddress).map { c in ("127.20.\(a / 250).\(a % 250 + 1)", ports[c % ports.count]) } }
        thread = Thread {
            var sockets = plan.compactMap { address, port in AttackCrowd.connect(from: address, to: port).map { ($0, address, port) } }
            counts.open.store(sockets.count, ordering: .relaxed)
            var round = 0
            while !counts.stopping.load(ordering: .relaxed) {
                round += 1
                for index in sockets.indices {
                    let line = Array("X-Slow-\(round): 1\r\n".utf8)
                    let sent = line.withUnsafeBytes { send(sockets[index].0, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent <= 0 {
                        close(sockets[index].0)
                        if let again = AttackCrowd.connect(from: sockets[index].1, to: sockets[index].2) {
                            sockets[index].0 = again
                            counts.reopened.add(1, ordering: .relaxed)
                        }
                    }
                }
                for _ in 0..<20 where !counts.stopping.load(ordering: .relaxed) { usleep(100_000) }
            }
            sockets.forEach { close($0.0) }
        }
        thread.stackSize = 1 << 20
    }

    func start() { thread.start() }

    func stop() {
        counts.stopping.store(true, ordering: .relaxed)
        while !thread.isFinished { usleep(20_000) }
    }

    /// A connection from `address` to `port` on loopback with a health check's head begun; nil if refused.
    static func connect(from address: String, to port: Int) -> Int32? {
        loopbackConnection(from: address, to: port, sending: "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    }
}

/// What the crowd's thread and the run share.
final class CrowdCounts: Sendable {
    let stopping = Atomic<Bool>(false)
    let open = Atomic<Int>(0)
    let reopened = Atomic<Int>(0)
}

/// A TCP connection from loopback `address` to `port` with `text` sent (and, when given, a
/// receive buffer of `receiveBuffer` bytes: an unread answer then stays in the server's
/// hands, not the kernel's); nil if it could not be made.
func loopbackConnection(from address: String, to port: Int, sending text: String, receiveBuffer: Int32? = nil) -> Int32? {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    if var size = receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, address, &local.sin_addr)
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = UInt16(port).bigEndian
    inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
    let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    let connected = bound == 0 && withUnsafePointer(to: &remote) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
    let bytes = Array(text.utf8)
    guard connected, bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
        close(socket)
        return nil
    }
    return socket
}

/// `web-load --attack`'s slow accounts: each keeps `pushes` pushes of a 2 MiB batch coming at
/// 8 KiB a second (above the slowest rate a server allows, so never cut) and asks pulls of its
/// account (filled with `megabytes` of words) whose answers it never reads.
final class SlowAccounts: @unchecked Sendable {
    private let counts = CrowdCounts()
    private var threads: [Thread] = []
    init(tokens: [String], port: Int, pushes: Int = 3, pulls: Int = 3) {
        let shared = counts
        for (index, token) in tokens.enumerated() {
            let address = "127.21.0.\(index + 1)"
            for _ in 0..<pushes {
                threads.append(Thread {
                    while !shared.stopping.load(ordering: .relaxed) {
                        guard let socket = SlowAccounts.open(from: address, port: port, head: "POST /api/v1/sync/push?token=0&fresh=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                              + "Authorization: Bearer \(token)\r\nContent-Type: application/json\r\nX-Vocab-Request: 1\r\n"
                                                              + "Content-Length: \(2 << 20)\r\n\r\n[") else { usleep(500_000); continue }
                        var sent = 1
                        let chunk = [UInt8](repeating: 0x20, count: 8 << 10)
                        while sent < 2 << 20, !shared.stopping.load(ordering: .relaxed) {
                            guard chunk.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 else { break }
                            sent += chunk.count
                            usleep(1_000_000)
                        }
                        close(socket)
                    }
                })
            }
            for _ in 0..<pulls {
                threads.append(Thread {
                    while !shared.stopping.load(ordering: .relaxed) {
                        // A pull whose answer is never read: held 15 s, then let go and asked again.
                        guard let socket = SlowAccounts.open(from: address, port: port, head: "GET /api/v1/sync/pull?after=0&limit=10000 HTTP/1.1\r\n"
                                                              + "Host: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n") else { usleep(500_000); continue }
                        for _ in 0..<150 where !shared.stopping.load(ordering: .relaxed) { usleep(100_000) }
                        close(socket)
                    }
                })
            }
        }
    }

    func start() { threads.forEach { $0.start() } }

    func stop() {
        counts.stopping.store(true, ordering: .relaxed)
        while threads.contains(where: { !$0.isFinished }) { usleep(20_000) }
    }

    private static func open(from address: String, port: Int, head: String) -> Int32? {
        loopbackConnection(from: address, to: port, sending: head, receiveBuffer: 4096)
    }
}
