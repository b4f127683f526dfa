import Foundation
import VocabCloud
import VocabStore
import VocabSync
import VocabCloudAPI

/// The cloud as a Vocab server reaches it, for the benchmarks: the server tier's role (its
/// password from VOCAB_TEST_SERVER_PASSWORD, which scripts/services.sh sets) and devices signed
/// in through it.
enum BenchCloud {
    /// The server role's password of the suite's cluster.
    static func serverPassword() throws -> String {
        guard let password = ProcessInfo.processInfo.environment["VOCAB_TEST_SERVER_PASSWORD"], !password.isEmpty else {
            throw BenchError.message("no VOCAB_TEST_SERVER_PASSWORD: run scripts/bench.sh, which starts PostgreSQL and makes the server role")
        }
        return password
    }

    /// The server role's address on `host`:`port` (PostgreSQL itself, or a pooler before it).
    static func serverAddress(_ admin: ServerAddress, host: String? = nil, port: Int? = nil) -> ServerAddress {
        ServerAddress(host: host ?? admin.host, port: port ?? admin.port, database: admin.database, user: CloudSchema.serverRole)
    }

    /// The `--cloud` URL a Vocab server is started with.
    static func serverURL(_ admin: ServerAddress, host: String? = nil, port: Int? = nil) -> String {
        serverAddress(admin, host: host, port: port).url
    }

    /// A connection as the server tier.
    static func connect(_ admin: ServerAddress, host: String? = nil, port: Int? = nil,
                        timeouts: CloudTimeouts = CloudTimeouts()) throws -> PostgresConnection {
        try PostgresConnection(serverAddress(admin, host: host, port: port), password: try serverPassword(), timeouts: timeouts)
    }

    /// A new device of `user` (whose password is `password`), signed in through `server`.
    static func device(_ user: String, password: String, on server: PostgresConnection) throws -> DeviceKey {
        guard let key = try CloudDevices.signIn(user: user, password: password, label: "bench", on: server) else {
            throw BenchError.message("the cloud refused \(user)'s password")
        }
        return key
    }
}

/// The accounts a benchmark made in the cloud, removed with their devices and records.
final class MadeAccounts {
    var names: [String]

    init(_ names: [String] = []) {
        self.names = names
    }

    func remove(on admin: PostgresConnection) {
        for table in ["records", "devices", "accounts"] {
            _ = try? admin.execute("DELETE FROM vocab.\(table) WHERE owner = ANY ($1::name[])", ["{" + names.joined(separator: ",") + "}"])
        }
    }
}

extension SyncEngine {
    /// A sync through the cloud's functions on a Vocab server's `connection`, for `device`
    /// of the learner whose account is `account`.
    convenience init(store: Store, connection: PostgresConnection, device: DeviceKey, account: ServerAddress, pageSize: Int = 2000,
                            batchSize: Int = 2000, progress: @escaping (SyncProgress) -> Void = { _ in }) {
        self.init(store: store, channel: DatabaseSyncChannel(connection: connection, device: device), account: account,
                  pageSize: pageSize, batchSize: batchSize, progress: progress)
    }
}
