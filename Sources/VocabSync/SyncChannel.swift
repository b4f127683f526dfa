import FoundationEssentials
import VocabCore

/// The account's totals on the cloud, and how far its changes go.
public struct CloudCounts: Sendable, Equatable {
    public var books = 0, words = 0, reviews = 0
    /// The account's latest change (its sequence number); 0 when it has none.
    public var latest: Int64 = 0

    public init(books: Int = 0, words: Int = 0, reviews: Int = 0, latest: Int64 = 0) {
        self.books = books
        self.words = words
        self.reviews = reviews
        self.latest = latest
    }
}

/// A record as the cloud sends it, not yet checked (its id and body are the cloud's text).
public struct PulledRow: Sendable, Equatable {
    public var kind: String
    public var id: String
    public var seq: Int64
    public var deleted: Bool
    /// JSON object text.
    public var body: String

    public init(kind: String, id: String, seq: Int64, deleted: Bool, body: String) {
        self.kind = kind
        self.id = id
        self.seq = seq
        self.deleted = deleted
        self.body = body
    }
}

/// How a push ended.
public enum PushOutcome: Sendable, Equatable {
    /// Stored: the account's latest change is now `latest`, and its counts right after the push
    /// are `counts` (nil when the cloud did not say: the sync asks them when it needs them).
    case stored(latest: Int64, counts: CloudCounts? = nil)
    /// The account changed since the token the push named: pull first.
    case accountMoved
    /// A plain insert into what looked like an empty account met a record: send it as an upsert.
    case retryAsUpsert
}

/// Where a sync's records come from and go to: the cloud's functions on a PostgreSQL
/// connection (what a Vocab server does for a device), or a Vocab server over HTTPS (what
/// every device does). `SyncEngine` runs the same sync over either.
public protocol SyncChannel: AnyObject {
    /// The account's counts and latest change.
    func counts() throws -> CloudCounts
    /// Up to `limit` records changed after `token`, in the order of their changes.
    func pull(after token: Int64, limit: Int) throws -> [PulledRow]
    /// Starts storing `batch` (the JSON array `[{"k","i","d","b"}, …]`; `intoEmptyAccount`, records
    /// believed new: the same objects one a line may be sent instead) if the account's latest
    /// change is still `token`; may return before it is stored, so that the caller prepares the
    /// next batch meanwhile. `finishPush` must follow before anything else (but another
    /// `startPush`, while fewer than `pushesAhead` are unfinished).
    func startPush(token: Int64, batch: String, intoEmptyAccount: Bool) throws
    /// Waits for the oldest push `startPush` began.
    func finishPush() throws -> PushOutcome
    /// Gives up on the pushes begun (an error while preparing the next batch): waits for them
    /// quietly.
    func abandonPush()
    /// How many pushes of new records may be on their way at once (the later ones sent with
    /// the token the one before will leave); 1 when one must be finished before the next.
    var pushesAhead: Int { get }
}

extension SyncChannel {
    public var pushesAhead: Int { 1 }
}

/// The cloud's functions on a Vocab server's connection (`vocab.counts`, `vocab.pull`,
/// `vocab.push`), for the device `device` (the cloud checks its secret in each). A push runs
/// while the caller prepares the next.
public final class DatabaseSyncChannel: SyncChannel {
    public let connection: PostgresConnection
    public let device: DeviceKey
    /// Whether a push after another device's changes is stored when it touches none of
    /// their records (what every sync of this version asks; a device of schema 6 did not).
    public let merging: Bool
    private var pushingIntoEmptyAccount = false

    public init(connection: PostgresConnection, device: DeviceKey, merging: Bool = true) {
        self.connection = connection
        self.device = device
        self.merging = merging
    }

    public func counts() throws -> CloudCounts {
        let row = try connection.execute("SELECT books::text, words::text, reviews::text, latest::text FROM vocab.counts($1, $2)", [device.id, device.secret]).first ?? []
        let values = row.map { $0.flatMap { Int64($0) } ?? 0 }
        guard values.count == 4 else { return CloudCounts() }
        return CloudCounts(books: Int(values[0]), words: Int(values[1]), reviews: Int(values[2]), latest: values[3])
    }

    public func pull(after token: Int64, limit: Int) throws -> [PulledRow] {
        let rows = try connection.execute("""
            SELECT r.kind, r.id::text, r.seq::text, r.deleted::text, r.body::text FROM vocab.pull($1, $2, $3::bigint, $4::integer) r
            """, [device.id, device.secret, String(token), String(limit)])
        return rows.map { row in
            guard row.count == 5 else { return PulledRow(kind: "", id: "", seq: 0, deleted: false, body: "{}") }
            return PulledRow(kind: row[0] ?? "", id: row[1] ?? "", seq: row[2].flatMap { Int64($0) } ?? 0,
                             deleted: row[3] == "true", body: row[4] ?? "{}")
        }
    }

    public func startPush(token: Int64, batch: String, intoEmptyAccount: Bool) throws {
        pushingIntoEmptyAccount = intoEmptyAccount
        // Records that are all new go in line by line (`vocab.push_lines`, which checks each line);
        // a device that sent them as an array has them split here. Should that fail, the device
        // sends the batch again as an array (`retryAsUpsert`).
        if intoEmptyAccount, let lines = batch.utf8.first == UInt8(ascii: "{") ? batch : PushLines.lines(fromBatch: batch) {
            try connection.send(Self.withCountsAfter("vocab.push_lines($1, $2, $3::bigint, $4::text)"), [device.id, device.secret, String(token), lines])
            return
        }
        try connection.send(Self.withCountsAfter("vocab.push($1, $2, $3::bigint, $4::text, $5::boolean, $6::boolean)"),
                            [device.id, device.secret, String(token), batch, intoEmptyAccount ? "true" : "false", merging ? "true" : "false"])
    }

    /// The statement running `push` (which returns the latest change, or NULL) and then, in the
    /// same round trip, `vocab.counts` for the same device: the counts the sync's closing check
    /// needs, as the push left them (`LATERAL` makes the push run first; `vocab.counts` is
    /// volatile, so it reads the account as the push changed it).
    static func withCountsAfter(_ push: String) -> String {
        """
        SELECT p.latest::text, c.books::text, c.words::text, c.reviews::text
        FROM (SELECT \(push) AS latest OFFSET 0) p
        LEFT JOIN LATERAL (SELECT * FROM vocab.counts($1, $2) WHERE p.latest IS NOT NULL) c ON true
        """
    }

    public func finishPush() throws -> PushOutcome {
        let rows: [[String?]]
        do {
            rows = try connection.awaitResult()
        } catch CloudError.serverError where pushingIntoEmptyAccount {
            return .retryAsUpsert  // the plain insert met a record: nothing of it was kept
        }
        guard let row = rows.first, let text = row.first ?? nil else { return .accountMoved }
        guard let latest = Int64(text) else { throw CloudError.serverError("vocab.push returned \(text)") }
        let counts = row.dropFirst().compactMap { $0.flatMap { Int($0) } }
        guard counts.count == 3 else { return .stored(latest: latest) }
        return .stored(latest: latest, counts: CloudCounts(books: counts[0], words: counts[1], reviews: counts[2], latest: latest))
    }

    public func abandonPush() {
        _ = try? connection.awaitResult()
    }
}
