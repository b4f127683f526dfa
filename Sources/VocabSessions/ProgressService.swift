import FoundationEssentials
import VocabCore
import VocabStore

/// The learner's progress report: one for every front end (the terminal's `stats`, the
/// window's Progress screen, the page's Progress page), made here once.
public enum ProgressService {
    /// The report over `days` study days (1 to `ProgressReport.maximumDays`) at `now`, for the
    /// books `bookIds` (nil or empty: every book; one the store does not have is refused). A
    /// span outside `ProgressReport.dayRange` is refused (`VocabError.daysOutOfRange`).
    public static func report(in library: Library, books bookIds: [UUID]?, days: Int = ProgressReport.defaultDays,
                              now: Timestamp, studyDay: StudyDay) throws -> ProgressReport {
        guard ProgressReport.dayRange.contains(days) else { throw VocabError.daysOutOfRange(days, ProgressReport.dayRange) }
        let store = library.store
        let summaries = try store.bookSummaries()
        let wanted = bookIds.flatMap { $0.isEmpty ? nil : Set($0) }
        let books = summaries.filter { wanted?.contains($0.book.id) ?? true }
        if let missing = wanted?.first(where: { id in !books.contains { $0.book.id == id } }) {
            throw VocabError.bookNotFound(missing.lowercaseText)
        }
        var tally = ProgressTally(now: now, studyDay: studyDay, days: days,
                                  scheduler: try store.learningSettings().scheduler, bookCount: books.count)
        try store.tallyProgress(&tally, books: books.map(\.book.id), onlyThese: wanted != nil)
        return tally.report(books: books.map { ($0.book.id, $0.book.name, $0.wordCount, $0.memorizedCount) })
    }
}
