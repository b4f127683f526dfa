/// How far an import has come, for a progress line or bar.
public enum ImportProgress: Sendable, Equatable {
    /// Rows (words) read so far; how many there are is not known ahead.
    case rows(Int)
    /// An Anki package's review log: reviews carried (or passed over) so far, of `total`.
    case reviews(done: Int, total: Int)

    /// The share done (0...1) when the whole is known (the review log), else nil.
    public var share: Double? {
        guard case .reviews(let done, let total) = self else { return nil }
        return total > 0 ? min(1, Double(done) / Double(total)) : 1
    }
}
