/// What the cloud takes in one push, written once: the cloud's SQL is made with these
/// (`{{batch_bytes}}`, …), a Vocab server bounds a batch's request by `batchBytes`, and a device
/// keeps its batches under it. A record's body is measured as PostgreSQL stores it (jsonb).
public enum PushBounds {
    /// One push's batch, measured as text before it is parsed.
    public static let batchBytes = 16 << 20
    /// What a device puts in one batch: room to spare under `batchBytes`.
    public static let deviceBatchBytes = batchBytes / 4 * 3
    /// A book's record, with its cover.
    public static let bookBytes = 2 << 20
    /// A word's record.
    public static let wordBytes = 512 << 10
    /// The learner's scheduling settings.
    public static let settingsBytes = 64 << 10
    /// Any other record: a review, a mark, a deletion.
    public static let otherRecordBytes = 4 << 10
}

/// What one pull answers at most, written once: the cloud's SQL stops a page at this many bytes
/// of bodies (always at least one record), so that an answer a server holds while a client
/// reads it is bounded whatever the account holds. A device asks again from where a page ended.
public enum PullBounds {
    public static let pageBytes = 1 << 20
    /// The most records one pull answers, and how many when a device asks no number.
    public static let mostRecords = 5_000
    public static let defaultRecords = 2_000

    /// The records a pull answers at most for `asked`: within 1 and `mostRecords`.
    public static func records(_ asked: Int?) -> Int { min(max(asked ?? defaultRecords, 1), mostRecords) }
}
