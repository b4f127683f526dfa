import FoundationEssentials
import VocabCore
import VocabStore

/// One book on the shelf: the book, its counts, and how many of its words are due now.
public struct ShelfBook: Equatable, Sendable {
    public var summary: BookSummary
    public var dueCount: Int
    public var book: Book { summary.book }
}

/// The book shelf: every book with its counts, read from the store as it is now.
public enum Shelf {
    public static func books(in store: Store, at time: Timestamp) throws -> [ShelfBook] {
        try store.bookSummaries().map { summary in
            ShelfBook(summary: summary, dueCount: try store.dueCount(inBooks: [summary.book.id], at: time))
        }
    }
}
