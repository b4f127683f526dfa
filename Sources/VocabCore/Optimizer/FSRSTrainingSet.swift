import FoundationEssentials
import Glibc

/// The reviews an optimisation trains on, prepared as the reference optimiser prepares them
/// (fsrs-rs' `prepare_training_data`, outlier filter and recency weights):
/// - every later-day review of a word is one training item: its rating is the label, the
///   reviews before it (same-day ones included) are its history;
/// - words whose first later-day interval is rare for their first rating (the rarest 5% of
///   each first rating, at least 20 items, and intervals over 100 days, 365 for Easy) are
///   left out as outliers;
/// - an item's weight grows with how recent it is: 0.25 + 0.75 · (rank / (n − 1))³.
struct FSRSTrainingSet {
    let sequences: [FSRSReviewSequence]
    /// Per sequence and review, the weight of that review as a training item (0: not one).
    private(set) var weights: [[Double]]
    private(set) var itemCount = 0
    /// The share of training items that were recalled.
    private(set) var averageRecall = 0.0
    /// First rating → the first later-day reviews of the words that began with it, for
    /// pre-training the first stabilities.
    private(set) var firstIntervals: [Int: [(days: Double, recalled: Bool)]] = [:]

    init(_ sequences: [FSRSReviewSequence], maximumLength: Int) {
        self.sequences = sequences
        weights = sequences.map { [Double](repeating: 0, count: $0.count) }
        let removed = Self.outlierGroups(sequences)
        var items: [(time: Int64, sequence: Int, review: Int)] = []
        var targets = 0, recalled = 0
        for (index, sequence) in sequences.enumerated() {
            guard let first = sequence.firstLongTermIndex else { continue }
            let group = OutlierGroup(firstRating: sequence.ratings[0], days: Self.bucket(sequence.days[first]))
            if removed.contains(group) { continue }
            firstIntervals[group.firstRating, default: []].append((sequence.days[first], sequence.ratings[first] > 1))
            for review in first..<sequence.count where sequence.isTarget(review) {
                targets += 1
                recalled += sequence.ratings[review] > 1 ? 1 : 0
                // An item holds the review and its history: at most `maximumLength` reviews.
                if review < maximumLength { items.append((sequence.times[review], index, review)) }
            }
        }
        averageRecall = targets == 0 ? 0 : Double(recalled) / Double(targets)
        items.sort { ($0.time, $0.sequence, $0.review) < ($1.time, $1.sequence, $1.review) }
        let last = Double(max(items.count - 1, 1))
        for (rank, item) in items.enumerated() {
            weights[item.sequence][item.review] = 0.25 + 0.75 * Glibc.pow(Double(rank) / last, 3)
        }
        itemCount = items.count
    }

    /// A first rating and a first later-day interval (whole days, at least 1).
    struct OutlierGroup: Hashable {
        var firstRating: Int
        var days: Double

        init(firstRating: Int, days: Double) {
            self.firstRating = firstRating
            self.days = days
        }
    }

    static func bucket(_ days: Double) -> Double { max(days, 1).rounded(.down) }

    /// The (first rating, first interval) groups left out as outliers.
    static func outlierGroups(_ sequences: [FSRSReviewSequence]) -> Set<OutlierGroup> {
        var sizes: [Int: [Double: Int]] = [:]
        for sequence in sequences {
            guard let first = sequence.firstLongTermIndex else { continue }
            sizes[sequence.ratings[0], default: [:]][bucket(sequence.days[first]), default: 0] += 1
        }
        var removed = Set<OutlierGroup>()
        for (rating, groups) in sizes {
            // Smallest groups first (and, among equal sizes, the shorter interval first).
            let ordered = groups.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            let total = groups.values.reduce(0, +)
            var removedCount = 0
            for (days, size) in ordered {
                if removedCount + size >= max(20, total / 20) {
                    if size < 6 || days > (rating != 4 ? 100 : 365) { removed.insert(OutlierGroup(firstRating: rating, days: days)) }
                } else {
                    removedCount += size
                    removed.insert(OutlierGroup(firstRating: rating, days: days))
                }
            }
        }
        return removed
    }
}
