import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The server's watch over its open connections, by the address each comes from, so that one
/// stranger with one address cannot hold what everyone needs:
/// - at most `perAddress` connections from one address (a proxy's own addresses are exempt: its
///   clients are told apart by the address it forwards);
/// - a request's whole head must come within `headerSeconds` of the connection's opening or of
///   the end of the request before (a byte now and then does not reset it, as it resets the idle
///   bound); a connection past it is shut down;
/// - at most `bodiesPerAddress` requests from one client address whose bodies are being received.
/// A bound of 0 is no bound.
/// A connection refused or cut is shut down (libmicrohttpd then closes it as one whose peer hung
/// up, and says so before it closes the socket, so a socket is never shut down once reused).
final class ConnectionGuard: Sendable {
    /// One open connection, as libmicrohttpd's notifications name it.
    final class Watched: Sendable {
        let socket: Int32
        let address: String
        init(socket: Int32, address: String) {
            self.socket = socket
            self.address = address
        }
    }

    struct Bounds: Sendable {
        var perAddress: Int
        var headerSeconds: Int
        var bodiesPerAddress: Int
        var exempt: Set<String>
    }

    private struct State {
        /// The open connections, and since when each waits for a request's head (nil: one is being answered).
        var open: [ObjectIdentifier: (watched: Watched, awaitingSince: ContinuousClock.Instant?)] = [:]
        var perAddress: [String: Int] = [:]
        var bodies: [String: Int] = [:]
    }

    let bounds: Bounds
    private let state = Mutex(State())

    init(bounds: Bounds) {
        self.bounds = bounds
    }

    /// A connection opened; one over its address's bound is shut down at once.
    func opened(_ watched: Watched) {
        state.withLock { state in
            state.open[ObjectIdentifier(watched)] = (watched, .now)
            let count = (state.perAddress[watched.address] ?? 0) + 1
            state.perAddress[watched.address] = count
            if bounds.perAddress > 0, count > bounds.perAddress, !bounds.exempt.contains(watched.address) {
                shutdown(watched.socket, Int32(SHUT_RDWR))
            }
        }
    }

    /// A request's head has come: the connection is no longer late whatever the time.
    func requestBegan(_ watched: Watched) {
        state.withLock { $0.open[ObjectIdentifier(watched)]?.awaitingSince = nil }
    }

    /// A request was answered (or cut off): the next one's head is waited for from now.
    func requestEnded(_ watched: Watched) {
        state.withLock { $0.open[ObjectIdentifier(watched)]?.awaitingSince = .now }
    }

    /// A connection closed (before its socket is).
    func closed(_ watched: Watched) {
        state.withLock { state in
            guard state.open.removeValue(forKey: ObjectIdentifier(watched)) != nil else { return }
            let count = (state.perAddress[watched.address] ?? 1) - 1
            state.perAddress[watched.address] = count > 0 ? count : nil
        }
    }

    /// Shuts down the connections whose request's head is later than its bound; how many.
    @discardableResult
    func cutLate(now: ContinuousClock.Instant = .now) -> Int {
        state.withLock { state in
            var cut = 0
            for (key, entry) in state.open {
                guard let since = entry.awaitingSince, now - since > .seconds(bounds.headerSeconds) else { continue }
                shutdown(entry.watched.socket, Int32(SHUT_RDWR))
                state.open[key]?.awaitingSince = nil  // shut down once; closed soon after
                cut += 1
            }
            return cut
        }
    }

    /// Takes one of `address`'s places for a body being received; false when it has them all.
    func takeBody(from address: String) -> Bool {
        state.withLock { state in
            let count = state.bodies[address] ?? 0
            guard bounds.bodiesPerAddress <= 0 || count < bounds.bodiesPerAddress else { return false }
            state.bodies[address] = count + 1
            return true
        }
    }

    func giveBackBody(from address: String) {
        state.withLock { state in
            let count = (state.bodies[address] ?? 1) - 1
            state.bodies[address] = count > 0 ? count : nil
        }
    }
}
