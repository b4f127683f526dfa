import Dispatch
import VocabSync
import VocabSystem

/// The Vocab server's few connections to the cloud, as the server tier's one role, shared by
/// every request of every learner (a learner is a row the functions take, never a
/// connection). A request waits a bounded time for one; a connection that failed is closed
/// and made again by the next request. Nothing outlives a statement's transaction, so a
/// transaction pooler (PgBouncer) may stand between.
final class CloudConnections: @unchecked Sendable {
    let address: ServerAddress
    private let password: String?
    private let timeouts: CloudTimeouts
    /// At most `capacity` connections lent at once.
    private let admission: DispatchSemaphore
    /// Connections not lent now: touched only with `lock` held.
    private var idle: [PostgresConnection] = []
    private let lock = ThreadCondition()
    /// How long a request waits for a connection before it is answered "busy".
    static let waitSeconds = 10

    /// `password` nil: libpq's own (PGPASSWORD, ~/.pgpass, or none where pg_hba trusts).
    init(address: ServerAddress, password: String?, timeouts: CloudTimeouts, capacity: Int) {
        self.address = address
        self.password = password
        self.timeouts = timeouts
        admission = DispatchSemaphore(value: max(capacity, 1))
    }

    /// Runs `body` with a connection of the pool (made when none is idle). A connection lost
    /// meanwhile (the cloud restarted, a pooler ended it) is closed, not lent again.
    func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard admission.wait(timeout: .now() + .seconds(Self.waitSeconds)) == .success else {
            throw CloudError.timedOut(server: address.server, seconds: Self.waitSeconds)
        }
        defer { admission.signal() }
        let connection = try lock.withLock { idle.popLast() } ?? PostgresConnection(address, password: password, timeouts: timeouts)
        do {
            let result = try body(connection)
            lock.withLock { idle.append(connection) }
            return result
        } catch let error as CloudError {
            switch error {
            case .unreachable, .serverError, .timedOut, .cancelled: break  // not lent again: it may be in any state
            default: lock.withLock { idle.append(connection) }
            }
            throw error
        }
    }
}
