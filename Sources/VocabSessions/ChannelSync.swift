import VocabCore
import VocabSync
import VocabCloudAPI

/// The syncs of a library through a channel the caller made: a device's is `SyncService`'s
/// (its saved login, over HTTPS); the server of many gives its database connection for the
/// learner's device. The same engine runs in both.
public enum ChannelSync {
    /// One two-way sync of `library` with the cloud through `channel`, as `account`'s learner;
    /// `known`: the cloud's counts, when the caller has just read them.
    @discardableResult
    public static func run(_ library: Library, through channel: SyncChannel, account: ServerAddress,
                           known: CloudCounts? = nil) throws -> SyncReport {
        try SyncEngine(store: library.store, channel: channel, account: account).run(known: known)
    }

    /// Brings the books the learner follows up to their owners' through `channel`.
    public static func bringFollowedBooks(into library: Library, through channel: SharingChannel) throws {
        _ = try SharedBooksSync(store: library.store, channel: channel).run()
    }
}
