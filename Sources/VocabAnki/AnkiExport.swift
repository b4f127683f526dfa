import FoundationEssentials
import VocabArchives
import VocabCore
import VocabStore
import VocabSystem

/// What an export to an Anki package wrote.
public struct AnkiExportOutcome: Sendable {
    public var words = 0
    public var reviews = 0
    public var decks = 0
}

/// Writes words into an `.apkg` in Anki's legacy layout (schema 11 `collection.anki2`, which
/// every current Anki imports): one deck per book (its explanation and cover image as the
/// deck's description), one note type holding every word field, one card per word whose
/// scheduling follows the word's FSRS schedule, and the review log. Each note's guid is the
/// word's id, so exporting again updates the notes in Anki instead of adding new ones (and
/// `vocab import` reads them back into the same words).
public enum AnkiExport {

    /// Exports the words of `bookId` (or all) to `path`; the file appears only when the whole
    /// export succeeded. `progress` gets the words written every 1,000 and may throw to stop.
    /// `only` keeps the words of those ids alone (and the decks of their books); `guidPrefix`
    /// goes before every note's guid, so that an import makes them new words instead of the
    /// same ones (a backup of words whose ids are deleted for good where they are synced).
    @discardableResult
    public static func write(_ path: String, from store: Store, bookId: UUID?, only: Set<UUID>? = nil, guidPrefix: String = "",
                             now: Timestamp, progress: (Int) throws -> Void = { _ in }) throws -> AnkiExportOutcome {
        guard try store.wordCount(WordFilter(bookId: bookId)) > 0, only.map({ !$0.isEmpty }) ?? true else {
            throw AnkiPackageError.nothingToExport
        }
        let folder = try PrivateFolder()
        let collectionPath = folder.file("collection.anki2")
        var media: [(name: String, file: String)] = []
        let scope = Scope(bookId: bookId, only: only, guidPrefix: guidPrefix)
        let outcome = try fill(collectionPath, from: store, scope: scope, now: now, progress: progress) { name, image in
            let file = folder.file("\(media.count)")
            try Data(image).write(to: URL(fileURLWithPath: file))
            media.append((name, file))
        }
        let mediaList = folder.file("media")
        let names = Dictionary(uniqueKeysWithValues: media.enumerated().map { (String($0.offset), $0.element.name) })
        do {
            try AtomicFile.replace(mediaList, permissions: 0o600, with: Array(JSONValue(any: names).compact.utf8))
        } catch let error as FileFailure {
            throw AnkiPackageError.cannotWrite(reason: AnkiPackageError.temporaryFile(error))
        }
        let zip = try ZipWriter(path: path)
        try zip.addFile("collection.anki2", from: collectionPath)
        try zip.addFile("media", from: mediaList)
        for (index, item) in media.enumerated() { try zip.addFile(String(index), from: item.file, compress: false) }
        try zip.commit()
        return outcome
    }

    /// Which words an export writes, and what goes before their notes' guids.
    private struct Scope {
        var bookId: UUID?
        var only: Set<UUID>?
        var guidPrefix: String
    }

    /// Writes the collection: the books as decks (with their covers handed to `cover`, when
    /// given, as media named in the deck's description), the words as notes and cards, and their
    /// review logs.
    private static func fill(_ collectionPath: String, from store: Store, scope: Scope, now: Timestamp,
                             progress: (Int) throws -> Void, cover: ((String, [UInt8]) throws -> Void)?) throws -> AnkiExportOutcome {
        var outcome = AnkiExportOutcome()
        do {
            let collection = try Database(path: collectionPath)
            try collection.execute(AnkiCollectionSchema.sql)
            try collection.transaction {
                var books = try store.bookSummaries().map(\.book).filter { scope.bookId == nil || $0.id == scope.bookId }
                if let only = scope.only {
                    let holding = Set(try only.compactMap { try store.word(id: $0)?.bookId })
                    books = books.filter { holding.contains($0.id) }
                }
                var writer = NotesWriter(collection: collection, now: now, scheduler: try store.scheduler(), guidPrefix: scope.guidPrefix)
                var deckIds: [UUID: Int64] = [:]
                var decks: [String: Any] = ["1": deckJSON(id: 1, name: "Default", description: "", now: now)]
                for book in books {
                    let id = NotesWriter.uniqueId(book.createdAt.milliseconds, in: &writer.deckIds)
                    deckIds[book.id] = id
                    var description = AnkiWordShape.html(book.explain)
                    if let cover, let image = book.image, let kind = book.imageKind {
                        // A leading underscore: Anki keeps such files on import even when no note uses them.
                        let name = "_vocab-cover-\(book.id.uuidString.lowercased()).\(kind == .jpeg ? "jpg" : kind.rawValue)"
                        try cover(name, image)
                        description += (description.isEmpty ? "" : "<br>") + "<img src=\"\(name)\">"
                    }
                    decks[String(id)] = deckJSON(id: id, name: book.name, description: description, now: now)
                }
                try store.forEachWord(WordFilter(bookId: scope.bookId)) { word in
                    guard let deck = deckIds[word.bookId], scope.only?.contains(word.id) ?? true else { return }
                    outcome.reviews += try writer.add(word, deck: deck, schedule: try store.schedule(wordId: word.id),
                                                      log: try store.reviewLog(wordId: word.id))
                    outcome.words += 1
                    if outcome.words % 1000 == 0 { try progress(outcome.words) }
                }
                outcome.decks = books.count
                try writeCollectionRow(collection, decks: decks, defaultDeck: deckIds.values.min() ?? 1, writer: writer, now: now)
            }
        } catch let error as SQLiteError {
            throw AnkiPackageError.cannotWrite(reason: "the collection could not be written (\(error.message))")
        }
        return outcome
    }

    private static func writeCollectionRow(_ collection: Database, decks: [String: Any], defaultDeck: Int64,
                                           writer: NotesWriter, now: Timestamp) throws {
        let noteType = AnkiCollectionSchema.noteType(modified: now.milliseconds / 1000, usn: NotesWriter.usn, defaultDeck: defaultDeck)
        let conf = AnkiCollectionSchema.configuration(nextPosition: writer.newPosition)
        func json(_ object: Any) throws -> String {
            JSONValue(any: object).compact
        }
        let modified = now.milliseconds
        try collection.run("INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, ?, ?, ?, ?, ?, ?, '{}')", [
            .integer(writer.created), .integer(modified), .integer(now.milliseconds),
            .integer(0), .integer(0), .text(try json(conf)),
            .text(try json([String(AnkiCollectionSchema.noteTypeId): noteType])), .text(try json(decks)),
            .text(try json(["1": AnkiCollectionSchema.deckOptions])),
        ])
    }

    private static func deckJSON(id: Int64, name: String, description: String, now: Timestamp) -> [String: Any] {
        AnkiCollectionSchema.deck(id: id, name: name, description: description, modified: now.milliseconds / 1000, usn: NotesWriter.usn)
    }

    /// Notes, cards and review log entries, with ids unique as Anki needs them.
    private struct NotesWriter {
        let collection: Database
        let now: Timestamp
        /// The store's scheduler, whose intervals the log shows.
        let scheduler: FSRSScheduler
        /// What goes before each note's guid (its word's id).
        let guidPrefix: String
        /// Every object's update sequence number: not synced yet.
        static let usn: Int64 = -1
        /// The collection's creation (day 0 for review cards' due days): a year before today.
        let created: Int64
        var noteIds = Set<Int64>()
        var reviewIds = Set<Int64>()
        var deckIds: Set<Int64> = [1]
        var newPosition = 1

        init(collection: Database, now: Timestamp, scheduler: FSRSScheduler, guidPrefix: String) {
            self.collection = collection
            self.now = now
            self.scheduler = scheduler
            self.guidPrefix = guidPrefix
            created = AnkiWordShape.created(now: now)
        }

        /// `wanted`, or the next free number after it.
        static func uniqueId(_ wanted: Int64, in used: inout Set<Int64>) -> Int64 {
            var id = max(wanted, 2)
            while used.contains(id) { id += 1 }
            used.insert(id)
            return id
        }

        /// Writes the note and card of `word`; returns how many reviews it wrote.
        mutating func add(_ word: Word, deck: Int64, schedule: Schedule?, log: [ReviewRecord]) throws -> Int {
            let id = Self.uniqueId(word.createdAt.milliseconds, in: &noteIds)
            let note = AnkiWordShape.note(word)
            let modified = word.modifiedAt.milliseconds / 1000
            try collection.run("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '')", [
                .integer(id), .text(guidPrefix + word.id.lowercaseText), .integer(AnkiCollectionSchema.noteTypeId),
                .integer(modified), .integer(Self.usn), .text(note.tags), .text(note.fields.joined(separator: "\u{1F}")),
                .text(note.fields[0]), .integer(AnkiWordShape.checksum(note.fields[0])),
            ])
            let card = AnkiWordShape.card(schedule, created: created, newPosition: Int64(newPosition))
            if schedule == nil { newPosition += 1 }
            try collection.run("INSERT INTO cards VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)", [
                .integer(id), .integer(id), .integer(deck), .integer(modified), .integer(Self.usn), .integer(card.type), .integer(card.queue),
                .integer(card.due), .integer(card.interval), .integer(card.factor), .integer(card.reps),
                .integer(card.lapses), .integer(card.left), .text(card.data),
            ])
            for entry in AnkiWordShape.log(log, scheduler: scheduler) {
                let entryId = Self.uniqueId(entry.review.reviewedAt.milliseconds, in: &reviewIds)
                try collection.run("INSERT INTO revlog VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                    .integer(entryId), .integer(id), .integer(Self.usn), .integer(entry.ease), .integer(entry.interval),
                    .integer(entry.lastInterval), .integer(entry.factor), .integer(entry.time), .integer(entry.type),
                ])
            }
            return log.count
        }
    }
}
