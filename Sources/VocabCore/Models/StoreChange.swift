/// What a commit changed.
public struct StoreChange: Equatable, Sendable {
    public var books: Bool
    public var words: Bool
    /// Reviews were added (so schedules and due counts changed).
    public var reviews: Bool
    /// Games were played or finished.
    public var games: Bool

    public init(books: Bool, words: Bool, reviews: Bool = false, games: Bool = false) {
        self.books = books
        self.words = words
        self.reviews = reviews
        self.games = games
    }

    /// Anything may have changed: another process committed to the same file.
    public static let everything = StoreChange(books: true, words: true, reviews: true, games: true)

    public var isEmpty: Bool { !books && !words && !reviews && !games }
}

/// Keeps an observation alive; cancelling or releasing it stops the notifications.
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    package init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    deinit { cancel() }
}
