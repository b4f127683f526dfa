import FoundationEssentials
import VocabCore
import VocabSessions

/// `vocab import` and `vocab export`: moving word lists in and out.
enum TransferCommands {
    private static let format = OptionSpec("format", short: "f", value: "FORMAT",
                                           help: "csv, tsv, txt, xlsx, apkg or jsonl (default: from the file's extension).")

    static let importWords = Command(spec: CommandSpec(
        name: "import", abstract: "Import words from CSV, TSV, Excel, Anki packages, text (Anki, Quizlet) or JSON Lines.",
        arguments: [ArgumentSpec("FILE", help: "The file to read; - reads standard input (give --format).")],
        options: [
            OptionSpec("book", short: "b", value: "BOOK", help: "The book for rows that name none (created if missing)."),
            format,
            OptionSpec("columns", value: "LIST", help: "The columns of a file without a header, e.g. word,definition,detail."),
            OptionSpec("separator", value: "TEXT", help: "Between fields, one or more characters (e.g. \" - \"); quoting as in CSV."),
            OptionSpec("row-separator", value: "TEXT", help: "Between rows instead of line breaks (e.g. \";\")."),
            OptionSpec("sheet", value: "NAME", help: "The sheet of an .xlsx workbook to read (default: the first)."),
            OptionSpec("field", value: "ANKI=FIELD", repeatable: true,
                       help: "The word field an Anki package's field fills, e.g. Kanji=word or Audio=detail."),
            OptionSpec("skip-invalid", help: "Import the valid rows and list the rejected ones, instead of rejecting the file."),
        ],
        discussion: """
            The first line of CSV, TSV and text is a header naming the columns: word (required), definition,
            detail, pronunciation, synonym, antonym, date, memorized, book, id (others are reported and ignored;
            Front/Back, Term, Expression, Meaning, Example, Reading and Korean headings are understood too). A
            file without one: --columns names its columns; else a first line that names no column is read as
            word and definition, and the summary says so.
            Text (.txt): Anki's "Notes/Cards in Plain Text" exports are read by their #separator, #html,
            #columns and #… column lines (the deck picks the book unless --book is given, the guid makes a second
            import update the same words, HTML becomes text, tags go to the detail as a "tags:" line); other text
            is a Quizlet-style list, tab-separated unless --separator says otherwise. Excel (.xlsx): the first
            sheet (or --sheet NAME), read like CSV; numbers and dates come as text, dates as ISO dates. With --separator and
            --row-separator a field holding them is quoted as in CSV: "…", with "" for a quote.
            JSON Lines: one object per line with the same field names.
            Anki packages (.apkg, .colpkg; any version a current Anki writes): each deck becomes a book ("A::B"
            for a subdeck, or all go into --book), each note a word. Fields map by name (Front/Word/Expression →
            word, Back/Meaning → definition, Example/Sentence/Context → detail, Reading/IPA → pronunciation,
            Synonyms, Antonyms; --field NAME=FIELD overrides); others are listed as not carried. A cloze note's
            deletions become the word and its sentence the detail. Tags go to the detail as a "tags:" line. The
            first card's review log comes along, so `vocab study` carries on each word's schedule; a deck's
            description and first image fill its book's explanation and cover when the book has none. The note's
            guid keeps the word's id: importing the package again updates the words and adds no review twice.
            Importing is an upsert: by id when the row has one, else by book and word, so importing the same
            file twice changes nothing. By default one bad row rejects the whole file and nothing changes.
            """,
        examples: ["vocab import words.csv --book TOEIC", "vocab import notes.txt", "vocab import quizlet.txt --separator \" - \" --row-separator \";\"",
                   "vocab import list.txt --columns word,definition,detail", "vocab import deck.apkg",
                   "vocab import japanese.apkg --field Kanji=word --field Kana=pronunciation",
                   "vocab import - --format tsv < list.tsv"]
    )) { arguments, context in
        let path = arguments.positionals[0]
        let fileFormat = try chooseFormat(arguments.value("format"), fileName: path)
        let layout = try importLayout(arguments)
        let library = try context.library()
        let book = try arguments.value("book").map { try ImportBook.reference($0, in: library) }
        // Rows read, then (an Anki package) the share of its review log carried, on one line.
        let rows = ProgressLine("Importing…", console: context.console)
        let reviews = ProgressLine("Carrying Anki's review log…", unit: "%", kind: .share, console: context.console)
        let outcome: ImportOutcome
        do {
            defer {  // the line goes before the summary is printed, or the error
                rows.finish()
                reviews.finish()
            }
            outcome = try TransferService.importFile(path, format: fileFormat, into: library, defaultBook: book,
                                                     layout: layout, backups: context.paths.backupPolicy(), skipInvalid: arguments.flag("skip-invalid"),
                                                     now: try context.now()) { step in
                switch step {
                case .rows(let count): rows.update(count)
                case .reviews: reviews.update(Int((step.share ?? 1) * 100))
                }
            }
        }
        let summary = outcome.summary

        let console = context.console
        let source = path == "-" ? "standard input" : path
        console.print("Imported \(source): \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) unchanged.")
        for name in summary.createdBooks { console.print("Created book \"\(name)\".") }
        if !outcome.unknownColumns.isEmpty {
            console.print("Ignored unknown columns: \(outcome.unknownColumns.joined(separator: ", ")).")
        }
        for note in outcome.notes { console.print(note) }
        if !outcome.fieldsNotCarried.isEmpty {
            console.print("Anki fields not carried: \(outcome.fieldsNotCarried.joined(separator: ", ")) (map one with --field NAME=detail).")
        }
        if outcome.reviewsAdded > 0 {
            console.print("Carried \(plural(outcome.reviewsAdded, "review")) from Anki's log: `vocab study` continues each word's schedule.")
        }
        if outcome.otherCardReviews > 0 {
            console.print("Left out \(plural(outcome.otherCardReviews, "review")) of notes' other cards (reverse cards): a word keeps one log, its first card's.")
        }
        if outcome.leftOutNoteReviews > 0 {
            console.print("Left out \(plural(outcome.leftOutNoteReviews, "review")) of notes that were not imported (invalid, listed below).")
        }
        for name in outcome.decoratedBooks { console.print("Book \"\(name)\" took its deck's description or cover image.") }
        if outcome.droppedSounds > 0 {
            console.print("Dropped \(plural(outcome.droppedSounds, "[sound:…] reference")) (Vocab keeps no audio files; `vocab say` speaks a word).")
        }
        if !summary.rejected.isEmpty {
            console.print("Skipped \(plural(summary.rejected.count, "invalid line")):")
            for rejected in summary.rejected { console.print("  line \(rejected.line): \(rejected.reason)") }
        }
    }

    static let export = Command(spec: CommandSpec(
        name: "export", abstract: "Export words to CSV, TSV, JSON Lines, Anki text or an Anki package.",
        options: [
            .book, format,
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE (default: standard output)."),
        ],
        discussion: """
            CSV, TSV and JSON Lines hold every field, ids included, so `vocab import` reads the file back to the same
            words. Text (-o notes.txt) is Anki's "Notes in Plain Text" layout for Anki's File > Import: Basic notes
            whose Back holds the definition and the other fields, the book as the deck, and the word's id as the guid
            (a second import updates instead of duplicating).
            An Anki package (-o book.apkg) holds one deck per book (its explanation and cover as the description), a
            "Vocab word" note type with every field, each word's review log and its schedule as Anki cards: Anki's
            File > Import reads it with the history, and exporting again updates the same notes.
            """,
        examples: ["vocab export --book TOEIC -o toeic.csv", "vocab export --book TOEIC -o notes.txt", "vocab export --book TOEIC -o toeic.apkg", "vocab export --format jsonl > backup.jsonl"]
    )) { arguments, context in
        let output = arguments.value("output")
        let fileFormat: WordFileFormat
        if let name = arguments.value("format") {
            fileFormat = try chooseFormat(name, fileName: "")
        } else {
            fileFormat = output.flatMap { WordFileFormat(fileName: $0) } ?? .csv
        }
        guard fileFormat != .xlsx else {
            throw UsageError.invalidValue(option: "format", value: "xlsx",
                                          expected: "csv, tsv, txt or jsonl (Vocab reads .xlsx but does not write it; Excel opens CSV)")
        }
        let library = try context.library()
        let bookId = try arguments.value("book").map { try library.book($0).id }
        let console = context.console

        if fileFormat == .apkg, output == nil || output == "-" {
            throw UsageError.invalidValue(option: "format", value: "apkg", expected: "an output file for an Anki package (-o book.apkg)")
        }
        guard let output, output != "-" else {
            try TransferService.export(from: library, bookId: bookId, format: fileFormat, to: console.write)
            return
        }
        let count = try TransferService.exportFile(output, from: library, bookId: bookId, format: fileFormat)
        console.print("Exported \(plural(count, "word")) to \(output).")
    }

    private static func chooseFormat(_ name: String?, fileName: String) throws -> WordFileFormat {
        guard let format = try TransferService.format(named: name, fileName: fileName) else {
            throw UsageError.invalidValue(option: "format", value: name ?? "", expected: "csv, tsv, txt or jsonl")
        }
        return format
    }

    /// `--columns`, `--separator` and `--row-separator`, checked.
    private static func importLayout(_ arguments: ParsedArguments) throws -> ImportLayout {
        var layout = ImportLayout()
        if let list = arguments.value("columns") {
            let names = list.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
            var columns: [ImportColumn] = []
            for name in names {
                guard let column = ImportColumn(header: name) else {
                    throw UsageError.invalidValue(option: "columns", value: list,
                                                  expected: "column names separated by commas, such as word,definition,detail")
                }
                guard !columns.contains(column) else {
                    throw UsageError.invalidValue(option: "columns", value: list, expected: "each column once")
                }
                columns.append(column)
            }
            guard columns.contains(.word) else {
                throw UsageError.invalidValue(option: "columns", value: list, expected: "a list that includes word")
            }
            layout.columns = columns
        }
        for option in ["separator", "row-separator"] {
            if let text = arguments.value(option), text.isEmpty || text == "\"" {
                throw UsageError.invalidValue(option: option, value: text, expected: "one or more characters other than a lone \"")
            }
        }
        layout.sheet = arguments.value("sheet")
        for mapping in arguments.allValues("field") {
            let parts = mapping.split(separator: "=", maxSplits: 1).map { TextRules.clean(String($0)) }
            guard parts.count == 2, !parts[0].isEmpty, let field = WordField(rawValue: parts[1].lowercased()) else {
                throw UsageError.invalidValue(option: "field", value: mapping,
                                              expected: "ANKI_FIELD=word, definition, detail, pronunciation, synonym or antonym")
            }
            layout.ankiFields[parts[0]] = field
        }
        layout.separator = arguments.value("separator").map(unescapeSeparator)
        layout.rowSeparator = arguments.value("row-separator").map(unescapeSeparator)
        if let field = layout.separator, field == layout.rowSeparator ?? "\n" {
            throw UsageError.conflictingOptions("--separator", "--row-separator")
        }
        return layout
    }

    /// `\t` and `\n` typed on a command line stand for a tab and a line break.
    private static func unescapeSeparator(_ text: String) -> String {
        text.replacingText("\\t", with: "\t").replacingText("\\n", with: "\n")
    }
}
