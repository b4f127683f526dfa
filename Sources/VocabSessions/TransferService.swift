import FoundationEssentials
import VocabCore
import VocabSystem
import VocabStore
import VocabArchives
import VocabAnki

/// What an import did, with what the reader noticed.
public struct ImportOutcome: Sendable {
    public var summary: ImportSummary
    /// Columns the file had that Vocab does not know (ignored).
    public var unknownColumns: [String]
    /// What the reader decided about the file (no header row, Anki fields in order, …).
    public var notes: [String] = []
    /// An Anki package's note fields that went nowhere ("Audio (Basic)").
    public var fieldsNotCarried: [String] = []
    /// `[sound:…]` references dropped from Anki fields.
    public var droppedSounds = 0
    /// Reviews an Anki package's log added to Vocab's.
    public var reviewsAdded = 0
    /// Reviews of an Anki note's other cards (reverse cards), not carried.
    public var otherCardReviews = 0
    /// Reviews of Anki notes left out as invalid (no word to carry them to).
    public var leftOutNoteReviews = 0
    /// Books that took their Anki deck's description or cover image.
    public var decoratedBooks: [String] = []
}

/// The book an import puts the rows that name none into: one the caller holds (by id: the
/// same book even if it is renamed meanwhile), or a name (a new book when none has it).
public enum ImportBook: Sendable, Equatable, ExpressibleByStringLiteral {
    case id(UUID)
    case name(String)

    public init(stringLiteral name: String) { self = .name(name) }

    /// What a person typed: a book that exists by that name or id, else the name of a new one.
    public static func reference(_ text: String, in library: Library) throws -> ImportBook {
        let store = library.store
        do {
            return .id(try store.book(text).id)
        } catch VocabError.bookNotFound {
            return .name(text)
        }
    }
}

/// Importing and exporting word files for any front end, with progress and cancellation.
public enum TransferService {
    /// The format named, or the one the file's extension says.
    public static func format(named name: String?, fileName: String) throws -> WordFileFormat? {
        if let name { return name.lowercased() == "txt" ? .text : WordFileFormat(rawValue: name.lowercased()) }
        guard let format = WordFileFormat(fileName: fileName) else { throw ImportError.unknownFormat(fileName) }
        return format
    }

    /// Imports `path` ("-": standard input) into `store`: all or nothing, unless `skipInvalid`.
    /// A store that holds words is backed up first (`before-import`: an import may replace
    /// words). `progress` gets the rows read so far (and an Anki package's reviews carried so
    /// far); `isCancelled` is asked every 1,000 rows (and every batch of reviews).
    /// `layout` names the columns of a file without a header and its separators; an Anki deck
    /// column picks the book only when `defaultBook` is nil.
    public static func importFile(_ path: String, format: WordFileFormat, into library: Library, defaultBook: ImportBook?,
                                  layout: ImportLayout = ImportLayout(), backups: BackupPolicy = BackupPolicy(),
                                  skipInvalid: Bool, now: Timestamp, progress: (ImportProgress) -> Void = { _ in },
                                  isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> ImportOutcome {
        let store = library.store
        var layout = layout
        layout.deckPicksBook = defaultBook == nil
        if store.path != ":memory:", try store.wordCount() > 0 {
            try BackupService.take(library, reason: "before-import", policy: backups, now: now)
        }
        // Rows that name no book: into the caller's book by id, or a book of that name.
        var bookName: String?, bookId: UUID?
        switch defaultBook {
        case .id(let id)?:
            guard let book = try store.book(id: id) else { throw VocabError.bookNotFound(id.lowercaseText) }
            bookId = id
            bookName = format == .apkg ? book.name : nil  // Anki's notes carry a name; the rows of a file, the id
        case .name(let name)?:
            bookName = name
        case nil:
            break
        }
        if format == .xlsx || format == .apkg, path == "-" {
            throw ImportError.unknownFormat("an .xlsx workbook or Anki package from standard input (give its file name)")
        }
        // A missing or unreadable file says so alike for every format; a workbook is then read
        // through its own (random-access) zip reader.
        let stream = try FileReader(path: path)
        defer { stream.close() }
        if format == .apkg {
            let anki = try AnkiImport.run(path, into: store, defaultBook: bookName, fieldOverrides: layout.ankiFields,
                                          skipInvalid: skipInvalid, now: now, progress: progress, isCancelled: isCancelled)
            return ImportOutcome(summary: anki.summary, unknownColumns: [], notes: anki.notes, fieldsNotCarried: anki.fieldsNotCarried,
                                 droppedSounds: anki.droppedSounds,
                                 reviewsAdded: anki.reviewsAdded, otherCardReviews: anki.otherCardReviews,
                                 leftOutNoteReviews: anki.leftOutNoteReviews,
                                 decoratedBooks: anki.decorated)
        }
        var reader = format == .xlsx
            ? try WordFileReader(records: try XLSXSheet(path: path, sheet: layout.sheet), layout: layout)
            : try WordFileReader(stream, format: format, layout: layout)
        return try run(&reader, into: store, defaultBook: bookName, defaultBookId: bookId, skipInvalid: skipInvalid, now: now,
                       progress: { progress(.rows($0)) }, isCancelled: isCancelled)
    }

    private static func run(_ reader: inout WordFileReader, into store: Store, defaultBook: String?, defaultBookId: UUID?,
                            skipInvalid: Bool, now: Timestamp, progress: (Int) -> Void,
                            isCancelled: @escaping @Sendable () -> Bool) throws -> ImportOutcome {
        var importer = WordImporter(defaultBook: defaultBook, skipInvalid: skipInvalid, now: now)
        importer.defaultBookId = defaultBookId
        importer.isCancelled = isCancelled
        let summary = try importer.run(&reader, into: store, progress: progress)
        return ImportOutcome(summary: summary, unknownColumns: reader.unknownColumns, notes: reader.notes,
                             droppedSounds: reader.droppedSounds)
    }

    /// Writes the words (of one book, or all) to `write`, one line at a time after the header;
    /// returns how many words. `progress` gets the count every 1,000 words; `isCancelled`,
    /// asked as often, stops it with `ExportCancelled`.
    @discardableResult
    public static func export(from library: Library, bookId: UUID?, format: WordFileFormat, to write: (String) throws -> Void,
                              progress: (Int) -> Void = { _ in }, isCancelled: () -> Bool = { false }) throws -> Int {
        let store = library.store
        let names = try store.bookNames()
        let writer = WordFileWriter(format: format)
        if !writer.header.isEmpty { try write(writer.header) }
        var count = 0
        try store.forEachWord(WordFilter(bookId: bookId)) { word in
            try write(writer.line(for: word, bookName: names[word.bookId] ?? ""))
            count += 1
            if count % 1000 == 0 {
                if isCancelled() { throw ExportCancelled() }
                progress(count)
            }
        }
        return count
    }

    /// Exports into the file at `path`, which appears only when the whole export succeeded.
    @discardableResult
    public static func exportFile(_ path: String, from library: Library, bookId: UUID?, format: WordFileFormat,
                                  progress: (Int) -> Void = { _ in }, isCancelled: () -> Bool = { false }) throws -> Int {
        let store = library.store
        guard format != .xlsx else { throw WorkbookNotWritten() }
        if format == .apkg {
            return try AnkiExport.write(path, from: store, bookId: bookId, now: .now(), progress: { count in
                if isCancelled() { throw ExportCancelled() }
                progress(count)
            }).words
        }
        let file = try AtomicFile(path: path)
        let count = try export(from: library, bookId: bookId, format: format, to: file.write, progress: progress,
                               isCancelled: isCancelled)
        try file.commit()
        return count
    }
}

/// The user stopped an export; no file was written.
/// Vocab reads Excel workbooks but does not write them.
public struct WorkbookNotWritten: UserFacingError {
    public var category: ErrorCategory { .userInput }
    public var sentence: Sentence {
        Sentence("Vocab reads .xlsx workbooks but does not write them: export to .csv (Excel opens it); no file was written.")
    }
}

public struct ExportCancelled: UserFacingError {
    public var category: ErrorCategory { .userInput }
    public var sentence: Sentence { Sentence("Export cancelled; no file was written.") }
}
