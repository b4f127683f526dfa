/// How far an import has come, for a progress line or bar.
public enum ImportProgress: Sendable, Equatable {
    /// Rows (words) read so far; how many there are is not known ahead.
    case rows(Int)
    /// An Anki package's review log: reviews carried (or passed over) so far, of `total`.
    case reviews(done: Int, total: Int)
}
