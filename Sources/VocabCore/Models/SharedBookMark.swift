import FoundationEssentials

/// A book this learner follows: whose share it is, the name its owner shows, whether it
/// still updates, and how far its records were pulled.
public struct SharedBookMark: Sendable, Equatable {
    public var bookId: UUID
    public var share: UUID
    public var sharer: String
    /// Its owner stopped sharing it: it is this learner's own now (and pushed as such).
    public var ended: Bool
    public var token: Int64

    public init(bookId: UUID, share: UUID, sharer: String, ended: Bool, token: Int64) {
        self.bookId = bookId
        self.share = share
        self.sharer = sharer
        self.ended = ended
        self.token = token
    }
}
