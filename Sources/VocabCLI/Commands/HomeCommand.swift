import VocabCore
import VocabSessions

/// `vocab` alone: the books, their counts, and what to do next.
enum HomeCommand {
    static let command = Command(spec: CommandSpec(name: "", abstract: "Home: your books and what to do next."), run: run)

    static func run(_ arguments: ParsedArguments, _ context: AppContext) throws {
        let library = try context.library()
        var summaries = try library.bookSummaries()
        let console = context.console
        if summaries.isEmpty {
            console.print("Welcome to Vocab, a home for your word books (단어장).")
            console.print("Your books will be kept in \(library.path).")
            console.print("")
            if console.stdinIsTerminal,
               console.confirm("Add a starter book of \(StarterWords.words.count) common English words to play with right away?"),
               try StarterCommand.addStarterBook(to: library, now: try context.now()) {
                console.print("Added \"\(StarterCommand.bookName)\".")
                console.print("")
                summaries = try library.bookSummaries()
            } else {
                console.print("Try it at once:      vocab starter   (300 common English words, then `vocab game`)")
                console.print("Start your own book: vocab book add TOEIC --explain \"words for the exam\"")
                console.print("Then add words:      vocab word add abandon --book TOEIC --definition \"to leave behind\"")
                console.print("See every command:   vocab help")
                return
            }
        }
        let words = summaries.reduce(0) { $0 + $1.wordCount }
        let memorized = summaries.reduce(0) { $0 + $1.memorizedCount }
        let now = try context.now()
        let due = try library.dueCount(inBooks: nil, at: now)
        console.print("Vocab: \(plural(summaries.count, "book")), \(plural(words, "word")) (\(memorized) memorised), \(due) due for review")
        console.print("")
        var table = TextTable(header: ["BOOK", "WORDS", "MEMORISED", "ABOUT"])
        for summary in summaries {
            table.rows.append([TextWidth.fit(summary.book.name, width: 30), "\(summary.wordCount)",
                               "\(summary.memorizedCount)", TextWidth.fit(summary.book.explain, width: 40)])
        }
        table.render().forEach { console.print("  " + $0) }
        console.print("")
        let example = summaries.first { $0.wordCount == 0 } ?? summaries[0]
        let name = ShellQuote.quote(example.book.name)
        var next: [(String, String)]
        if example.wordCount == 0 {
            next = [("vocab word add WORD --book \(name) --definition \"...\"", "fill your empty book")]
        } else {
            next = [("vocab game --book \(name)", "play a test game"),
                    ("vocab study", due > 0 ? "review the \(plural(due, "word")) due" : "learn new words"),
                    ("vocab word add WORD --book \(name) --definition \"...\"", "add a word")]
        }
        next.append(("vocab help", "every command"))
        console.print("Next:")
        HelpColumns.rows(next, maxWidth: 64).forEach(console.print)
    }
}

func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// Quotes text for pasting into a shell command, only when it needs it.
enum ShellQuote {
    static func quote(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_./:@".unicodeScalars.contains(scalar)
        }
        if safe && !text.isEmpty { return text }
        return "'" + text.replacingText("'", with: "'\\''") + "'"
    }
}
