import VocabCore

/// A bound of the cloud that refused a request, in Vocab's words: the cloud's functions raise
/// it with SQLSTATE 53400 (an account's cap) or 54000 (a batch or a record too large) and the
/// values in the error's DETAIL (`devices 10`, `records 10 11`, …), so that PostgreSQL's own
/// text never reaches a device. `said`: what a Vocab server's answer said (already in Vocab's words).
public enum CloudLimit: Equatable, Sendable {
    /// The account has `most` devices signed in.
    case devicesSignedIn(most: Int)
    /// The account signed in `most` new devices in the last hour.
    case devicesThisHour(most: Int)
    /// The account may hold `most` records; the push would make `wouldBe`.
    case records(most: Int64, wouldBe: Int64)
    /// The account may hold `most` bytes; the push would make `wouldBe`.
    case bytes(most: Int64, wouldBe: Int64)
    /// A batch may hold `most` bytes; this one holds `size`.
    case batch(most: Int64, size: Int64)
    /// A record of `kind` of `size` bytes is larger than its kind may be.
    case record(kind: String, size: Int64)
    /// A refusal whose values could not be read (a cloud older than this Vocab).
    case unknown
    /// What a Vocab server said of the refusal.
    case said(String)

    /// The limit the cloud's DETAIL names (`kind value…`), or `.unknown`.
    public init(detail: String) {
        let words = detail.split(separator: " ").map(String.init)
        let numbers = words.dropFirst().compactMap { Int64($0) }
        switch (words.first, numbers.count) {
        case ("devices", 1): self = .devicesSignedIn(most: Int(numbers[0]))
        case ("hourly", 1): self = .devicesThisHour(most: Int(numbers[0]))
        case ("records", 2): self = .records(most: numbers[0], wouldBe: numbers[1])
        case ("bytes", 2): self = .bytes(most: numbers[0], wouldBe: numbers[1])
        case ("batch", 2): self = .batch(most: numbers[0], size: numbers[1])
        case ("record", _) where words.count == 3 && Int64(words[2]) != nil: self = .record(kind: words[1], size: Int64(words[2]) ?? 0)
        default: self = .unknown
        }
    }

    /// The values as the cloud's DETAIL says them (what `init(detail:)` reads; a device reads
    /// it from a server's refusal to word the limit itself); nil for one it cannot say.
    public var detail: String? {
        switch self {
        case .devicesSignedIn(let most): return "devices \(most)"
        case .devicesThisHour(let most): return "hourly \(most)"
        case .records(let most, let wouldBe): return "records \(most) \(wouldBe)"
        case .bytes(let most, let wouldBe): return "bytes \(most) \(wouldBe)"
        case .batch(let most, let size): return "batch \(most) \(size)"
        case .record(let kind, let size) where !kind.contains(" "): return "record \(kind) \(size)"
        default: return nil
        }
    }

    /// Whether it refuses a new device (not a push).
    public var isAboutDevices: Bool {
        switch self {
        case .devicesSignedIn, .devicesThisHour: return true
        default: return false
        }
    }

    public var sentence: Sentence {
        switch self {
        case .devicesSignedIn(let most):
            return Sentence("the account has %@ devices signed in, the most it may have: sign one out first", .number(most))
        case .devicesThisHour(let most):
            return Sentence("the account signed in %@ new devices in the last hour, the most it may: try again later", .number(most))
        case .records(let most, let wouldBe):
            return Sentence("the account may hold %@ records, and these changes would make it %@", .number(Int(most)), .number(Int(wouldBe)))
        case .bytes(let most, let wouldBe):
            return Sentence("the account may hold %@ bytes, and these changes would make it %@", .number(Int(most)), .number(Int(wouldBe)))
        case .batch(let most, let size):
            return Sentence("a batch of changes may hold %@, and this one holds %@", .bytes(Int(most)), .bytes(Int(size)))
        case .record(let kind, let size):
            return Sentence("a %@ of %@ is larger than a %@ may be", .text(kind), .bytes(Int(size)), .text(kind))
        case .unknown:
            return Sentence("the account is past one of its limits")
        case .said(let text):
            return Sentence("%@", .text(text))
        }
    }
}
