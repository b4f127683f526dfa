import Dispatch
import Synchronization
import VocabCloud
import VocabCloudAPI
import VocabSystem

/// The Vocab server's few connections to the cloud, as the server tier's one role, shared by
/// every request of every learner (a learner is a row the functions take, never a
/// connection). A request waits a bounded time for one, shared fairly among learners
/// (`FairShares`: a few learners waiting on their own locks cannot hold them all); a connection that failed is closed
/// and made again by the next request. Nothing outlives a statement's transaction, so a
/// transaction pooler (PgBouncer) may stand between.
final class CloudConnections: @unchecked Sendable {
    let address: ServerAddress
    private let password: String?
    private let timeouts: CloudTimeouts
    /// At most `capacity` connections lent at once, fairly among learners.
    private let shares: FairShares
    /// Connections not lent now: touched only with `lock` held.
    private var idle: [PostgresConnection] = []
    private let lock = ThreadCondition()
    /// Connections lent now (and to how many learners), and requests waiting for one.
    var lent: (places: Int, learners: Int, waiting: Int) { shares.lent }
    /// Connections closed because the cloud broke them, since start.
    var lost: Int { lostCount.load(ordering: .relaxed) }
    private let lostCount = Atomic<Int>(0)
    /// How long a request waits for a connection before it is answered "busy".
    static let waitSeconds = 10

    /// `password` nil: libpq's own (PGPASSWORD, ~/.pgpass, or none where pg_hba trusts).
    init(address: ServerAddress, password: String?, timeouts: CloudTimeouts, capacity: Int) {
        self.address = address
        self.password = password
        self.timeouts = timeouts
        shares = FairShares(capacity: capacity, keptForQuick: capacity / 4)
    }

    /// Runs `body` with a connection of the pool (made when none is idle), for `learner` (nil:
    /// a request whose learner is not known yet; `bulk`: bulk work, which never holds the last
    /// quarter of the connections). A connection lost meanwhile (the cloud restarted, a pooler
    /// ended it) is closed, not lent again.
    func with<T>(for learner: String?, bulk: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard shares.take(for: learner, bulk: bulk, waitingAtMost: Double(Self.waitSeconds)) else {
            throw CloudError.timedOut(server: address.server, seconds: Self.waitSeconds)
        }
        defer { shares.giveBack(for: learner, bulk: bulk) }
        let connection = try lock.withLock { idle.popLast() } ?? PostgresConnection(address, password: password, timeouts: timeouts)
        do {
            let result = try body(connection)
            lock.withLock { idle.append(connection) }
            return result
        } catch let error as CloudError {
            switch error {
            case .unreachable, .timedOut: lostCount.add(1, ordering: .relaxed)  // not lent again: it may be in any state
            case .serverError, .cancelled: break  // not lent again either
            default: lock.withLock { idle.append(connection) }
            }
            throw error
        }
    }
}
