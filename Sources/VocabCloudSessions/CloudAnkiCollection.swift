import FoundationEssentials
import VocabCloud
import VocabCloudAPI
import VocabCore
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
        let pulled = try service.withCloud(caller, bulk: true) { try AnkiCloudChannel(connection: $0, device: caller.key).pull(since: since) }
        return (pulled.version, pulled.state, pulled.rows.map { AnkiKeptRow(kind: $0.kind, id: $0.id, row: $0.row) })
    }

    var media: any AnkiMediaKeeper { CloudAnkiMedia(service: service, caller: caller) }

    func keepBackup(id: UUID, words: Int, package: [UInt8]) throws {
        try service.withCloud(caller, bulk: true) { connection in
            try AnkiCloudChannel(connection: connection, device: caller.key)
                .keepBackup(id: id, reason: AccountBackups.beforeAnkiUpload, words: words, package: package)
        }
    }

    func push(expected: Int64, state: String?, rows: [AnkiKeptRow]) throws -> Int64? {
        try service.withCloud(caller, bulk: true) { connection in
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

    /// `body` with one of the server's connections (`bulk`: for bulk work, see `FairShares`),
    /// the cloud's errors as the refusals they mean to `caller`.
    func withCloud<T>(_ caller: Caller, bulk: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try cloud.with(for: caller.owner, bulk: bulk, body)
        } catch let error as CloudError {
            throw refusal(for: error, caller)
        }
    }
}

/// The cloud as the keeper of a learner's Anki media (`vocab.anki_media_…`), through one of the
/// server's connections at a time, its refusals as the device's (signed out, the account's cap).
struct CloudAnkiMedia<Front: Sendable>: AnkiMediaKeeper {
    let service: CloudService<Front>
    let caller: Caller

    /// `bulk`: files moved (see `FairShares`).
    private func channel<T>(bulk: Bool = false, _ body: (AnkiCloudChannel) throws -> T) throws -> T {
        try service.withCloud(caller, bulk: bulk) { try body(AnkiCloudChannel(connection: $0, device: caller.key)) }
    }

    func usn() throws -> Int64 { try channel { try $0.mediaState().usn } }

    func changes(after usn: Int64, limit: Int) throws -> [AnkiMediaEntry] {
        try channel { try $0.mediaChanges(after: usn) }.prefix(limit).map { AnkiMediaEntry(name: $0.name, sha1: $0.sha1, usn: $0.usn) }
    }

    func apply(_ uploads: [AnkiMediaUpload]) throws -> Int64 {
        try channel(bulk: true) { try $0.putMedia(uploads.map { ($0.name, $0.sha1, $0.data) }) }
    }

    func files(_ names: [String], most bytes: Int) throws -> [(name: String, data: [UInt8])] {
        try channel(bulk: true) { try $0.mediaFiles(names, most: bytes) }
    }

    func count() throws -> Int { try channel { try $0.mediaState().files } }
}
