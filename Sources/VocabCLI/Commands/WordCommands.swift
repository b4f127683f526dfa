import FoundationEssentials
import VocabCore
import VocabSessions
import VocabDictionary

/// `vocab word ...`: add, list, show, edit, delete, (un)memorise and search words.
enum WordCommands {
    static let group = CommandGroup(name: "word", abstract: "Words:", commands: [
        add, list, show, edit, delete, memorize, unmemorize, search,
    ])

    private static let textFieldOptions = [
        OptionSpec("definition", short: "d", value: "TEXT", help: "What the word means."),
        OptionSpec("detail", value: "TEXT", help: "Notes, example sentences."),
        OptionSpec("pronunciation", value: "TEXT", help: "How to say it (e.g. IPA)."),
        OptionSpec("synonym", value: "TEXT", help: "Words with the same meaning."),
        OptionSpec("antonym", value: "TEXT", help: "Words with the opposite meaning."),
        OptionSpec("date", value: "DATE", help: "The date it was added (ISO 8601; default: now)."),
    ]

    static let add = Command(spec: CommandSpec(
        name: "word add", abstract: "Add a word to a book (without WORD: a form, one field per line).",
        arguments: [ArgumentSpec("WORD", optional: true, help: "The word, stored exactly as typed (trimmed).")],
        options: [.book] + textFieldOptions + [
            OptionSpec("memorized", help: "Mark it memorised at once."),
            OptionSpec("lookup", help: "Fill empty fields (definition, detail, pronunciation, synonym, antonym) from the dictionary."),
            .json,
        ],
        discussion: """
            --book may be left out when there is exactly one book. Without WORD, a form asks for each field:
            Enter on an empty line is Done, and a line ending in ? looks the word up and offers to fill the empty fields.
            """,
        examples: ["vocab word add abandon --book TOEIC --definition \"to leave behind\" --synonym desert --antonym keep",
                   "vocab word add serendipity --book TOEIC --lookup", "vocab word add --book TOEIC"]
    )) { arguments, context in
        let library = try context.library()
        let book = try resolveBookForAdding(arguments.value("book"), library: library)
        var form = WordForm()
        if let word = arguments.positionals.first {
            form[.word] = word
        } else {
            guard let filled = try EntryForm(context: context).run(bookName: book.name) else {
                context.console.print("No word given; nothing added.")
                return
            }
            form = filled
        }
        for field in WordField.allCases where field != .word {
            if let value = arguments.value(field.rawValue) { form[field] = value }
        }
        form.date = try arguments.value("date").map(FieldRules.date)
        form.memorized = arguments.flag("memorized")
        var note: String?
        if arguments.flag("lookup") {
            do {
                form.fill(from: try context.dictionary.lookUp(form[.word]))
            } catch DictionaryError.notFound(let word) {
                note = "\"\(word)\" is not in the dictionary; added as typed."
            }
        }
        let word = try form.save(to: library, bookId: book.id, now: try context.now())
        if arguments.flag("json") {
            context.console.print(word.json(bookName: book.name).pretty)
        } else {
            if let note { context.console.print(note) }
            let count = try library.wordCount(WordFilter(bookId: book.id))
            context.console.print("Added \"\(word.word)\" to \"\(book.name)\" (\(plural(count, "word")) now).")
        }
    }

    static let list = Command(spec: CommandSpec(
        name: "word list", abstract: "List words, of one book or of all.",
        options: [
            .book, OptionSpec("memorized", help: "Only memorised words."),
            OptionSpec("not-memorized", help: "Only words not yet memorised."),
            OptionSpec("limit", value: "N", help: "At most N words."),
            OptionSpec("offset", value: "N", help: "Skip the first N words (with --limit: pages)."), .json,
        ],
        discussion: "Words stream from the store as they are printed: a list of any size takes little memory."
    )) { arguments, context in
        if arguments.flag("memorized") && arguments.flag("not-memorized") {
            throw UsageError.conflictingOptions("--memorized", "--not-memorized")
        }
        let library = try context.library()
        let book = try arguments.value("book").map { try library.book($0) }
        var filter = WordFilter(bookId: book?.id)
        if arguments.flag("memorized") { filter.memorized = true }
        if arguments.flag("not-memorized") { filter.memorized = false }
        let limit = arguments.value("limit") != nil ? try number(arguments, "limit", default: 0) : nil
        let offset = try number(arguments, "offset", default: 0)
        try printWordRows({ body in try library.forEachWordRow(filter, limit: limit, offset: offset, body) },
                          showingBook: book == nil, json: arguments.flag("json"),
                          emptyMessage: book.map { "No words in \"\($0.name)\" yet. Add one: vocab word add WORD --book \(ShellQuote.quote($0.name))" }
                              ?? "No words yet.",
                          library: library, context: context)
    }

    static let show = Command(spec: CommandSpec(
        name: "word show", abstract: "Show every field of a word.",
        arguments: [ArgumentSpec("WORD", help: "The word's text or id.")],
        options: [.book, .json]
    )) { arguments, context in
        let library = try context.library()
        let word = try resolveWord(arguments, library: library)
        let bookName = try library.book(id: word.bookId)?.name ?? ""
        let schedule = try library.schedule(wordId: word.id)
        if arguments.flag("json") {
            guard case .object(var members) = word.json(bookName: bookName) else { return }
            members.append(("schedule", ScheduleJSON.value(schedule)))
            context.console.print(JSONValue.object(members).pretty)
            return
        }
        var rows: [(String, String)] = [("Word", word.word), ("Book", bookName)]
        let optional: [(String, String)] = [
            ("Definition", word.definition), ("Detail", word.detail), ("Pronunciation", word.pronunciation),
            ("Synonym", word.synonym), ("Antonym", word.antonym),
        ]
        rows += optional.filter { !$0.1.isEmpty }
        rows += [("Added", word.date.iso8601), ("Memorised", word.memorized ? "yes" : "no")]
        if let schedule {
            rows.append(("Study", "\(schedule.state.name), due \(schedule.due.iso8601), \(plural(schedule.reviews, "review")), "
                + "stability \(CFormat.string("%.2f", schedule.stability)) d, difficulty \(CFormat.string("%.2f", schedule.difficulty))"))
        } else {
            rows.append(("Study", "new (never reviewed)"))
        }
        rows.append(("Id", word.id.lowercaseText))
        FieldList.render(rows).forEach(context.console.print)
    }

    static let edit = Command(spec: CommandSpec(
        name: "word edit", abstract: "Change a word's fields, its text, or its book.",
        arguments: [ArgumentSpec("WORD", help: "The word's text or id.")],
        options: [.book, OptionSpec("word", value: "TEXT", help: "New text for the word.")] + textFieldOptions
            + [OptionSpec("move-to", value: "BOOK", help: "Move the word to another book."), .json],
        discussion: "Fields not given stay as they are; give an empty value (--detail \"\") to clear one."
    )) { arguments, context in
        let library = try context.library()
        let word = try resolveWord(arguments, library: library)
        var changes = WordChanges(word: arguments.value("word"), definition: arguments.value("definition"),
                                  detail: arguments.value("detail"), pronunciation: arguments.value("pronunciation"),
                                  synonym: arguments.value("synonym"), antonym: arguments.value("antonym"))
        changes.date = try arguments.value("date").map(FieldRules.date)
        changes.bookId = try arguments.value("move-to").map { try library.book($0).id }
        guard !changes.isEmpty else {
            throw UsageError.missingArgument(name: "a field to change (e.g. --definition TEXT)", command: "word edit")
        }
        let updated = try WordActions.edit(word.id, changes, in: library, now: try context.now())
        let bookName = try library.book(id: updated.bookId)?.name ?? ""
        if arguments.flag("json") {
            context.console.print(updated.json(bookName: bookName).pretty)
        } else {
            context.console.print(updated == word ? "\"\(word.word)\" already had those values." : "Updated \"\(updated.word)\" in \"\(bookName)\".")
        }
    }

    static let delete = Command(spec: CommandSpec(
        name: "word delete", abstract: "Delete a word.",
        arguments: [ArgumentSpec("WORD", help: "The word's text or id.")],
        options: [.book]
    )) { arguments, context in
        let library = try context.library()
        let word = try resolveWord(arguments, library: library)
        let bookName = try library.book(id: word.bookId)?.name ?? ""
        try WordActions.delete(word.id, from: library, now: try context.now())
        context.console.print("Deleted \"\(word.word)\" from \"\(bookName)\".")
    }

    static let memorize = memorizeCommand(name: "memorize", memorized: true, abstract: "Mark words as memorised.")
    static let unmemorize = memorizeCommand(name: "unmemorize", memorized: false, abstract: "Mark words as not memorised.")

    private static func memorizeCommand(name: String, memorized: Bool, abstract: String) -> Command {
        Command(spec: CommandSpec(
            name: "word \(name)", abstract: abstract,
            arguments: [ArgumentSpec("WORD", variadic: true, help: "One or more words (text or id).")],
            options: [.book]
        )) { arguments, context in
            let library = try context.library()
            let bookId = try arguments.value("book").map { try library.book($0).id }
            let words = try arguments.positionals.map { try library.word($0, inBook: bookId) }
            try WordActions.mark(words.map(\.id), memorized: memorized, in: library, now: try context.now())
            let list = words.map { "\"\($0.word)\"" }.joined(separator: ", ")
            context.console.print("Marked \(list) as \(memorized ? "memorised" : "not memorised").")
        }
    }

    static let search = Command(spec: CommandSpec(
        name: "word search", abstract: "Find words whose text or fields contain TEXT (ignoring case).",
        arguments: [ArgumentSpec("TEXT", help: "What to look for.")],
        options: [.book, OptionSpec("limit", value: "N", help: "At most N words (the best matches)."), .json],
        discussion: """
            Looks in the word, definition, detail, pronunciation, synonym and antonym. Best first: \
            the word itself (ignoring case and accents), words that start with TEXT, then the rest. \
            TEXT of three characters or more is found through the search index, in any script.
            """
    )) { arguments, context in
        let library = try context.library()
        let book = try arguments.value("book").map { try library.book($0) }
        let limit = arguments.value("limit") != nil ? try positiveNumber(arguments, "limit", default: 1) : nil
        let found = try library.searchWords(arguments.positionals[0], inBook: book?.id, limit: limit)
        try printWords({ body in try found.forEach(body) }, showingBook: book == nil, json: arguments.flag("json"),
                       emptyMessage: "Nothing matches \"\(arguments.positionals[0])\".", library: library, context: context)
    }

    // MARK: Shared pieces

    private static func resolveWord(_ arguments: ParsedArguments, library: Library) throws -> Word {
        let bookId = try arguments.value("book").map { try library.book($0).id }
        return try library.word(arguments.positionals[0], inBook: bookId)
    }

    private static func resolveBookForAdding(_ reference: String?, library: Library) throws -> Book {
        if let reference { return try library.book(reference) }
        let books = try library.bookSummaries()
        if books.count == 1, let only = books.first { return only.book }
        throw UsageError.missingArgument(
            name: books.isEmpty ? "--book (there are no books yet: vocab book add NAME)" : "--book BOOK (there are \(books.count) books)",
            command: "word add")
    }

    /// Prints words from `source` (called once per pass; it calls its argument for each word)
    /// as a table or a JSON array, streaming: JSON is written word by word, and the table reads
    /// the words twice (column widths, then rows) rather than keeping them.
    /// `printWords` for a list of any size: the rows written as bytes (`WordListWriter`), the
    /// same output without a `Word` made of each.
    private static func printWordRows(_ source: ((WordFieldsView) throws -> Void) throws -> Void, showingBook: Bool, json: Bool,
                                      emptyMessage: String, library: Library, context: AppContext) throws {
        var writer = WordListWriter(bookNames: try library.bookNames())
        let console = context.console
        var out: [UInt8] = []
        out.reserveCapacity(80 * 1024)
        var count = 0
        if json {
            try source { row in
                out.append(contentsOf: (count == 0 ? "[\n  " : ",\n  ").utf8)
                try writer.writeJSON(row, to: &out)
                count += 1
                if out.count >= 64 * 1024 { console.write(bytes: &out) }
            }
            console.write(bytes: &out)
            console.print(count == 0 ? "[]" : "\n]")
            return
        }
        let fields = WordFields.all.map(\.name)
        guard let word = fields.firstIndex(of: "word"), let definition = fields.firstIndex(of: "definition"),
              let memorized = fields.firstIndex(of: "memorized") else { return }
        let header = (showingBook ? ["BOOK"] : []) + ["WORD", "DEFINITION", "MEMORISED"]
        var widths = header.map { TextWidth.columns($0) }
        try source { row in
            try writer.widths(row, showingBook: showingBook, word: word, definition: definition, memorized: memorized, into: &widths)
            count += 1
        }
        guard count > 0 else {
            console.print(emptyMessage)
            return
        }
        WordListWriter.writeLine(header.map { WordListWriter.Cell(text: $0, most: .max) }, widths: widths, to: &out)
        try source { row in
            try writer.writeRow(row, showingBook: showingBook, word: word, definition: definition, memorized: memorized,
                                widths: widths, to: &out)
            if out.count >= 64 * 1024 { console.write(bytes: &out) }
        }
        console.write(bytes: &out)
        console.print("(\(plural(count, "word")))")
    }

    private static func printWords(_ source: ((Word) throws -> Void) throws -> Void, showingBook: Bool, json: Bool,
                                   emptyMessage: String, library: Library, context: AppContext) throws {
        let names = try library.bookNames()
        let console = context.console
        if json {
            var count = 0
            try source { word in
                let text = word.json(bookName: names[word.bookId]).pretty(level: 1)
                console.write((count == 0 ? "[\n  " : ",\n  ") + text)
                count += 1
            }
            console.print(count == 0 ? "[]" : "\n]")
            return
        }
        func cells(_ word: Word) -> [String] {
            (showingBook ? [TextWidth.fit(names[word.bookId] ?? "", width: 20)] : [])
                + [TextWidth.fit(word.word, width: 30), TextWidth.fit(word.definition, width: 50), word.memorized ? "yes" : ""]
        }
        var table = TextTable(header: (showingBook ? ["BOOK"] : []) + ["WORD", "DEFINITION", "MEMORISED"])
        var count = 0
        try source { word in
            table.widen(for: cells(word))
            count += 1
        }
        guard count > 0 else {
            console.print(emptyMessage)
            return
        }
        console.print(table.line(table.header))
        try source { word in console.print(table.line(cells(word))) }
        console.print("(\(plural(count, "word")))")
    }
}
