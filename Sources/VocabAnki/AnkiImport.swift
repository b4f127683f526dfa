import FoundationEssentials
import VocabCore
import VocabStore

/// What importing an Anki package did, beyond the words.
public struct AnkiImportOutcome: Sendable {
    public var summary: ImportSummary
    /// What the reader decided (fields mapped by position, fields not carried, …).
    public var notes: [String]
    /// Fields of the note types that went nowhere ("Audio (Basic)").
    public var fieldsNotCarried: [String]
    public var droppedSounds: Int
    /// Reviews added to the log (a second import of the same package adds none).
    public var reviewsAdded: Int
    /// Reviews of a note's other cards (reverse cards): not carried, one log per word.
    public var otherCardReviews: Int
    /// Reviews of notes that made no word (invalid notes left out): not carried, and counted.
    public var leftOutNoteReviews: Int
    /// Books that took a cover image or description from their deck.
    public var decorated: [String]
}

/// Imports an `.apkg` or `.colpkg`: every note becomes a word (through the same importer as a
/// word file: one transaction, all or nothing unless `skipInvalid`), its first card's review
/// log becomes the word's (so its FSRS schedule carries on), and each deck's description and
/// first image fill its book's explanation and cover when the book has none.
public enum AnkiImport {
    /// Imports the package at `path`; `fieldOverrides` maps Anki field names to word fields
    /// (`--field`). `progress` gets the notes read so far, then the reviews of the log carried
    /// so far; `isCancelled` is asked every 1,000 notes and every 2,000 notes' logs.
    public static func run(_ path: String, into store: Store, defaultBook: String?,
                           fieldOverrides: [String: WordField] = [:], skipInvalid: Bool, now: Timestamp,
                           progress: (ImportProgress) -> Void = { _ in },
                           isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> AnkiImportOutcome {
        let package = try AnkiPackage(path: path)
        let collection = try AnkiCollection(database: package.collection, path: path)
        let usedNoteTypes = Set(try AnkiPackageError.readingCollection(of: path) {
            try collection.database.query("SELECT DISTINCT mid FROM notes") { $0.int(0) }
        })
        guard !usedNoteTypes.isEmpty else { throw ImportError.emptyFile }
        let fieldMap = try AnkiFieldMap(noteTypes: collection.noteTypes, overrides: fieldOverrides, usedNoteTypes: usedNoteTypes)
        let records = AnkiNoteRecords(collection: collection, fieldMap: fieldMap, defaultBook: defaultBook)
        var reader = try WordFileReader(records: records, layout: ImportLayout(deckPicksBook: false))
        var importer = WordImporter(defaultBook: defaultBook, skipInvalid: skipInvalid, now: now)
        importer.isCancelled = isCancelled
        var reviews = (added: 0, otherCards: 0, leftOut: 0)
        var decorated: [String] = []
        // Anki's log is read (and sorted by note) on a thread of its own from the start, beside
        // the words; it goes in inside the importer's transaction, under its import cache.
        let logs = BackgroundBatches<NoteLogBatch> { [file = collection.database.path] hand in
            try NoteLogBatch.read(collectionAt: file, of: path, batchSize: 2_000, hand: hand)
        }
        defer { logs.finish() }
        let reviewCount = try collection.reviewCount()
        // `afterWords` runs before `run` returns: `progress` does not really escape.
        let summary = try withoutActuallyEscaping(progress) { progress in
            try importer.run(&reader, into: store, progress: { progress(.rows($0)) }) { inserted in
                reviews = try carryReviews(logs, records: records, newWords: inserted, into: store) { done in
                    if isCancelled() { throw ImportError.cancelled }
                    progress(.reviews(done: done, total: reviewCount))
                }
                decorated = try decorateBooks(from: collection, package: package, defaultBook: defaultBook, store: store, now: now)
            }
        }
        var notes = fieldMap.notes
        if package.version == 3 { notes.append("Read the package's current collection (collection.anki21b), not its placeholder.") }
        return AnkiImportOutcome(summary: summary, notes: notes, fieldsNotCarried: fieldMap.notCarried, droppedSounds: records.droppedSounds,
                                 reviewsAdded: reviews.added, otherCardReviews: reviews.otherCards,
                                 leftOutNoteReviews: reviews.leftOut, decorated: decorated)
    }

    /// Adds each note's first-card reviews to its word's log (ids derived from the note's guid
    /// and the review's, so a second import adds nothing) and re-derives the schedules.
    /// `logs`: the notes' logs as records, read on a second thread (its own connection to the
    /// collection) while this one writes the batch before. `newWords`: notes' words this import
    /// added, with their keys (no need to look them up). `step` gets the reviews gone through, before the first
    /// batch and after each (what it throws ends the import). Returns the reviews added and
    /// those of other cards passed over.
    private static func carryReviews(_ logs: BackgroundBatches<NoteLogBatch>, records: AnkiNoteRecords, newWords: [UUID: Int64],
                                     into store: Store, step: (Int) throws -> Void) throws -> (added: Int, otherCards: Int, leftOut: Int) {
        let scheduler = try store.scheduler()
        var added = 0, otherCards = 0, read = 0, leftOut = 0
        try step(read)
        while let batch = try logs.next() {
            otherCards += batch.otherCards
            var resolved: [(wordId: UUID, records: [ReviewRecord])] = []
            resolved.reserveCapacity(batch.notes.count)
            for note in batch.notes {
                if newWords[note.wordId] != nil {
                    resolved.append((note.wordId, note.records))
                } else if let target = try word(ofNote: note.noteId, guid: note.guid, records: records, store: store) {
                    let moved = target == note.wordId ? note.records
                        : note.records.map { var record = $0; record.wordId = target; return record }
                    resolved.append((target, moved))
                } else {
                    leftOut += note.records.count
                }
            }
            added += try store.addReviewLogs(resolved, scheduler: scheduler, knownKeys: newWords)
            read += batch.reviewsRead
            try step(read)
        }
        return (added, otherCards, leftOut)
    }

    /// The word a note became: by the id its guid stands for, or (when the import matched an
    /// existing word by its text instead) by book and text; nil when the note was skipped.
    private static func word(ofNote id: Int64, guid: String, records: AnkiNoteRecords, store: Store) throws -> UUID? {
        let wordId = AnkiNoteRecords.wordId(guid: guid)
        if try store.wordExists(id: wordId) { return wordId }
        guard let record = try records.record(ofNote: id), let book = try store.book(named: record[1]),
              // A word text the rules refuse made no word: the note was left out (and counted).
              let text = try? FieldRules.requiredLine(record[2], field: "word", limit: FieldRules.maxWordLength),
              let word = try store.wordWithExactText(text, inBook: book.id) else { return nil }
        return word.id
    }

    /// Gives each book its deck's description (as text) and first image, where the book has
    /// no explanation or cover of its own. Returns the books changed.
    private static func decorateBooks(from collection: AnkiCollection, package: AnkiPackage, defaultBook: String?,
                                      store: Store, now: Timestamp) throws -> [String] {
        let deckIds = try collection.database.query("""
            SELECT DISTINCT CASE WHEN c.odid != 0 THEN c.odid ELSE c.did END FROM cards c
            """) { $0.int(0) }
        var changed: [String] = []
        for deckId in deckIds.sorted() {
            guard let deck = collection.decks[deckId], !deck.description.isEmpty,
                  let book = try store.book(named: defaultBook ?? deck.name) else { continue }
            var changes = BookChanges()
            let text = HTMLText.plain(deck.description).text
            if book.explain.isEmpty, !text.isEmpty { changes.explain = text }
            if book.image == nil, let name = firstImage(in: deck.description),
               let bytes = try package.media(named: name, limit: FieldRules.maxImageBytes),
               ImageKind(sniffing: bytes) != nil {
                changes.image = .set(bytes)
            }
            guard !changes.isEmpty else { continue }
            do {
                _ = try store.updateBook(id: book.id, changes, now: now)
                changed.append(book.name)
            } catch is VocabError {
                continue  // a description too long for a book's explanation: the words still count
            }
        }
        return changed
    }

    /// Where `needle` (lower-case ASCII) first appears in `text`, ignoring ASCII case.
    private static func asciiCaseInsensitiveRange(of needle: String, in text: Substring) -> Range<String.Index>? {
        let pattern = Array(needle.utf8)
        let bytes = text.utf8
        var start = bytes.startIndex
        while start != bytes.endIndex {
            var index = start, matched = 0
            while matched < pattern.count, index != bytes.endIndex,
                  (bytes[index] >= 0x41 && bytes[index] <= 0x5A ? bytes[index] | 0x20 : bytes[index]) == pattern[matched] {
                matched += 1
                index = bytes.index(after: index)
            }
            if matched == pattern.count { return start..<index }
            start = bytes.index(after: start)
        }
        return nil
    }

    /// The `src` of the first `<img>` in `html`, with `%20`-style escapes decoded.
    static func firstImage(in html: String) -> String? {
        guard let tag = asciiCaseInsensitiveRange(of: "<img", in: html[...]) else { return nil }
        let rest = html[tag.upperBound...]
        guard let src = asciiCaseInsensitiveRange(of: "src=", in: rest) else { return nil }
        var value = rest[src.upperBound...]
        if let quote = value.first, quote == "\"" || quote == "'" {
            value = value.dropFirst()
            guard let end = value.firstIndex(of: quote) else { return nil }
            value = value[..<end]
        } else {
            value = value.prefix { $0 != " " && $0 != ">" && $0 != "/" }
        }
        let name = String(value)
        return PercentEncoding.decode(name) ?? name
    }
}
