import VocabCore
import VocabSessions
import VocabSystem

/// `vocab book ...`: create, list, show, edit, rename and delete word books.
enum BookCommands {
    static let group = CommandGroup(name: "book", abstract: "Word books:", commands: [add, list, show, edit, rename, delete])

    private static let fieldOptions = [
        OptionSpec("explain", value: "TEXT", help: "What the book is about."),
        OptionSpec("meaning", value: "TEXT", help: "What the book means to you."),
        OptionSpec("cover-word", value: "WORD", help: "A word to show on the book's cover."),
        OptionSpec("image", value: "FILE", help: "A cover image (PNG, JPEG, GIF or WebP, at most 1 MiB)."),
    ]

    static let add = Command(spec: CommandSpec(
        name: "book add", abstract: "Create a book.",
        arguments: [ArgumentSpec("NAME", help: "The book's name (unique, ignoring case).")],
        options: fieldOptions + [.json],
        examples: ["vocab book add TOEIC --explain \"words for the exam\" --image cover.png"]
    )) { arguments, context in
        var form = BookForm()
        form[.name] = arguments.positionals[0]
        form[.explain] = arguments.value("explain") ?? ""
        form[.meaning] = arguments.value("meaning") ?? ""
        form[.coverWord] = arguments.value("cover-word") ?? ""
        form.image = try arguments.value("image").map { .set(try BookForm.coverImage(at: $0)) }
        let library = try context.library()
        let book = try form.save(to: library, now: try context.now())
        if arguments.flag("json") {
            context.console.print(book.json(wordCount: 0, memorizedCount: 0).pretty)
        } else {
            context.console.print("Created book \"\(book.name)\". Add words: vocab word add WORD --book \(ShellQuote.quote(book.name))")
        }
    }

    static let list = Command(spec: CommandSpec(
        name: "book list", abstract: "List the books with their word counts.", options: [.json]
    )) { arguments, context in
        let library = try context.library()
        let summaries = try library.bookSummaries()
        let console = context.console
        if arguments.flag("json") {
            console.print(JSONValue.array(summaries.map { $0.book.json(wordCount: $0.wordCount, memorizedCount: $0.memorizedCount) }).pretty)
            return
        }
        guard !summaries.isEmpty else {
            console.print("No books yet. Create one: vocab book add NAME")
            return
        }
        // A book followed says whose it is first (its owner keeps it up to date).
        let followed = Dictionary(try library.sharedBooks().filter { !$0.ended }.map { ($0.bookId, $0.sharer) }, uniquingKeysWith: { first, _ in first })
        var table = TextTable(header: ["NAME", "WORDS", "MEMORISED", "ABOUT"])
        for summary in summaries {
            var about = summary.book.explain
            if let sharer = followed[summary.book.id] {
                about = (sharer.isEmpty ? "[shared]" : "[shared by \(sharer)]") + (about.isEmpty ? "" : " " + about)
            }
            table.rows.append([summary.book.name, "\(summary.wordCount)", "\(summary.memorizedCount)", TextWidth.fit(about, width: 50)])
        }
        table.render().forEach(console.print)
    }

    static let show = Command(spec: CommandSpec(
        name: "book show", abstract: "Show a book's fields and counts.",
        arguments: [ArgumentSpec("BOOK", help: "The book, by name or id.")],
        options: [.json, OptionSpec("save-image", value: "FILE", help: "Write the book's cover image to FILE.")]
    )) { arguments, context in
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        let summary = try library.bookSummary(id: book.id)
        if let path = arguments.value("save-image") {
            guard let image = book.image else { throw VocabError.noCoverImage(book: book.name) }
            try AtomicFile.replace(path, with: image)
        }
        let console = context.console
        if arguments.flag("json") {
            console.print(book.json(wordCount: summary.wordCount, memorizedCount: summary.memorizedCount, includeImage: true).pretty)
            return
        }
        var rows: [(String, String)] = [("Name", book.name), ("Id", book.id.lowercaseText)]
        if !book.explain.isEmpty { rows.append(("Explain", book.explain)) }
        if !book.meaning.isEmpty { rows.append(("Meaning", book.meaning)) }
        if !book.coverWord.isEmpty { rows.append(("Cover word", book.coverWord)) }
        if let image = book.image {
            rows.append(("Image", "\(book.imageKind?.rawValue.uppercased() ?? "unknown"), \(ByteCount.describe(image.count))"))
        }
        rows.append(("Words", "\(summary.wordCount) (\(summary.memorizedCount) memorised)"))
        rows.append(("Created", book.createdAt.iso8601))
        rows.append(("Modified", book.modifiedAt.iso8601))
        FieldList.render(rows).forEach(console.print)
    }

    static let edit = Command(spec: CommandSpec(
        name: "book edit", abstract: "Change a book's fields.",
        arguments: [ArgumentSpec("BOOK", help: "The book, by name or id.")],
        options: [OptionSpec("name", value: "NAME", help: "A new name (same as `vocab book rename`).")] + fieldOptions
            + [OptionSpec("remove-image", help: "Remove the cover image."), .json],
        discussion: "Fields not given stay as they are; give an empty value (--explain \"\") to clear one."
    )) { arguments, context in
        if arguments.value("image") != nil && arguments.flag("remove-image") {
            throw UsageError.conflictingOptions("--image", "--remove-image")
        }
        let given: [(BookField, String?)] = [(.name, arguments.value("name")), (.explain, arguments.value("explain")),
                                             (.meaning, arguments.value("meaning")), (.coverWord, arguments.value("cover-word"))]
        var image: BookChanges.ImageChange?
        if let path = arguments.value("image") { image = .set(try BookForm.coverImage(at: path)) }
        if arguments.flag("remove-image") { image = .remove }
        guard given.contains(where: { $0.1 != nil }) || image != nil else {
            throw UsageError.missingArgument(name: "a field to change (e.g. --explain TEXT)", command: "book edit")
        }
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        var form = BookForm(editing: book)
        for case let (field, value?) in given { form[field] = value }
        form.image = image
        let updated = try form.save(to: library, now: try context.now())
        if arguments.flag("json") {
            let summary = try library.bookSummary(id: updated.id)
            context.console.print(updated.json(wordCount: summary.wordCount, memorizedCount: summary.memorizedCount).pretty)
        } else {
            context.console.print(updated == book ? "Book \"\(book.name)\" already had those values." : "Updated book \"\(updated.name)\".")
        }
    }

    static let rename = Command(spec: CommandSpec(
        name: "book rename", abstract: "Rename a book; its words stay with it.",
        arguments: [ArgumentSpec("OLD", help: "The book, by name or id."), ArgumentSpec("NEW", help: "The new name.")]
    )) { arguments, context in
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        let updated = try BookActions.rename(book.id, to: arguments.positionals[1], in: library, now: try context.now())
        let count = try library.wordCount(WordFilter(bookId: book.id))
        context.console.print("Renamed \"\(book.name)\" to \"\(updated.name)\" (\(plural(count, "word")) kept).")
    }

    static let delete = Command(spec: CommandSpec(
        name: "book delete", abstract: "Delete a book and all its words.",
        arguments: [ArgumentSpec("BOOK", help: "The book, by name or id.")],
        options: [.yes],
        discussion: "A book that holds words is deleted only after you confirm (on a terminal) or with --yes, and after a backup\nof the store (undo with the `vocab backup restore TIME` line it prints)."
    )) { arguments, context in
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        let count = try library.wordCount(WordFilter(bookId: book.id))
        if count > 0 && !arguments.flag("yes") {
            let question = "Delete book \"\(book.name)\" and its \(plural(count, "word"))?"
            guard context.console.stdinIsTerminal else { throw CLIError.confirmationRequired(question) }
            guard context.console.confirm(question) else { throw CLIError.cancelled }
        }
        let (deleted, backup) = try BookDeletion.delete(bookId: book.id, from: library, policy: context.paths.backupPolicy(),
                                                        now: try context.now())
        context.console.print("Deleted book \"\(book.name)\" and \(plural(deleted, "word")).")
        if let backup { context.console.print("Undo: vocab backup restore \(backup.takenAt.iso8601)") }
    }
}

/// "Label: value" lines with aligned values; multi-line values are indented.
enum FieldList {
    static func render(_ rows: [(String, String)]) -> [String] {
        let width = (rows.map { $0.0.count }.max() ?? 0) + 2
        return rows.flatMap { label, value -> [String] in
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let head = TextWidth.pad(label + ":", to: width) + (lines.first ?? "")
            return [head] + lines.dropFirst().map { String(repeating: " ", count: width) + $0 }
        }
    }
}
