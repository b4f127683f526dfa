import FoundationEssentials
import VocabCloudAPI
import VocabCore

/// The cloud's functions for the collection a learner's Anki apps sync with (`vocab.anki_pull`,
/// `vocab.anki_push`, version 10), for the device `device` (the cloud checks its secret in each).
/// Rows are text the cloud never looks into: the server's copy of the collection reads them.
public struct AnkiCloudChannel {
    public let connection: PostgresConnection
    public let device: DeviceKey
    /// The most one push carries; a call's changes past it go in several, each after the last.
    static let partBytes = PushBounds.batchBytes / 2

    public init(connection: PostgresConnection, device: DeviceKey) {
        self.connection = connection
        self.device = device
    }

    /// The collection's version and state, and its rows (kind, id, row or nil for one removed)
    /// written after version `since`, asked for page by page (each bounded by the cloud).
    public func pull(since: Int64) throws -> (version: Int64, state: String?, rows: [(kind: String, id: String, row: String?)]) {
        var version: Int64 = 0, state: String?, first = true
        var rows: [(kind: String, id: String, row: String?)] = []
        var after: (version: Int64, kind: String, id: String) = (since, "", "")
        while true {
            let page = try connection.execute("""
                SELECT kind, id, content, version::text FROM vocab.anki_pull($1, $2, $3::bigint, $4::bigint, $5, $6)
                """, [device.id, device.secret, String(since), String(after.version), after.kind, after.id])
            var objects = 0
            for row in page where row.count == 4 {
                guard let kind = row[0], let id = row[1], let rowVersion = row[3].flatMap({ Int64($0) }) else { continue }
                if kind.isEmpty {
                    if first { (version, state) = (rowVersion, row[2]) }  // as of the first page: a later write is read again next time
                } else {
                    rows.append((kind, id, row[2]))
                    after = (rowVersion, kind, id)
                    objects += 1
                }
            }
            first = false
            if objects == 0 { return (version, state, rows) }
        }
    }

    /// Stores `rows` (and `state`, when given) if the collection is at `expected`, in parts of at
    /// most `partBytes`, each after the one before; returns the new version, or nil when another
    /// server wrote first.
    public func push(expected: Int64, state: String?, rows: [(kind: String, id: String, row: String?)]) throws -> Int64? {
        var parts: [[JSONValue]] = [[]]
        var size = 0
        for row in rows {
            let entry = JSONValue.object([("k", .string(row.kind)), ("i", .string(row.id)), ("r", row.row.map(JSONValue.string) ?? .null)])
            let bytes = row.kind.utf8.count + row.id.utf8.count + (row.row?.utf8.count ?? 0) + 32
            if size + bytes > Self.partBytes, !(parts.last?.isEmpty ?? true) {
                parts.append([])
                size = 0
            }
            parts[parts.count - 1].append(entry)
            size += bytes
        }
        var version = expected
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            let answer = try connection.execute("SELECT vocab.anki_push($1, $2, $3::bigint, $4, $5)::text", [
                device.id, device.secret, String(version), last ? state : nil, JSONValue.array(part).compact,
            ])
            guard let text = answer.first?.first ?? nil, let next = Int64(text) else { return nil }
            version = next
        }
        return version
    }
}
