import VocabCore
import VocabSessions

/// `vocab starter`: adds a ready-made book of common English words, so a new user can play at once.
enum StarterCommand {
    static let bookName = StarterBook.name

    static let command = Command(spec: CommandSpec(
        name: "starter", abstract: "Add a starter book of 300 common English words (from WordNet 3.0).",
        options: [OptionSpec("licence", help: "Show WordNet's licence notice.")],
        discussion: "Definitions, examples, synonyms and antonyms come from WordNet 3.0 (Princeton University); see --licence."
    )) { arguments, context in
        if arguments.flag("licence") {
            context.console.print("The starter book is made from WordNet 3.0.\n\n" + StarterWords.licence)
            return
        }
        let library = try context.library()
        let added = try addStarterBook(to: library, now: try context.now())
        context.console.print(added
            ? "Added the book \"\(bookName)\" with \(StarterWords.words.count) words. Play: vocab game --book '\(bookName)'"
            : "The book \"\(bookName)\" is already here. Play: vocab game --book '\(bookName)'")
    }

    /// Adds the starter book in one transaction; false when a book of that name exists.
    static func addStarterBook(to library: Library, now: Timestamp) throws -> Bool {
        try StarterBook.add(to: library, now: now)
    }
}
