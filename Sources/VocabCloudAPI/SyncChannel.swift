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

/// Progress while a sync runs.
public enum SyncProgress: Sendable {
    case pulled(Int)
    case pushed(Int)
}
