import FoundationEssentials

/// Which words a listing includes.
public struct WordFilter: Sendable {
    public var bookId: UUID?
    /// nil: all words; true: only memorised; false: only not memorised.
    public var memorized: Bool?

    public init(bookId: UUID? = nil, memorized: Bool? = nil) {
        self.bookId = bookId
        self.memorized = memorized
    }
}
