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

/// The bounds of Anki's media sync (and of a whole collection uploaded) on a Vocab server,
/// written once: the translator holds an upload to them, and the cloud's SQL is made with
/// `uploadBytes` (`{{anki_media_bytes}}`).
public enum AnkiMediaBounds {
    /// Files (and deletions) one upload may carry; Anki's apps send at most 25.
    public static let filesPerUpload = 25
    /// Files one download may ask for; Anki's apps ask for at most 100 at a time.
    public static let filesPerDownload = 100
    /// What one download answers at most (always one file, whatever its size): the app asks
    /// again for the files it did not get.
    public static let downloadBytes = 16 << 20
    /// The largest file taken (Anki's own server takes 100 MiB; a phone's picture or a word's
    /// recording is far below this).
    public static let fileBytes = 20 << 20
    /// The largest upload (Anki's apps fill one to 10 MiB, then add one file more).
    public static let uploadBytes = 32 << 20
    /// The largest collection an app may upload whole, unpacked, and as it comes (zstd: a
    /// collection's SQLite pages pack to a third or less).
    public static let collectionBytes = 128 << 20
    public static let collectionWireBytes = 64 << 20
    /// Changes one answer lists (as Anki's own server).
    public static let changesPerAnswer = 1_000
    /// The longest name (bytes), as Anki's own server.
    public static let nameBytes = 255
}
