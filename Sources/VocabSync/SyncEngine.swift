import Foundation
import VocabCore
import VocabStore

/// What a sync did.
public struct SyncReport: Sendable, Equatable {
    public var pulled = 0
    public var pushed = 0
    /// Pulled records that were malformed: skipped, with the reason.
    public var skipped: [String] = []
    /// Pulled words still waiting for their book.
    public var waiting = 0

    public init() {}
}

/// Progress while a sync runs.
public enum SyncProgress: Sendable {
    case pulled(Int)
    case pushed(Int)
}

/// Two-way incremental sync between the local store and the PostgreSQL cloud.
///
/// Pull first, page by page (each page applied in one local transaction with its token), then
/// push the outbox in batches. A push runs under the user's advisory lock and only if the
/// server's latest sequence number is still the one pulled; otherwise it pulls again first.
/// So a push never overwrites a change it has not merged, and sequence numbers of one user
/// commit in order, so a token never skips a row. Any interruption leaves a state from which
/// the next sync loses nothing and duplicates nothing (pushes are idempotent upserts).
public final class SyncEngine {
    private let store: Store
    private let connection: PostgresConnection
    private let pageSize: Int
    private let batchSize: Int
    private let progress: (SyncProgress) -> Void

    public init(store: Store, connection: PostgresConnection, pageSize: Int = 2000, batchSize: Int = 2000,
                progress: @escaping (SyncProgress) -> Void = { _ in }) {
        self.store = store
        self.connection = connection
        self.pageSize = pageSize
        self.batchSize = batchSize
        self.progress = progress
    }

    public func run() throws -> SyncReport {
        var report = SyncReport()
        var token = try store.syncToken(for: connection.address.url)
        // Before anything is pulled, so that no pulled word can fall inside a range.
        try store.expandOutboxRanges()
        for _ in 0..<20 {
            token = try pull(after: token, report: &report)
            if try push(token: &token, report: &report) { return report }
        }
        throw CloudError.serverError("the server kept changing during the sync; run `vocab sync` again")
    }

    /// Pulls every record after `token`; returns the new token.
    private func pull(after start: Int64, report: inout SyncReport) throws -> Int64 {
        var token = start
        while true {
            let rows = try connection.execute("""
                SELECT r.kind, r.id::text AS id_text, r.seq::text AS seq_text, r.deleted::text AS deleted_text,
                    r.body::text AS body_text
                FROM vocab.records r WHERE r.seq > $1 ORDER BY r.seq LIMIT $2
                """, [String(token), String(pageSize)])
            guard !rows.isEmpty else { return token }
            var records: [SyncRecord] = []
            var pageToken = token
            for row in rows {
                guard row.count == 5, let kind = row[0], let idText = row[1], let seqText = row[2], let seq = Int64(seqText) else {
                    report.skipped.append("a record with missing columns")
                    continue
                }
                pageToken = max(pageToken, seq)
                guard let id = UUID(text: idText) else {
                    report.skipped.append("\(kind) \(idText): malformed id")
                    continue
                }
                records.append(SyncRecord(kind: kind, id: id, deleted: row[3] == "true", body: row[4] ?? "{}", seq: seq))
            }
            let summary = try store.applyRemote(records, token: pageToken)
            report.pulled += records.count
            report.skipped += summary.skipped
            report.waiting = summary.deferred
            token = pageToken
            progress(.pulled(report.pulled))
            if rows.count < pageSize { return token }
        }
    }

    /// Pushes the outbox; false when the server changed since the pull (pull again first).
    /// While the server stores one batch, the next is read from the store.
    private func push(token: inout Int64, report: inout SyncReport) throws -> Bool {
        var entries = try store.outbox(limit: batchSize)
        while !entries.isEmpty {
            var next: [OutboxEntry] = []
            let newToken: Int64? = try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock(hashtext(current_user))")
                guard try latestSeq() == token else { return nil }
                try connection.send(SyncEngine.upsertSQL, SyncEngine.upsertParameters(entries))
                do {
                    next = try store.outbox(after: entries.last?.rowid ?? 0, limit: batchSize)
                } catch {
                    _ = try? connection.awaitResult()
                    throw error
                }
                try connection.awaitResult()
                return try latestSeq()
            }
            guard let newToken else { return false }
            try store.clearOutbox(entries, token: newToken)
            token = newToken
            report.pushed += entries.count
            progress(.pushed(report.pushed))
            entries = next
        }
        return true
    }

    private func latestSeq() throws -> Int64 {
        Int64(try connection.execute("SELECT coalesce(max(seq), 0)::text FROM vocab.records").first?.first.flatMap { $0 } ?? "0") ?? 0
    }

    /// Upserts a batch: a deletion sticks, and a deleted record keeps its last known fields
    /// plus what the deletion says (a folded book's `mergedInto`).
    private static let upsertSQL = """
        INSERT INTO vocab.records (kind, id, seq, deleted, body)
        SELECT k, i, nextval('vocab.change_seq'), d, b
        FROM unnest($1::text[], $2::uuid[], $3::boolean[], $4::jsonb[]) AS t(k, i, d, b)
        ON CONFLICT (owner, kind, id) DO UPDATE SET seq = excluded.seq,
            deleted = vocab.records.deleted OR excluded.deleted,
            body = CASE WHEN excluded.deleted THEN vocab.records.body || excluded.body ELSE excluded.body END
        """

    private static func upsertParameters(_ entries: [OutboxEntry]) -> [String?] {
        [
            PostgresArray.literal(entries.map(\.record.kind)),
            PostgresArray.literal(entries.map { $0.record.id.lowercaseText }),
            "{" + entries.map { $0.record.deleted ? "t" : "f" }.joined(separator: ",") + "}",
            PostgresArray.literal(entries.map(\.record.body)),
        ]
    }
}

/// PostgreSQL array literals of text, for sending many values as one parameter.
enum PostgresArray {
    /// `{"a","b\"c"}`: every element quoted, with quotes and backslashes escaped.
    static func literal(_ values: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            var text = value
            text.withUTF8 { utf8 in
                var runStart = 0
                for position in 0..<utf8.count where utf8[position] == UInt8(ascii: "\"") || utf8[position] == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                    bytes.append(UInt8(ascii: "\\"))
                    runStart = position
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
