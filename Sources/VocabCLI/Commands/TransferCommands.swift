import Foundation
import VocabCore
import VocabStore
import VocabSessions

/// `vocab import` and `vocab export`: moving word lists in and out.
enum TransferCommands {
    private static let format = OptionSpec("format", short: "f", value: "FORMAT",
                                           help: "csv, tsv or jsonl (default: from the file's extension).")

    static let importWords = Command(spec: CommandSpec(
        name: "import", abstract: "Import words from a CSV, TSV or JSON Lines file.",
        arguments: [ArgumentSpec("FILE", help: "The file to read; - reads standard input (give --format).")],
        options: [
            OptionSpec("book", short: "b", value: "BOOK", help: "The book for rows that name none (created if missing)."),
            format,
            OptionSpec("skip-invalid", help: "Import the valid rows and list the rejected ones, instead of rejecting the file."),
        ],
        discussion: """
            The first line of CSV and TSV is a header naming the columns: word (required), definition, detail,
            pronunciation, synonym, antonym, date, memorized, book, id (others are reported and ignored).
            JSON Lines: one object per line with the same field names.
            Importing is an upsert: by id when the row has one, else by book and word, so importing the same
            file twice changes nothing. By default one bad row rejects the whole file and nothing changes.
            """,
        examples: ["vocab import words.csv --book TOEIC", "vocab import backup.jsonl", "vocab import - --format tsv < list.tsv"]
    )) { arguments, context in
        let path = arguments.positionals[0]
        let fileFormat = try chooseFormat(arguments.value("format"), fileName: path)
        let store = try context.store()
        if try store.wordCount() > 0 {
            // An import may replace words (it is an upsert): a copy of the store first.
            try BackupService.take(store, reason: "before-import", policy: context.paths.backupPolicy(),
                                   now: try context.now())
        }
        let progress = ProgressLine("Importing…", console: context.console)
        let outcome: ImportOutcome
        do {
            outcome = try TransferService.importFile(path, format: fileFormat, into: store, defaultBook: arguments.value("book"),
                                                     skipInvalid: arguments.flag("skip-invalid"), now: try context.now(),
                                                     progress: progress.update)
        } catch {
            progress.finish()
            throw error
        }
        progress.finish()
        let summary = outcome.summary

        let console = context.console
        let source = path == "-" ? "standard input" : path
        console.print("Imported \(source): \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) unchanged.")
        for name in summary.createdBooks { console.print("Created book \"\(name)\".") }
        if !outcome.unknownColumns.isEmpty {
            console.print("Ignored unknown columns: \(outcome.unknownColumns.joined(separator: ", ")).")
        }
        if !summary.rejected.isEmpty {
            console.print("Skipped \(plural(summary.rejected.count, "invalid line")):")
            for rejected in summary.rejected { console.print("  line \(rejected.line): \(rejected.reason)") }
        }
    }

    static let export = Command(spec: CommandSpec(
        name: "export", abstract: "Export words to CSV, TSV or JSON Lines.",
        options: [
            .book, format,
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE (default: standard output)."),
        ],
        discussion: "Every field is written, ids included, so `vocab import` reads the file back to the same words.",
        examples: ["vocab export --book TOEIC -o toeic.csv", "vocab export --format jsonl > backup.jsonl"]
    )) { arguments, context in
        let output = arguments.value("output")
        let fileFormat: WordFileFormat
        if let name = arguments.value("format") {
            fileFormat = try chooseFormat(name, fileName: "")
        } else {
            fileFormat = output.flatMap { WordFileFormat(fileName: $0) } ?? .csv
        }
        let store = try context.store()
        let bookId = try arguments.value("book").map { try store.book($0).id }
        let console = context.console

        guard let output, output != "-" else {
            try TransferService.export(from: store, bookId: bookId, format: fileFormat, to: console.write)
            return
        }
        let count = try TransferService.exportFile(output, from: store, bookId: bookId, format: fileFormat)
        console.print("Exported \(plural(count, "word")) to \(output).")
    }

    private static func chooseFormat(_ name: String?, fileName: String) throws -> WordFileFormat {
        guard let format = try TransferService.format(named: name, fileName: fileName) else {
            throw UsageError.invalidValue(option: "format", value: name ?? "", expected: "csv, tsv or jsonl")
        }
        return format
    }
}
