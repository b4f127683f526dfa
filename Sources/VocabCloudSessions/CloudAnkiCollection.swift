import VocabCloud
import VocabCloudAPI
import VocabSessions
import VocabStore

/// The cloud as the keeper of the collection a learner's Anki apps sync with: a server's copy
/// in his store takes what changed there and hands on what its calls changed, through one of
/// the server's connections at a time (`vocab.anki_pull`, `vocab.anki_push`), the cloud's
/// refusals as the device's (signed out, the account's cap, busy).
struct CloudAnkiCollection<Front: Sendable>: AnkiCollectionCloud {
    let service: CloudService<Front>
    let caller: Caller

    func pull(since: Int64) throws -> (version: Int64, state: String?, rows: [AnkiKeptRow]) {
        let pulled = try service.withCloud(caller) { try AnkiCloudChannel(connection: $0, device: caller.key).pull(since: since) }
        return (pulled.version, pulled.state, pulled.rows.map { AnkiKeptRow(kind: $0.kind, id: $0.id, row: $0.row) })
    }

    func push(expected: Int64, state: String?, rows: [AnkiKeptRow]) throws -> Int64? {
        try service.withCloud(caller) { connection in
            try AnkiCloudChannel(connection: connection, device: caller.key)
                .push(expected: expected, state: state, rows: rows.map { ($0.kind, $0.id, $0.row) })
        }
    }
}

extension CloudService {
    /// Where the cloud keeps the collection of the caller's Anki apps.
    package func ankiCollection(for caller: Caller) -> any AnkiCollectionCloud {
        CloudAnkiCollection(service: self, caller: caller)
    }

    /// `body` with one of the server's connections, the cloud's errors as the refusals they
    /// mean to `caller`.
    func withCloud<T>(_ caller: Caller, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try cloud.with(for: caller.owner, body)
        } catch let error as CloudError {
            throw refusal(for: error, caller)
        }
    }
}
