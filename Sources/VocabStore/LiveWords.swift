import VocabCore

/// A live view of the words matching a filter: it re-reads the store after every commit that
/// changed books or words, so a screen or game created on an empty store sees the words that
/// arrive later (the original app's "set up game starts nothing" bug).
public final class LiveWords {
    public private(set) var words: [Word]
    /// Called after `words` was refreshed because a commit changed them.
    public var onChange: (([Word]) -> Void)?
    /// The last error met while refreshing, if the latest refresh failed.
    public private(set) var refreshError: Error?

    /// Weak: a live list that outlives its store keeps its last words and stops refreshing.
    private weak var store: Store?
    private let filter: WordFilter
    private var token: ObservationToken?

    public init(store: Store, filter: WordFilter = WordFilter()) throws {
        self.store = store
        self.filter = filter
        self.words = try store.words(filter)
        token = store.observe { [weak self] _ in self?.refresh() }
    }

    private func refresh() {
        guard let store else { return }
        do {
            words = try store.words(filter)
            refreshError = nil
            onChange?(words)
        } catch {
            refreshError = error
        }
    }
}
