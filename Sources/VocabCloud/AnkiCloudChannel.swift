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

/// The cloud's functions for the media files of a learner's Anki apps (`vocab.anki_media_…`,
/// version 11), for the device `device`. Contents cross as base64 (the connection speaks text).
extension AnkiCloudChannel {
    /// The media's latest update number and how many files it holds.
    public func mediaState() throws -> (usn: Int64, files: Int) {
        let row = try connection.execute("SELECT usn::text, files::text FROM vocab.anki_media_state($1, $2)", [device.id, device.secret]).first
        return (row.flatMap { $0.first ?? nil }.flatMap { Int64($0) } ?? 0, row.flatMap { $0.count > 1 ? $0[1] : nil }.flatMap { Int($0) } ?? 0)
    }

    /// The changes after `usn`, oldest first (at most 1,000): name, SHA-1 ("" once deleted), number.
    public func mediaChanges(after usn: Int64) throws -> [(name: String, sha1: String, usn: Int64)] {
        try connection.execute("SELECT name, sha1, usn::text FROM vocab.anki_media_changes($1, $2, $3::bigint)",
                               [device.id, device.secret, String(usn)]).compactMap { row in
            guard row.count == 3, let name = row[0], let sha1 = row[1], let usn = row[2].flatMap({ Int64($0) }) else { return nil }
            return (name, sha1, usn)
        }
    }

    /// The contents of the files named, in order: up to the first not held, at most `bytes`
    /// in all (always the first).
    public func mediaFiles(_ names: [String], most bytes: Int) throws -> [(name: String, data: [UInt8])] {
        try connection.execute("SELECT name, data FROM vocab.anki_media_files($1, $2, $3, $4::bigint)", [
            device.id, device.secret, JSONValue.array(names.map(JSONValue.string)).compact, String(bytes),
        ]).compactMap { row in
            guard row.count == 2, let name = row[0], let text = row[1],
                  let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { return nil }  // lines of 76
            return (name, Array(data))
        }
    }

    /// Stores the files sent (name, SHA-1 or "" for a deletion, content); returns the latest
    /// update number.
    public func putMedia(_ files: [(name: String, sha1: String, data: [UInt8]?)]) throws -> Int64 {
        let entries = JSONValue.array(files.map { file in
            .object([("n", .string(file.name)), ("s", .string(file.sha1)),
                     ("d", file.data.map { .string(Data($0).base64EncodedString()) } ?? .null)])
        })
        let answer = try connection.execute("SELECT vocab.anki_media_put($1, $2, $3)::text", [device.id, device.secret, entries.compact])
        guard let text = answer.first?.first ?? nil, let usn = Int64(text) else { throw CloudError.serverError("the cloud answered no media number") }
        return usn
    }
}
