import FoundationEssentials
import VocabCore
import VocabStore

/// A word in Anki's shape, one rule for the `.apkg` export and for the collection an Anki app
/// syncs with: a "Vocab word" note (its fields the word's as HTML; a last "tags: …" line of the
/// detail back to being the note's tags), one card scheduled as the word is, and its reviews as
/// the log Anki keeps.
public enum AnkiWordShape {
    static let day: Int64 = 86_400_000

    /// The note type every word's note is of.
    public static let noteTypeId = AnkiCollectionSchema.noteTypeId

    /// When a collection made `now` was created (s): a year before today, so that every review
    /// card's due day counts from it.
    public static func created(now: Timestamp) -> Int64 {
        (now.milliseconds / day - 365) * 86_400
    }

    /// The note's fields (in the note type's order) and tags (Anki's `" a b "`, or empty).
    public static func note(_ word: Word) -> (fields: [String], tags: String) {
        var detail = word.detail
        var tags = ""
        // A last "tags: …" line (how Vocab keeps Anki's tags) goes back to being tags.
        if let range = detail.ranges(of: "tags: ").last,
           range.lowerBound == detail.startIndex || detail[detail.index(before: range.lowerBound)] == "\n",
           !detail[range.upperBound...].contains("\n") {
            tags = " " + detail[range.upperBound...].split(separator: " ").joined(separator: " ") + " "
            detail = String(detail[..<range.lowerBound]).trimming(while: \.isNewline)
        }
        return ([word.word, word.definition, detail, word.pronunciation, word.synonym, word.antonym].map(html), tags)
    }

    /// The word's fields from a note's (the inverse of `note`): HTML as plain text, tags as a
    /// last "tags: …" line of the detail.
    public static func fields(ofNote fields: [String], tags: String) -> WordDraft {
        func field(_ index: Int) -> String { index < fields.count ? HTMLText.plain(fields[index]).text : "" }
        var detail = field(2)
        let tagList = tags.split(separator: " ").joined(separator: " ")
        if !tagList.isEmpty { detail += (detail.isEmpty ? "" : "\n") + "tags: " + tagList }
        return WordDraft(word: field(0), definition: field(1), detail: detail, pronunciation: field(3), synonym: field(4),
                         antonym: field(5))
    }

    /// A note's checksum as Anki keeps it (the first 4 bytes of its first field's SHA-1).
    public static func checksum(_ firstField: String) -> Int64 {
        SHA1.hash(Array(HTMLText.plain(firstField).text.utf8)).prefix(4).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// A card's scheduling columns.
    public struct Card: Equatable, Sendable {
        public var type: Int64
        public var queue: Int64
        public var due: Int64
        public var interval: Int64
        public var factor: Int64
        public var reps: Int64
        public var lapses: Int64
        public var left: Int64
        public var data: String
    }

    /// The card of a word with `schedule` (nil: new, at `newPosition` in the new queue), in a
    /// collection created at `created` (s: review cards' due days count from it).
    public static func card(_ schedule: Schedule?, created: Int64, newPosition: Int64) -> Card {
        guard let schedule else { return Card(type: 0, queue: 0, due: newPosition, interval: 0, factor: 0, reps: 0, lapses: 0, left: 0, data: "") }
        let data = CFormat.string("{\"s\":%.4f,\"d\":%.4f}", schedule.stability, schedule.difficulty)
        let reps = Int64(schedule.reviews), lapses = Int64(schedule.lapses)
        switch schedule.state {
        case .review:
            let interval = max(1, (schedule.due.milliseconds - schedule.lastReview.milliseconds + day / 2) / day)
            let dueDay = (schedule.due.milliseconds / 1000 - created) / 86_400
            return Card(type: 2, queue: 2, due: dueDay, interval: interval, factor: 2500, reps: reps, lapses: lapses, left: 0, data: data)
        case .learning, .relearning:
            let interval = schedule.state == .relearning ? max(1, Int64(schedule.stability.rounded())) : 0
            return Card(type: schedule.state == .learning ? 1 : 3, queue: 1, due: schedule.due.milliseconds / 1000, interval: interval,
                        factor: 2500, reps: reps, lapses: lapses, left: 1001, data: data)
        }
    }

    /// One entry of Anki's review log.
    public struct LogEntry: Equatable, Sendable {
        public var review: ReviewRecord
        public var ease: Int64
        public var interval: Int64
        public var lastInterval: Int64
        public var factor: Int64
        public var time: Int64
        public var type: Int64
    }

    /// The log as Anki keeps it: the interval each answer gave (days, or negative seconds while
    /// learning) and the one before, replayed through FSRS as Vocab scheduled them.
    public static func log(_ reviews: [ReviewRecord], scheduler: FSRSScheduler) -> [LogEntry] {
        var current: Schedule?
        return reviews.map { review in
            let next = scheduler.review(current, rating: review.rating, at: review.reviewedAt)
            let type: Int64
            switch current?.state {
            case nil, .learning?: type = 0
            case .review?: type = 1
            case .relearning?: type = 2
            }
            defer { current = next }
            return LogEntry(review: review, ease: Int64(review.rating.rawValue), interval: interval(next),
                            lastInterval: current.map(interval) ?? 0, factor: next.state == .review ? 2500 : 0,
                            time: min(review.durationMs ?? 0, 60_000), type: type)
        }
    }

    private static func interval(_ schedule: Schedule) -> Int64 {
        let span = schedule.due.milliseconds - schedule.lastReview.milliseconds
        return schedule.state == .review ? max(1, (span + day / 2) / day) : -max(1, span / 1000)
    }

    /// Text as Anki field HTML: `&`, `<`, `>` escaped, line breaks as `<br>`.
    public static func html(_ text: String) -> String {
        text.replacingText("&", with: "&amp;").replacingText("<", with: "&lt;")
            .replacingText(">", with: "&gt;").replacingText("\n", with: "<br>")
    }
}

extension AnkiWordShape {
    /// The word a note stands for: its guid when that is a word's id, else an id made from it.
    public static func wordId(guid: String) -> UUID { AnkiNoteRecords.wordId(guid: guid) }
}
