import FoundationEssentials
import VocabAnki
import VocabCore
import VocabStore

/// The app's side into the words, at a sync's end: each "Vocab word" note it sent becomes the
/// word's fields (a new one a new word, in the book of its card's deck), each entry of its log
/// a review of the word (so Progress counts it and the schedule follows it). Notes of other
/// types stay Anki's own. The words touched are stamped as mirrored, so nothing goes back to
/// the app that came from it.
extension AnkiKeptCollection {
    /// `keptAt`: when the app's objects were kept, for a reflect done after the sync's answer
    /// (`AnkiDeferral`); a word the learner changed (edited, deleted, reviewed) since keeps his
    /// change, and goes back to the app at its next sync.
    func reflect(_ session: AnkiSyncSession, keptAt: Timestamp? = nil) throws {
        let sent = { (kind: AnkiObjectKind) in try store.ankiObjects(kind, usnAtLeast: session.serverUsn).filter { $0.stamp == nil } }
        // The deck of each note the app sent a card of (its first card's), and that card.
        var deckOfNote: [Int64: (deck: Int64, order: Int64, card: AnkiObject)] = [:]
        for card in try sent(.card) {
            guard let row = card.row, row.count >= 18, let note = row[1].int64Value,
                  let deck = row[2].int64Value, let order = row[3].int64Value else { continue }
            if deckOfNote[note].map({ order < $0.order }) ?? true { deckOfNote[note] = (deck, order, card) }
        }
        var touched = Set<UUID>()
        // The cards now mirroring a word, with their note's guid (what a log entry's review is made of).
        var wordCards: [Int64: (word: UUID, guid: String)] = [:]
        var books: [Int64: UUID?] = [:]  // by deck, looked up (and made) once per sync
        var noteTypes = NoteTypeShapes(self)
        for note in try sent(.note) {
            guard let row = note.row, row.count >= 11, let noteId = row[0].int64Value,
                  let draft = try draft(ofNote: row, noteTypes: &noteTypes) else { continue }
            let wordId = note.source.flatMap { UUID(text: $0) } ?? AnkiWordShape.wordId(guid: row[1].stringValue ?? "")
            if let keptAt, try changedByLearner(wordId, since: keptAt) {
                try store.noteAnkiChanged(word: wordId)
                continue
            }
            let bookId = try deckOfNote[noteId].flatMap { entry in
                if let known = books[entry.deck] { return known }
                // A deck no book can be made of (its name not one Vocab takes): its notes stay the app's.
                let found: UUID?
                do { found = try book(ofDeck: entry.deck) } catch is VocabError { found = nil }
                books[entry.deck] = found
                return found
            }
            guard try takeNote(draft, as: wordId, book: bookId) else {
                // Not taken (a followed book's word): the next mirror sends the word back as it is.
                if try store.wordExists(id: wordId) { try store.noteAnkiChanged(word: wordId) }
                continue
            }
            touched.insert(wordId)
            try store.setAnkiMirror(.note, id: note.id, source: wordId.lowercaseText, stamp: note.stamp)
            if let card = try deckOfNote[noteId]?.card ?? store.ankiObject(.card, id: String(noteId)) {
                try store.setAnkiMirror(.card, id: card.id, source: wordId.lowercaseText, stamp: card.stamp)
                if let cardId = Int64(card.id) { wordCards[cardId] = (wordId, row[1].stringValue ?? "") }
            }
        }
        // The log a page at a time (a whole upload's is hundreds of thousands of entries).
        var after: (usn: Int64, id: String)?
        while true {
            let page = try store.ankiObjects(.revlog, usnAtLeast: session.serverUsn, after: after, limit: Self.logPage)
            guard let last = page.last else { break }
            after = (last.usn, last.id)
            touched.formUnion(try takeLog(page.filter { $0.stamp == nil }, wordCards: wordCards))
        }
        try renewStamps(of: touched, unlessChangedSince: keptAt)
    }

    /// Whether the learner wrote or deleted the word after `time` (a reflect left past its answer).
    private func changedByLearner(_ wordId: UUID, since time: Timestamp) throws -> Bool {
        if let word = try store.word(id: wordId) { return word.modifiedAt > time }
        return try store.wordWasDeleted(id: wordId)
    }

    /// How many log entries `reflect` reads and takes at once.
    static let logPage = 10_000

    /// The word a note's row stands for: a "Vocab word" note's fields as they are, another
    /// type's by the `.apkg` import's mapping of its field names (`AnkiNoteFields`); nil for a
    /// note that makes no word (its type unknown, a cloze without a deletion), which stays the
    /// app's own.
    private func draft(ofNote row: [JSONValue], noteTypes: inout NoteTypeShapes) throws -> WordDraft? {
        let fields = (row[6].stringValue ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        guard let typeId = row[2].int64Value else { return nil }
        if typeId == AnkiWordShape.noteTypeId { return AnkiWordShape.fields(ofNote: fields, tags: row[5].stringValue ?? "") }
        guard let shape = try noteTypes.shape(typeId) else { return nil }
        do {
            let values = try AnkiNoteFields.values(of: fields, targets: shape.targets, isCloze: shape.isCloze,
                                                   tags: (row[5].stringValue ?? "").split(separator: " ").map(String.init)) {
                HTMLText.plain($0).text
            }
            return WordDraft(word: values[.word] ?? "", definition: values[.definition] ?? "", detail: values[.detail] ?? "",
                             pronunciation: values[.pronunciation] ?? "", synonym: values[.synonym] ?? "", antonym: values[.antonym] ?? "")
        } catch {
            return nil
        }
    }

    /// Writes a note's word fields into its word (made when new, in `bookId`, its deck's book);
    /// false when it has no place (its deck unknown) or its word cannot be changed here (a
    /// followed book's).
    private func takeNote(_ draft: WordDraft, as wordId: UUID, book bookId: UUID?) throws -> Bool {
        do {
            if try store.wordExists(id: wordId) {
                // The store changes (and stamps) only the fields that differ; none, nothing.
                let changes = WordChanges(word: draft.word, definition: draft.definition, detail: draft.detail,
                                          pronunciation: draft.pronunciation, synonym: draft.synonym, antonym: draft.antonym,
                                          bookId: bookId)
                _ = try store.updateWord(id: wordId, changes, now: now)
                return true
            }
            guard !draft.word.isEmpty, let bookId else { return false }
            _ = try store.addWord(draft, toBook: bookId, id: wordId, now: now)
            return true
        } catch let error as VocabError {
            _ = error  // a followed book's word, a book gone: the app gets the word back as it is at the next sync
            return false
        }
    }

    /// The book a deck mirrors; a deck of the app's own becomes a book of its name (the one of
    /// that name when there is one).
    private func book(ofDeck id: Int64) throws -> UUID? {
        guard let deck = try store.ankiObject(.deck, id: String(id)) else { return nil }
        if let source = deck.source.flatMap({ UUID(text: $0) }), try store.book(id: source) != nil { return source }
        guard let name = deck.json?["name"]?.stringValue, !name.isEmpty else { return nil }
        let book = try store.book(named: name) ?? store.addBook(BookDraft(name: name), now: now)
        var kept = deck
        kept.source = book.id.lowercaseText
        try store.putAnkiObject(kept)
        return book.id
    }

    /// The app's log entries of words' cards, as the words' reviews (`wordCards`: the cards this
    /// sync made mirrors of words, known without a look-up); returns the words reviewed.
    private func takeLog(_ entries: [AnkiObject], wordCards: [Int64: (word: UUID, guid: String)]) throws -> Set<UUID> {
        var logs: [UUID: [ReviewRecord]] = [:]
        for entry in entries {
            let review = try self.review(of: entry, wordCards: wordCards)
            if let review { logs[review.wordId, default: []].append(review) }
            try store.setAnkiMirror(.revlog, id: entry.id, source: review?.id.lowercaseText ?? entry.source, stamp: "anki")
        }
        guard !logs.isEmpty else { return [] }
        // Each word's in the order they were made (a page is in the order of number and id).
        try store.addReviewLogs(logs.map { (wordId: $0.key, records: $0.value.sorted { $0.reviewedAt < $1.reviewedAt }) },
                                scheduler: try store.scheduler())
        return Set(logs.keys)
    }

    /// The review a log entry is of a word's card (its id made from the entry's, as the `.apkg`
    /// import makes it); nil for an entry of another note's card, or no answer (a reschedule).
    private func review(of entry: AnkiObject, wordCards: [Int64: (word: UUID, guid: String)]) throws -> ReviewRecord? {
        guard let row = entry.row, row.count >= 9, let id = row[0].int64Value,
              let cardId = row[1].int64Value, let rating = row[3].int64Value.flatMap({ Rating(rawValue: Int($0)) }),
              let (wordId, guid) = try wordCards[cardId] ?? wordCard(cardId)
        else { return nil }
        return ReviewRecord(id: UUID.derived(fromAnkiReview: id, noteGUID: guid), wordId: wordId, reviewedAt: Timestamp(milliseconds: id),
                            rating: rating, durationMs: row[7].int64Value, source: .study)
    }

    /// The word a card mirrors and its note's guid, from the store.
    private func wordCard(_ cardId: Int64) throws -> (word: UUID, guid: String)? {
        guard let card = try store.ankiObject(.card, id: String(cardId)), let wordId = card.source.flatMap({ UUID(text: $0) }),
              let noteId = card.number(at: 1),
              let guid = try store.ankiObject(.note, id: String(noteId))?.row?.dropFirst().first?.stringValue
        else { return nil }
        return (wordId, guid)
    }

    /// Stamps the notes of `words` with how the words stand now (so the next mirror leaves them),
    /// but a word changed or reviewed after `time`: the next mirror sends it as it is.
    private func renewStamps(of words: Set<UUID>, unlessChangedSince time: Timestamp?) throws {
        guard !words.isEmpty else { return }
        let standings = try store.ankiWordStandings(of: words)
        let decks = try deckIdsByBook()
        for wordId in words {
            guard let standing = standings[wordId], let deck = decks[standing.bookId.lowercaseText] else { continue }
            if let time, max(standing.modified, standing.lastReview) > time.milliseconds { continue }
            try store.setAnkiStamp(.note, source: wordId.lowercaseText, stamp: Self.stamp(standing, deck: deck))
        }
    }
}
