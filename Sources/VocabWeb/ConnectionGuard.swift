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
/// - at most `bodiesPerAddress` requests from one client address whose bodies are being received,
///   holding at most `bodyBytesPerAddress` bytes of them (and everyone `bodyBytesInAll`);
/// - a body must keep coming: past `bodyGraceSeconds`, at `slowestBody` bytes a second on
///   average, or its connection is shut down (a byte now and then does not keep it).
/// A bound of 0 is no bound.
/// A connection refused or cut is shut down (libmicrohttpd then closes it as one whose peer hung
/// up, and says so before it closes the socket, so a socket is never shut down once reused).
final class ConnectionGuard: Sendable {
    /// One open connection, as libmicrohttpd's notifications name it.
    final class Watched: Sendable {
        let socket: Int32
        let address: String
        /// Whether libmicrohttpd said it closes the connection (its socket may be another's after).
        private let closing = Mutex(false)
        init(socket: Int32, address: String) {
            self.socket = socket
            self.address = address
        }

        /// Shuts the connection down, unless it is closing (its socket number may be reused).
        func shutDown() {
            closing.withLock { closing in
                if !closing { Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
            }
        }

        /// From now on it is never shut down: its socket is about to be closed.
        func markClosing() { closing.withLock { $0 = true } }
    }

    struct Bounds: Sendable {
        var perAddress: Int
        var headerSeconds: Int
        var bodiesPerAddress: Int
        var bodyBytesPerAddress: Int
        var bodyBytesInAll: Int
        var bodyGraceSeconds: Int
        var slowestBody: Int
        var exempt: Set<String>
    }

    /// A body being received on a connection: since when, and how many bytes have come.
    private struct Receiving {
        var since: ContinuousClock.Instant
        var received = 0
    }

    private struct Entry {
        let watched: Watched
        /// Since when it waits for a request's head (nil: one is being answered).
        var awaitingSince: ContinuousClock.Instant?
        var receiving: Receiving?
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var bodies: [String: Int] = [:]
        var bodyBytes: [String: Int] = [:]
        var bodyBytesInAll = 0
    }

    let bounds: Bounds
    private let state = Mutex(State())

    init(bounds: Bounds) {
        self.bounds = bounds
    }

    /// Connections open now, and bytes of bodies being received.
    var load: (connections: Int, bodyBytes: Int) { state.withLock { ($0.open.count, $0.bodyBytesInAll) } }

    /// A connection opened; one over its address's bound is shut down at once.
    func opened(_ watched: Watched) {
        state.withLock { state in
            state.open[ObjectIdentifier(watched)] = Entry(watched: watched, awaitingSince: .now)
            let count = (state.perAddress[watched.address] ?? 0) + 1
            state.perAddress[watched.address] = count
            if bounds.perAddress > 0, count > bounds.perAddress, !bounds.exempt.contains(watched.address) {
                watched.shutDown()
            }
        }
    }

    /// A request's head has come: the connection is no longer late whatever the time.
    func requestBegan(_ watched: Watched) {
        state.withLock { $0.open[ObjectIdentifier(watched)]?.awaitingSince = nil }
    }

    /// A request was answered (or cut off): the next one's head is waited for from now.
    func requestEnded(_ watched: Watched) {
        state.withLock { state in
            state.open[ObjectIdentifier(watched)]?.awaitingSince = .now
            state.open[ObjectIdentifier(watched)]?.receiving = nil
        }
    }

    /// The connection's request has a body, coming from now (held to the slowest rate).
    func bodyBegan(_ watched: Watched) {
        state.withLock { $0.open[ObjectIdentifier(watched)]?.receiving = Receiving(since: .now) }
    }

    /// `count` more bytes of its body have come; false when that is slower than the slowest rate.
    func bodyCame(_ watched: Watched, count: Int, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard var receiving = state.open[ObjectIdentifier(watched)]?.receiving else { return true }
            receiving.received += count
            state.open[ObjectIdentifier(watched)]?.receiving = receiving
            return !tooSlow(receiving, now: now)
        }
    }

    /// The body has all come (a worker answers it now): no longer held to a rate.
    func bodyEnded(_ watched: Watched) {
        state.withLock { $0.open[ObjectIdentifier(watched)]?.receiving = nil }
    }

    private func tooSlow(_ receiving: Receiving, now: ContinuousClock.Instant) -> Bool {
        let past = now - receiving.since - .seconds(bounds.bodyGraceSeconds)
        guard bounds.slowestBody > 0, past > .zero else { return false }
        let seconds = Double(past.components.seconds) + Double(past.components.attoseconds) / 1e18
        return Double(receiving.received) < seconds * Double(bounds.slowestBody)
    }

    /// Takes `count` bytes of `address`'s (and everyone's) share of bodies being received;
    /// false, taking nothing, when either would pass its bound.
    func takeBodyBytes(_ count: Int, from address: String) -> Bool {
        state.withLock { state in
            let held = state.bodyBytes[address] ?? 0
            if bounds.bodyBytesPerAddress > 0, !bounds.exempt.contains(address), held + count > bounds.bodyBytesPerAddress { return false }
            if bounds.bodyBytesInAll > 0, state.bodyBytesInAll + count > bounds.bodyBytesInAll { return false }
            state.bodyBytes[address] = held + count
            state.bodyBytesInAll += count
            return true
        }
    }

    func giveBackBodyBytes(_ count: Int, from address: String) {
        guard count > 0 else { return }
        state.withLock { state in
            let left = (state.bodyBytes[address] ?? count) - count
            state.bodyBytes[address] = left > 0 ? left : nil
            state.bodyBytesInAll = max(state.bodyBytesInAll - count, 0)
        }
    }

    /// A connection closed (before its socket is).
    func closed(_ watched: Watched) {
        watched.markClosing()
        state.withLock { state in
            guard state.open.removeValue(forKey: ObjectIdentifier(watched)) != nil else { return }
            let count = (state.perAddress[watched.address] ?? 1) - 1
            state.perAddress[watched.address] = count > 0 ? count : nil
        }
    }

    /// Shuts down the connections whose request's head is later than its bound, or whose body
    /// comes slower than the slowest rate, `most` at a time; how many. They are found under the
    /// lock every connection's events take, and shut down after it (a crowd's thousands, opened
    /// together, are late together: shut down under the lock, they had stalled every learner's
    /// events), and a few at a time, so a wave of them is spread over the timer's next rounds.
    @discardableResult
    func cutLate(now: ContinuousClock.Instant = .now, most: Int = .max) -> Int {
        let late = state.withLock { state in
            var late: [ObjectIdentifier: Watched] = [:]
            for (key, entry) in state.open {
                if late.count == most { break }  // the rest in the next rounds
                let headLate = entry.awaitingSince.map { now - $0 > .seconds(bounds.headerSeconds) } ?? false
                if headLate || entry.receiving.map({ tooSlow($0, now: now) }) ?? false { late[key] = entry.watched }
            }
            for key in late.keys {
                state.open[key]?.awaitingSince = nil  // shut down once; closed soon after
                state.open[key]?.receiving = nil
            }
            return Array(late.values)
        }
        for watched in late { watched.shutDown() }
        return late.count
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
