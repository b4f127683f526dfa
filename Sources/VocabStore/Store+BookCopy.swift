import FoundationEssentials
import VocabCore

extension Store {
    /// Copies the book `bookId` into a new book of the learner's own named `name`: its words
    /// with new ids, each with its memorised mark and its review log (new ids, the same times
    /// and ratings), so the learner's progress comes along; the copy is his to change.
    /// Returns the new book and how many words it holds.
    public func copyBook(_ bookId: UUID, named name: String, now: Timestamp = .now()) throws -> (book: Book, words: Int) {
        try write {
            guard let source = try book(id: bookId) else { throw VocabError.bookNotFound(bookId.storageText) }
            let copy = try addBook(BookDraft(name: name, explain: source.explain, meaning: source.meaning, image: source.image,
                                             coverWord: source.coverWord), now: now)
            var logs: [(wordId: UUID, records: [ReviewRecord])] = []
            let words = try self.words(WordFilter(bookId: bookId))
            for word in words {
                let made = try addWord(WordDraft(word: word.word, definition: word.definition, detail: word.detail,
                                                 pronunciation: word.pronunciation, synonym: word.synonym, antonym: word.antonym,
                                                 date: word.date, memorized: word.memorized), toBook: copy.id, now: now)
                let log = try reviewLog(wordId: word.id).map { review in
                    ReviewRecord(id: .timeOrdered(milliseconds: review.reviewedAt.milliseconds), wordId: made.id, reviewedAt: review.reviewedAt,
                                 rating: review.rating, durationMs: review.durationMs, gameId: nil, source: review.source)
                }
                if !log.isEmpty { logs.append((made.id, log)) }
            }
            if !logs.isEmpty { _ = try addReviewLogs(logs, scheduler: try scheduler()) }
            return (copy, words.count)
        }
    }
}
