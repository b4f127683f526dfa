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
    /// Asked between pages and batches; when it says true the sync stops with
    /// `CloudError.cancelled`, keeping what already committed.
    public var isCancelled: () -> Bool = { false }
    /// Set only at the user's explicit, named request: sync a store bound to another account
    /// into this one (copying everything local into it) and bind it to this one.
    public var copyIntoAnotherAccount = false

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
        let account = connection.address.url
        if let bound = try store.boundAccount(), bound != account, !copyIntoAnotherAccount {
            throw CloudError.boundToAnotherAccount(bound: bound, loggedIn: account, user: connection.address.user)
        }
        var token = try store.syncToken(for: account)
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
            if isCancelled() { throw CloudError.cancelled }
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
    private func push(token: inout Int64, report: inout SyncReport) throws -> Bool {
        var entries = try store.outbox(limit: batchSize)
        guard !entries.isEmpty else { return true }
        try connection.execute(SyncEngine.stagingSQL)
        // Into an account that had no rows at all nothing can conflict: a plain INSERT (a third
        // cheaper than the upsert). Should one still conflict, the batch is redone as an upsert.
        var intoEmptyAccount = try token == 0 && latestSeq() == 0
        while !entries.isEmpty {
            if isCancelled() { throw CloudError.cancelled }
            let pushed: (token: Int64, next: [OutboxEntry])?
            do {
                pushed = try pushBatch(entries, token: token, plainInsert: intoEmptyAccount)
            } catch CloudError.serverError(_) where intoEmptyAccount {
                intoEmptyAccount = false
                continue
            }
            guard let pushed else { return false }
            try store.clearOutbox(entries, token: pushed.token)
            token = pushed.token
            report.pushed += entries.count
            progress(.pushed(report.pushed))
            entries = pushed.next
        }
        return true
    }

    /// Pushes one batch in one server transaction, reading the next batch from the store while
    /// the server inserts this one; nil when the server changed since the pull.
    private func pushBatch(_ entries: [OutboxEntry], token: Int64, plainInsert: Bool) throws -> (token: Int64, next: [OutboxEntry])? {
        var next: [OutboxEntry] = []
        let newToken: Int64? = try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext(current_user))")
            guard try latestSeq() == token else { return nil }
            try connection.copyIn("COPY pg_temp.vocab_push (kind, id, deleted, body) FROM STDIN", data: SyncEngine.copyRows(entries))
            try connection.send(plainInsert ? SyncEngine.insertSQL : SyncEngine.upsertSQL)
            do {
                next = try store.outbox(after: entries.last, limit: batchSize)
            } catch {
                _ = try? connection.awaitResult()
                throw error
            }
            try connection.awaitResult()
            return try latestSeq()
        }
        return newToken.map { ($0, next) }
    }

    private func latestSeq() throws -> Int64 {
        Int64(try connection.execute("SELECT coalesce(max(seq), 0)::text FROM vocab.records").first?.first.flatMap { $0 } ?? "0") ?? 0
    }

    /// A batch goes to the server with COPY (the cheapest way in) into a temporary table of
    /// the session, emptied at each commit, and from there into `vocab.records`.
    private static let stagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS vocab_push (kind text, id uuid, deleted boolean, body jsonb) ON COMMIT DELETE ROWS
        """

    /// Inserts the staged batch into an account that had no rows.
    private static let insertSQL = """
        INSERT INTO vocab.records (kind, id, seq, deleted, body)
        SELECT kind, id, nextval('vocab.change_seq'), deleted, body FROM pg_temp.vocab_push
        """

    /// Upserts the staged batch: a deletion sticks, and a deleted record keeps its last known
    /// fields plus what the deletion says (a folded book's `mergedInto`).
    private static let upsertSQL = """
        INSERT INTO vocab.records (kind, id, seq, deleted, body)
        SELECT kind, id, nextval('vocab.change_seq'), deleted, body FROM pg_temp.vocab_push
        ON CONFLICT (owner, kind, id) DO UPDATE SET seq = excluded.seq,
            deleted = vocab.records.deleted OR excluded.deleted,
            body = CASE WHEN excluded.deleted THEN vocab.records.body || excluded.body ELSE excluded.body END
        """

    /// The batch as rows of COPY's text format: kind, id, t/f, body.
    static func copyRows(_ entries: [OutboxEntry]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + $1.record.body.utf8.count + 50 })
        for entry in entries {
            CopyText.append(entry.record.kind, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            bytes += entry.record.id.lowercaseText.utf8
            bytes.append(UInt8(ascii: "\t"))
            bytes.append(UInt8(ascii: entry.record.deleted ? "t" : "f"))
            bytes.append(UInt8(ascii: "\t"))
            CopyText.append(entry.record.body, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}

/// COPY's text format: a backslash, tab, newline or carriage return in a value is escaped.
enum CopyText {
    static func append(_ value: String, to bytes: inout [UInt8]) {
        var text = value
        text.withUTF8 { utf8 in
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                if byte > UInt8(ascii: "\r") && byte != UInt8(ascii: "\\") { continue }  // plain: the common case
                let escaped: UInt8
                switch byte {
                case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(escaped)
                runStart = position + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
    }
}
