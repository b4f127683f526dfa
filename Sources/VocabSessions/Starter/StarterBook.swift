import VocabCore
import VocabStore

/// The ready-made book of 300 common English words (WordNet 3.0), so a new user can play at
/// once — offered by `vocab starter`, the terminal's first run and the window's empty shelf.
public enum StarterBook {
    public static let name = "English Starter"

    /// Adds the starter book in one transaction; false when a book of that name exists.
    @discardableResult
    public static func add(to library: Library, now: Timestamp) throws -> Bool {
        let store = library.store
        return try store.transaction {
            if try store.book(named: name) != nil { return false }
            let book = try store.addBook(BookDraft(name: name, explain: "300 common English words with meanings, synonyms and antonyms",
                                                   meaning: "WordNet 3.0 Copyright 2006 by Princeton University"), now: now)
            for (word, definition, detail, synonym, antonym) in StarterWords.words {
                try store.addWord(WordDraft(word: word, definition: definition, detail: detail, synonym: synonym, antonym: antonym),
                                  toBook: book.id, now: now)
            }
            return true
        }
    }
}
