import FoundationEssentials
import VocabCore
import VocabStore
import VocabCloudAPI

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
