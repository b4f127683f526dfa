import VocabCloud
import VocabCloudAPI
import VocabStore
import VocabSync

extension SyncEngine {
    /// A sync through the cloud's functions on a Vocab server's `connection`, for `device` of
    /// the learner whose account is `account` (as the server of many runs it).
    convenience init(store: Store, connection: PostgresConnection, device: DeviceKey, account: ServerAddress, pageSize: Int = 2000,
                     batchSize: Int = 2000, progress: @escaping (SyncProgress) -> Void = { _ in }) {
        self.init(store: store, channel: DatabaseSyncChannel(connection: connection, device: device), account: account,
                  pageSize: pageSize, batchSize: batchSize, progress: progress)
    }
}
