/// What a sync did.
public struct SyncReport: Sendable, Equatable {
    public var pulled = 0
    public var pushed = 0
    /// Pulled records that were malformed: skipped, with the reason.
    public var skipped: [String] = []
    /// Pulled words still waiting for their book.
    public var waiting = 0
    /// The closing count check disagreed, and the sync repaired this store by a full pull.
    public var repaired = false
    /// The books the learner follows, brought up to date (nil: not asked).
    public var shared: SharedSyncReport?

    public init() {}
}

/// What bringing the followed books up to date did.
public struct SharedSyncReport: Sendable, Equatable {
    /// Records pulled from followed books.
    public var pulled = 0
    /// Books followed and up to date.
    public var following = 0
    /// Books whose owner stopped sharing them since: kept here as the learner's own, by name.
    public var ended: [String] = []
    /// Books no longer followed (the learner stopped, on another device): removed here.
    public var removed = 0
    public var skipped: [String] = []

    public init() {}
}

/// What an install of the cloud's schema did.
public enum SchemaInstall: Equatable, Sendable {
    /// The same SQL was installed already: nothing was done.
    case upToDate(version: Int)
    /// A database without Vocab's tables got them.
    case installed(version: Int)
    /// An older cloud was brought to this version.
    case upgraded(from: Int, to: Int)
    /// A cloud of this version got this Vocab's functions, policies and grants.
    case refreshed(version: Int)
}
