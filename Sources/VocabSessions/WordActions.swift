import FoundationEssentials
import VocabCore
import VocabStore

/// Changes to words that every front end makes alike, beside the form's Done (`WordForm`): a
/// delete, the memorised mark, some fields changed at once. Each is all or nothing.
public enum WordActions {
    /// Deletes the word and its reviews; false when it was already gone (sent twice, or
    /// deleted on another device meanwhile), which is no error.
    @discardableResult
    public static func delete(_ id: UUID, from library: Library, now: Timestamp) throws -> Bool {
        let store = library.store
        return try store.transaction {
            guard try store.word(id: id) != nil else { return false }
            try store.deleteWord(id: id, now: now)
            return true
        }
    }

    /// Marks every word of `ids` memorised, or not: all of them or none.
    public static func mark(_ ids: [UUID], memorized: Bool, in library: Library, now: Timestamp) throws {
        let store = library.store
        try store.transaction {
            for id in ids { _ = try store.updateWord(id: id, WordChanges(memorized: memorized), now: now) }
        }
    }

    /// Turns the word's memorised mark over; nil when the word is gone.
    @discardableResult
    public static func toggleMemorized(_ id: UUID, in library: Library, now: Timestamp) throws -> Word? {
        let store = library.store
        return try store.transaction {
            guard let word = try store.word(id: id) else { return nil }
            return try store.updateWord(id: id, WordChanges(memorized: !word.memorized), now: now)
        }
    }

    /// Changes the fields `changes` gives (its text, its book, its date...), the rest kept.
    public static func edit(_ id: UUID, _ changes: WordChanges, in library: Library, now: Timestamp) throws -> Word {
        try library.store.updateWord(id: id, changes, now: now)
    }
}

/// Reviews every front end records alike: one graded now, or those a device made offline.
public enum ReviewRecording {
    /// How far ahead of this clock a device's review may be dated (its clock may run a little
    /// fast); a review dated later is refused.
    public static let secondsAhead: Double = 300

    /// Whether a review a device made at `time` may be recorded `now`.
    public static func accepts(_ time: Timestamp, now: Timestamp) -> Bool {
        time <= now.adding(seconds: secondsAhead)
    }

    /// Records one review of the word (`source`: how it was studied); returns its new schedule.
    public static func record(_ wordId: UUID, rating: Rating, at time: Timestamp, source: ReviewSource, in library: Library) throws -> Schedule {
        var ids = TimeOrderedIDs()
        return try library.store.recordReview(wordId: wordId, rating: rating, at: time, source: source, ids: &ids)
    }

    /// Adds reviews a device made (each with its own id and time), by word; reviews of words
    /// deleted meanwhile (on another device) have nowhere to go and are left out. Returns how
    /// many were added (one already there is not added again).
    public static func add(_ byWord: [UUID: [ReviewRecord]], to library: Library) throws -> Int {
        let store = library.store
        return try store.transaction {
            let known = try byWord.keys.filter { try store.word(id: $0) != nil }
            return try store.addReviewLogs(known.map { ($0, byWord[$0] ?? []) }, scheduler: try store.scheduler())
        }
    }
}
