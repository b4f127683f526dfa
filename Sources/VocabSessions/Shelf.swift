import FoundationEssentials
import VocabCore
import VocabStore

/// One book on the shelf: the book, its counts, and how many of its words are due now.
public struct ShelfBook: Equatable, Sendable {
    public var summary: BookSummary
    public var dueCount: Int
    /// A book followed from another learner (read-only): the name its owner shows ("" when
    /// none); nil for the learner's own.
    public var sharedBy: String?
    public var book: Book { summary.book }
}

/// The book shelf: every book with its counts, read from the store as it is now.
public enum Shelf {
    public static func books(in library: Library, at time: Timestamp) throws -> [ShelfBook] {
        let store = library.store
        let followed = Dictionary(try store.sharedBooks().filter { !$0.ended }.map { ($0.bookId, $0.sharer) }, uniquingKeysWith: { first, _ in first })
        let due = try store.dueCountsByBook(at: time)
        return try store.bookSummaries().map { summary in
            ShelfBook(summary: summary, dueCount: due[summary.book.id] ?? 0, sharedBy: followed[summary.book.id])
        }
    }
}
