import Foundation
import Synchronization

/// Which browsers may use the server: a device pairs once with a one-time code that the
/// server shows to the person at the machine, and gets a session token (kept in an HttpOnly
/// cookie). A code is good for one device; five wrong tries replace it; tokens live in memory
/// only (the server keeps no credential at rest).
public final class DevicePairing: Sendable {
    private struct State {
        var code: String
        var wrongTries = 0
        var sessions: Set<String> = []
    }

    private let state: Mutex<State>
    /// Told each new code (to show it), on the thread that made it.
    private let announce: @Sendable (String) -> Void

    public init(announce: @escaping @Sendable (String) -> Void) {
        self.announce = announce
        let first = Self.newCode()
        state = Mutex(State(code: first))
        announce(first)
    }

    /// The code a device pairs with now.
    public var code: String { state.withLock { $0.code } }

    /// A session token for a device that gave the right code (and a new code for the next
    /// device); nil for a wrong one (after five wrong tries the code is replaced).
    public func pair(code given: String) -> String? {
        let typed = given.filter(\.isNumber)
        var announced: String?
        let token: String? = state.withLock { state in
            guard Self.sameBytes(typed, state.code) else {
                state.wrongTries += 1
                if state.wrongTries >= 5 {
                    state.code = Self.newCode()
                    state.wrongTries = 0
                    announced = state.code
                }
                return nil
            }
            let token = Self.randomHex(bytes: 32)
            state.sessions.insert(token)
            state.code = Self.newCode()
            state.wrongTries = 0
            announced = state.code
            return token
        }
        if let announced { announce(announced) }
        return token
    }

    /// Whether `token` is a paired device's.
    public func isPaired(_ token: String) -> Bool {
        state.withLock { $0.sessions.contains(token) }
    }

    /// Eight digits from the system's random source.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%08d", Int(generator.next(upperBound: UInt64(100_000_000))))
    }

    /// `bytes` random bytes (the system's source: getrandom), as hex.
    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", Int(generator.next() & 0xFF)) }.joined()
    }

    /// Compares in time that depends on the length only (no early exit on the first difference).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
