import VocabCloudSessions
import VocabWeb

/// Each learner's share of a server of many: `inFlight` of his requests at once; past that,
/// `answer` throws `busy` at once (a 429 with Retry-After, which his devices honour by backing
/// off). What it keeps is this server's alone: no other server needs it. (Letting a few more
/// wait their turn was measured and dropped: DESIGN.md §10.)
final class LearnerTurns: Sendable {
    let inFlight: Int
    private let counts = ShardedDictionary<Int>()
    private let busy: @Sendable () -> Error

    init(inFlight: Int, busy: @escaping @Sendable () -> Error) {
        self.inFlight = inFlight
        self.busy = busy
    }

    /// Answers `body` as one of `owner`'s requests in flight until its answer is sent (or its
    /// connection gone): answers he does not read still count against him, so they never
    /// pile up in the server's memory. Throws `busy` when he has `inFlight` already.
    func answer(for owner: String, _ body: () throws -> HTTPResponse) throws -> HTTPResponse {
        try take(for: owner)
        var response: HTTPResponse
        do {
            response = try body()
        } catch {
            giveBack(for: owner)
            throw error
        }
        let before = response.whenDone
        response.whenDone = { [self] in
            before?()
            giveBack(for: owner)
        }
        return response
    }

    /// Takes one of `owner`'s turns for a request answered elsewhere; returns what gives it back
    /// (call it once, when the answer is sent). Throws `busy` when he has `inFlight` already.
    func turn(for owner: String) throws -> @Sendable () -> Void {
        try take(for: owner)
        return { [self] in giveBack(for: owner) }
    }

    private func take(for owner: String) throws {
        let admitted = counts.withShard(of: owner) { counts in
            guard counts[owner, default: 0] < inFlight else { return false }
            counts[owner, default: 0] += 1
            return true
        }
        guard admitted else { throw busy() }
    }

    private func giveBack(for owner: String) {
        counts.withShard(of: owner) { counts in
            counts[owner, default: 1] -= 1
            if counts[owner] == 0 { counts.removeValue(forKey: owner) }
        }
    }

    /// Learners with a request in flight.
    var learners: Int { counts.count }
}
