import FoundationEssentials
import VocabAnki
import VocabCloudAPI
import VocabCore
import VocabStore

/// A full upload: an app's whole collection takes the place of the kept one, as on Anki's own
/// server, and the words follow it. Every note it holds is brought into the words as a normal
/// sync's are (a "Vocab word" note its word, another type's by its fields' names); a word no
/// note of it stands for is deleted (a followed book's comes back at the next sync), and a book
/// left with no word and no deck too. The words it is about to delete are handed to
/// `beforeDeleting` first (still in the store), which keeps them where they can be brought back.
extension AnkiKeptCollection {
    /// Replaces the kept collection with `upload`; returns how many words it deleted.
    public func replace(with upload: AnkiUploadedCollection, beforeDeleting: ([UUID]) throws -> Void) throws -> Int {
        // A whole collection: hundreds of thousands of rows, with the page cache of a bulk change,
        // counted once after.
        try store.withAnkiBulkChange(cacheMegabytes: Self.uploadCacheMegabytes) {
            let before = Set(try store.ankiWordStandings().keys)
            try store.clearAnkiCollection()
            try store.setAnkiPendingWork(nil)  // what the collection it replaces left stands no more
            // Its stamps and objects as it sent them (many to a statement): the app's next `meta`
            // finds nothing to do.
            let state = AnkiCollectionState(usn: upload.usn, modified: upload.modified, schema: upload.schema, created: upload.created)
            try store.saveAnkiCollection(state)
            var batch = AnkiObjectBatch(store: store)
            try upload.forEachObject { kind, id, body in
                let usn = AnkiWire.usn(of: body, kind: kind) ?? upload.usn
                try batch.put(AnkiObject(kind: kind, id: id, usn: usn, body: body.compact))
            }
            try batch.flush()
            try reflect(AnkiSyncSession(key: "", serverUsn: Int64.min, clientUsn: 0, clientNewer: true))
            var deleted = 0, doomed: [UUID] = [], kept: [UUID] = []
            let held = Set(try store.ankiMirrors(.note).keys), followed = try store.followedBookIds()
            for wordId in before where !held.contains(wordId.lowercaseText) {
                guard let word = try store.word(id: wordId) else { continue }
                if followed.contains(word.bookId) { kept.append(wordId) } else { doomed.append(wordId) }  // a followed book's: sent back
            }
            if !doomed.isEmpty { try beforeDeleting(doomed) }
            for wordId in doomed {
                do {
                    try store.deleteWord(id: wordId, now: now)
                    deleted += 1
                } catch is VocabError {
                    kept.append(wordId)
                }
            }
            let decks = Set(try store.ankiMirrors(.deck).keys)
            var deckless: [UUID] = []
            for summary in try store.bookSummaries() where !decks.contains(summary.book.id.lowercaseText) {
                guard summary.wordCount == 0 else {
                    deckless.append(summary.book.id)  // a followed book's words: its deck again
                    continue
                }
                do { _ = try store.deleteBook(id: summary.book.id, now: now) } catch is VocabError { deckless.append(summary.book.id) }
            }
            // The words written here are the collection's own: nothing to mirror back but the
            // followed books' words it lacks, and the decks of the books it lacks.
            try store.clearAnkiChanged()
            for wordId in kept { try store.noteAnkiChanged(word: wordId) }
            for bookId in deckless { try store.noteAnkiChanged(book: bookId) }
            return deleted
        }
    }

    /// The page cache of a whole upload's bulk change (an import's).
    static let uploadCacheMegabytes = 24
}
