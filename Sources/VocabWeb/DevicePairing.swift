import FoundationEssentials
import Synchronization
import VocabCore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// Which browsers may use the server: a device pairs once with a one-time code that the
/// server shows to the person at the machine, and gets a 256-bit token (kept in an HttpOnly
/// cookie). A code is good for one device; five wrong tries replace it. The server keeps only
/// each token's SHA-256 (in `devicesFile`, private to the user, when given), so a paired phone
/// stays paired across a restart and nothing on disk lets anyone sign in.
public final class DevicePairing: Sendable {
    private struct State {
        var code: String
        var wrongTries = 0
        /// The hashes of the paired devices' tokens.
        var devices: Set<String> = []
        /// Tokens seen lately, with their hashes (in memory only: hashing every request cost a
        /// tenth of a request's time); at most `verifiedLimit`.
        var verified: [String: String] = [:]
    }

    private static let verifiedLimit = 1024

    private let state: Mutex<State>
    /// Told each new code (to show it), on the thread that made it.
    private let announce: @Sendable (String) -> Void
    private let devicesFile: String?

    public init(devicesFile: String? = nil, announce: @escaping @Sendable (String) -> Void) {
        self.announce = announce
        self.devicesFile = devicesFile
        let first = Self.newCode()
        var known = Set<String>()
        if let devicesFile, let text = try? String(contentsOfFile: devicesFile, encoding: .utf8) {  // none yet: no device paired
            known = Set(text.split(separator: "\n").map(String.init).filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        }
        state = Mutex(State(code: first, devices: known))
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
            guard Secrets.sameBytes(Array(typed.utf8), Array(state.code.utf8)) else {
                state.wrongTries += 1
                if state.wrongTries >= 5 {
                    state.code = Self.newCode()
                    state.wrongTries = 0
                    announced = state.code
                }
                return nil
            }
            let token = Secrets.randomHex(bytes: 32)
            state.devices.insert(SHA256.hex(Array(token.utf8)))
            save(state.devices)
            state.code = Self.newCode()
            state.wrongTries = 0
            announced = state.code
            return token
        }
        if let announced { announce(announced) }
        return token
    }

    /// Whether `token` is a paired device's.
    public func isPaired(_ token: String) -> Bool { device(token) != nil }

    /// The paired device `token` belongs to (its hash: what the server may keep), or nil.
    public func device(_ token: String) -> String? {
        if let known = state.withLock({ $0.verified[token] }) { return known }
        let hash = SHA256.hex(Array(token.utf8))
        return state.withLock { state in
            guard state.devices.contains(hash) else { return nil }
            if state.verified.count >= Self.verifiedLimit { state.verified.removeAll() }
            state.verified[token] = hash
            return hash
        }
    }

    /// Writes the hashes, private to the user (0600 from creation), replacing the file whole.
    private func save(_ devices: Set<String>) {
        guard let devicesFile else { return }
        do {
            try AtomicFile.replace(devicesFile, permissions: 0o600, with: Array((devices.sorted().joined(separator: "\n") + "\n").utf8))
        } catch {
            // Not written: the device stays paired until the server stops.
        }
    }

    /// Eight digits from the system's random source.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return CFormat.string("%08d", Int(generator.next(upperBound: UInt64(100_000_000))))
    }

}
