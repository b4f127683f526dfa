import FoundationEssentials
import VocabAnki
import VocabCore
import VocabStore

/// Vocab's side into the kept collection: each book a deck, each word a "Vocab word" note with
/// one card scheduled as the word is, each review an entry of the log. What changed since it
/// was last mirrored (its stamp: the word's last change, its book's deck and how its log stands)
/// is written again at the collection's current number, so the app's next sync takes it; what
/// was deleted leaves a grave. Only the words the store noted as written since are looked at
/// (`Store.ankiChanged`), so a sync costs what changed, not what the account holds.
extension AnkiKeptCollection {
    /// Makes the collection on first use, then brings it up to the store; returns where it stands
    /// (its `modified` moved on when anything changed).
    func mirror() throws -> AnkiCollectionState {
        // A sync's changes left past its answer come first when the store has changes of its own
        // (a word written since may be one of the app's notes); else they wait, as the app's
        // objects are already kept as it sent them.
        if defersReflect, let left = try store.ankiPendingWork(), left.kind == .reflect, try store.hasAnkiChanges() {
            try AnkiCollections.reflectLeft(store, account: account)
        }
        // A new collection, or thousands of words written: in the page cache of a bulk change,
        // set before the transaction begins (measured: a first mirror of 50,000 words 0.9 s
        // shorter than with it set inside), the objects counted once after.
        let bulk = try store.ankiCollection() == nil || store.ankiChanged(most: Self.wordsMirroredByName) == nil
        return bulk ? try store.withAnkiBulkChange(cacheMegabytes: Self.bulkCacheMegabytes, mirrorInTransaction)
            : try mirrorInTransaction()
    }

    /// The page cache of a mirror of many words. Half an import's: a first mirror of 50,000
    /// words took as long with 12 MiB as with 24 (7.7-8.7 s against 7.5-8.6 s, the download
    /// around it), and the server's peak was 13 MiB lower; with 8 MiB it took 0.7 s longer.
    static let bulkCacheMegabytes = 12

    /// How many words written since the last mirror are looked at by name; past it, all are.
    private static let wordsMirroredByName = 5_000

    private func mirrorInTransaction() throws -> AnkiCollectionState {
        try store.transaction {
            let made = try store.ankiCollection() == nil
            var state = try store.ankiCollection() ?? makeCollection()
            // The words and books written since the last mirror (noted by the store's triggers),
            // or all of them: in a new collection, or past a few thousand.
            let written = made ? nil : try store.ankiChanged(most: Self.wordsMirroredByName)
            // A book written (renamed, moved, deleted with its words): every word is looked at.
            let booksWritten = written.map(\.books) ?? true
            var changed = booksWritten ? try mirrorBooks(usn: state.usn) : false
            changed = try mirrorWords(state: state, only: booksWritten ? nil : written?.words) || changed
            try store.clearAnkiChanged()
            if changed {
                state.modified = max(now.milliseconds, state.modified + 1)
                try store.saveAnkiCollection(state)
            }
            return state
        }
    }

    /// A new collection: the starting objects, a schema stamp of the account's own, created a
    /// year before today (review cards' due days count from it).
    private func makeCollection() throws -> AnkiCollectionState {
        let state = AnkiCollectionState(usn: 0, modified: now.milliseconds, schema: AnkiCollections.schemaStamp(account),
                                        created: AnkiWordShape.created(now: now))
        for object in AnkiKeptFile.startingObjects(modified: now.milliseconds / 1000) {
            try store.putAnkiObject(AnkiObject(kind: object.kind, id: object.id, usn: 0, body: object.body.compact))
        }
        try store.saveAnkiCollection(state)
        return state
    }

    /// The "Vocab word" note type, as a new collection starts with it, unless the collection
    /// holds it (one an app uploaded whole may not).
    private func ensureWordNoteType(usn: Int64) throws {
        guard try store.ankiObject(.notetype, id: String(AnkiWordShape.noteTypeId)) == nil else { return }
        for object in AnkiKeptFile.startingObjects(modified: now.milliseconds / 1000) where object.kind == .notetype {
            try store.putAnkiObject(AnkiObject(kind: .notetype, id: object.id, usn: usn, body: object.body.compact))
        }
    }

    /// Each book as a deck (its name and description); a deck whose book is gone is buried.
    private func mirrorBooks(usn: Int64) throws -> Bool {
        var mirrors = try store.ankiMirrors(.deck)
        var ids = IdAllocator(store: store)
        var changed = false
        for book in try store.bookSummaries().map(\.book) {
            let description = AnkiWordShape.html(book.explain)
            let stamp = book.name + "\u{1F}" + description
            let mirror = mirrors.removeValue(forKey: book.id.lowercaseText)
            if mirror?.stamp == stamp { continue }
            let id = try mirror.flatMap { Int64($0.id) } ?? ids.freeId(.deck, from: book.createdAt.milliseconds)
            var body = (try mirror.flatMap { try store.ankiObject(.deck, id: $0.id) })?.json
                ?? JSONValue(any: AnkiKeptFile.deck(id: id, name: book.name, description: description, modified: now.milliseconds / 1000))
            body = body.setting([("name", .string(book.name)), ("desc", .string(description)), ("mod", .int(now.milliseconds / 1000))])
            try store.putAnkiObject(AnkiObject(kind: .deck, id: String(id), usn: usn, body: body.compact, source: book.id.lowercaseText,
                                               stamp: stamp))
            changed = true
        }
        for (_, gone) in mirrors {
            guard let id = Int64(gone.id) else { continue }
            try bury(.deck, id: id, usn: usn, fromApp: false)
            changed = true
        }
        return changed
    }

    /// Each word (or each of `only`) as a note and card, its reviews as log entries; a word gone
    /// is buried.
    private func mirrorWords(state: AnkiCollectionState, only: Set<UUID>?) throws -> Bool {
        var mirrors: [String: (id: String, stamp: String?)] = [:]
        if let only {
            for wordId in only {
                if let note = try store.ankiObject(.note, source: wordId.lowercaseText) { mirrors[wordId.lowercaseText] = (note.id, note.stamp) }
            }
        } else {
            mirrors = try store.ankiMirrors(.note)
        }
        // A first mirror (no word has a note yet): every word is due, and is read in the one pass
        // that writes it, with no list of them made first (50,000 words' standings held 14 MiB
        // at once, and a third of the download's peak above an idle server).
        let first = only == nil && mirrors.isEmpty
        let due = first ? nil : try dueWords(of: only, mirrors: &mirrors)
        if let due, due.isEmpty, mirrors.isEmpty { return false }
        // A few words: each id and review looked up; many: every one read once.
        let many = due.map { $0.count > 1_000 } ?? true
        // The ids taken, with room for as many words and reviews as are to be mirrored.
        let words = try due?.count ?? store.wordCount()
        let taken = many ? [AnkiObjectKind.note: try store.ankiObjectIds(.note, room: words), .card: try store.ankiObjectIds(.card, room: words),
                             .revlog: try store.ankiObjectIds(.revlog, room: try store.reviewCount())] : nil
        var pass = WordPass(scheduler: try store.scheduler(), logged: many ? Set(try store.ankiMirrors(.revlog).keys) : nil,
                            ids: IdAllocator(store: store, taken: taken),
                            position: try store.ankiObject(.config, id: "nextPos")?.json?.int64Value ?? 1,
                            noteTypes: NoteTypeShapes(self))
        let startingPosition = pass.position
        // In the order the words were made (a new collection's new cards in the order they came).
        // Many at once (a first mirror): every word read in one pass with its schedule and log,
        // the mirrored cards read once, the objects written many to a statement; a few: each
        // looked up and written.
        if many {
            let cards = try store.ankiMirrors(.card)
            pass.batch = AnkiObjectBatch(store: store)
            let decks = first ? try deckIdsByBook() : [:]
            try store.forEachWordHistory { read in
                let item: (standing: AnkiWordStanding, deck: Int64, noteId: String?)
                if let due {
                    guard let found = due[read.word.id] else { return }
                    item = found
                } else {
                    guard let deck = decks[read.word.bookId.lowercaseText] else { return }
                    item = (AnkiWordStanding(read), deck, nil)
                }
                // Its log only when its schedule counts reviews, as a word looked up alone.
                let history = item.standing.reviews > 0 ? read : WordHistory(word: read.word, schedule: read.schedule, log: [])
                let heldCard = try cards[read.word.id.lowercaseText].flatMap { try store.ankiObject(.card, id: $0.id) }
                try mirrorWord(history, deck: item.deck, stamp: Self.stamp(item.standing, deck: item.deck), noteId: item.noteId,
                               heldCard: heldCard, state: state, pass: &pass)
            }
            try pass.batch?.flush()
        } else if let due {
            for (wordId, item) in due.sorted(by: { $0.value.standing.order < $1.value.standing.order }) {
                guard let word = try store.word(id: wordId) else { continue }
                let history = WordHistory(word: word, schedule: try store.schedule(wordId: word.id),
                                          log: item.standing.reviews > 0 ? try store.reviewLog(wordId: word.id) : [])
                try mirrorWord(history, deck: item.deck, stamp: Self.stamp(item.standing, deck: item.deck), noteId: item.noteId,
                               heldCard: try store.ankiObject(.card, source: word.id.lowercaseText), state: state, pass: &pass)
            }
        }
        if pass.position != startingPosition {
            try store.putAnkiObject(AnkiObject(kind: .config, id: "nextPos", usn: state.usn, body: String(pass.position)))
        }
        for (_, gone) in mirrors {
            guard let id = Int64(gone.id) else { continue }
            // Every card of its note (a note of another type may have several).
            for cardId in try store.ankiCardIds(ofNote: id) { try bury(.card, id: cardId, usn: state.usn, fromApp: false) }
            try bury(.note, id: id, usn: state.usn, fromApp: false)
        }
        return true
    }

    /// The words (each, or each of `only`) whose mirror is not as they stand, with how they
    /// stand, their deck and their note; each taken from `mirrors`, which keeps the notes of
    /// words gone. Their stamps are made again when written (a first mirror's 50,000 held 21 MiB
    /// as a list, a dictionary of it and the stamps' text), and the words' standings are let go
    /// on return but the due ones'.
    private func dueWords(of only: Set<UUID>?, mirrors: inout [String: (id: String, stamp: String?)]) throws
        -> [UUID: (standing: AnkiWordStanding, deck: Int64, noteId: String?)] {
        let decks = try deckIdsByBook()
        var due: [UUID: (standing: AnkiWordStanding, deck: Int64, noteId: String?)] = [:]
        for (wordId, standing) in try store.ankiWordStandings(of: only) {
            guard let deck = decks[standing.bookId.lowercaseText] else { continue }
            let mirror = mirrors.removeValue(forKey: wordId.lowercaseText)
            if mirror?.stamp != Self.stamp(standing, deck: deck) { due[wordId] = (standing, deck, mirror?.id) }
        }
        return due
    }

    /// The id of each book's deck, by the book's id (lowercase).
    func deckIdsByBook() throws -> [String: Int64] {
        try store.ankiMirrors(.deck).reduce(into: [String: Int64]()) { $0[$1.key] = Int64($1.value.id) }
    }

    /// How a word stands for its mirror: its last change, its deck, and its schedule's count of
    /// reviews and latest one.
    static func stamp(_ standing: AnkiWordStanding, deck: Int64) -> String {
        "\(standing.modified)/\(deck)/\(standing.reviews)/\(standing.lastReview)"
    }

    /// What a pass over the words reads once: the scheduler, the next place in the new queue, and
    /// for a pass over many words the reviews already in the log and the ids taken (nil: each
    /// looked up in the store).
    struct WordPass {
        var scheduler: FSRSScheduler
        let logged: Set<String>?
        var ids: IdAllocator
        var position: Int64
        var noteTypes: NoteTypeShapes
        /// Whether the "Vocab word" note type is known to be in the collection.
        var hasWordNoteType = false
        /// For a pass that writes many objects to a statement (nil: each written at once).
        var batch: AnkiObjectBatch?

        /// Puts an object: at once, or with the next many.
        mutating func put(_ object: AnkiObject) throws {
            if batch == nil { try ids.store.putAnkiObject(object) } else { try batch?.put(object) }
        }

        /// Whether a review is in the log already.
        func isLogged(_ review: String) throws -> Bool {
            if let logged { return logged.contains(review) }
            return try ids.store.ankiObject(.revlog, source: review) != nil
        }
    }

    /// Ids no object of a kind has yet: the ones taken read once (`taken`), or each looked up in
    /// the store (nil).
    struct IdAllocator {
        let store: Store
        var taken: [AnkiObjectKind: Set<Int64>]?
        /// By kind, the number the last search started from and where it ended: words made in
        /// one import share their creation's millisecond, and come one after another, so each
        /// search goes on from the last. (Every search kept, a first mirror of 50,000 words held
        /// 12 MiB of them.)
        private var lastSearch: [AnkiObjectKind: (wanted: Int64, next: Int64)] = [:]

        init(store: Store, taken: [AnkiObjectKind: Set<Int64>]? = nil) {
            self.store = store
            self.taken = taken
        }

        /// `wanted`, or the next number after it no object of `kind` has (and at least 2); taken.
        mutating func freeId(_ kind: AnkiObjectKind, from wanted: Int64) throws -> Int64 {
            var id = max(wanted, 2)
            if let last = lastSearch[kind], last.wanted == wanted { id = last.next }
            while try isTaken(kind, id) { id += 1 }
            taken?[kind, default: []].insert(id)
            lastSearch[kind] = (wanted, id + 1)
            return id
        }

        private func isTaken(_ kind: AnkiObjectKind, _ id: Int64) throws -> Bool {
            if let taken { return taken[kind, default: []].contains(id) }
            return try store.ankiObject(kind, id: String(id)) != nil
        }
    }

    /// How a note type's notes read as words: which word field each of its fields fills (by
    /// the `.apkg` import's mapping of their names) and whether it is a cloze type; nil when the
    /// collection does not hold it.
    func noteTypeShape(_ id: Int64) throws -> NoteTypeShapes.Shape? {
        guard let type = try store.ankiObject(.notetype, id: String(id))?.json else { return nil }
        let fields = (type["flds"]?.arrayValue ?? []).sorted { ($0["ord"]?.int64Value ?? 0) < ($1["ord"]?.int64Value ?? 0) }
        return (AnkiFieldMap.targets(ofFields: fields.map { $0["name"]?.stringValue ?? "" }).targets, type["type"]?.int64Value == 1)
    }

    /// The note types' shapes a pass over many notes has read, each read once (a note type is a
    /// large object: read again for each of 50,000 Basic notes, it was a third of an upload's
    /// time bringing them into the words).
    struct NoteTypeShapes {
        typealias Shape = (targets: [WordField?], isCloze: Bool)
        let collection: AnkiKeptCollection
        private var known: [Int64: Shape?] = [:]

        init(_ collection: AnkiKeptCollection) {
            self.collection = collection
        }

        mutating func shape(_ id: Int64) throws -> Shape? {
            if let shape = known[id] { return shape }
            let shape = try collection.noteTypeShape(id)
            known.updateValue(shape, forKey: id)
            return shape
        }
    }

    /// A word as its note and card (`heldCard`: the card mirroring it, if any), its reviews as
    /// log entries.
    private func mirrorWord(_ history: WordHistory, deck: Int64, stamp: String, noteId: String?, heldCard: AnkiObject?,
                            state: AnkiCollectionState, pass: inout WordPass) throws {
        let word = history.word
        let source = word.id.lowercaseText
        var shape = AnkiWordShape.note(word)
        let modified = word.modifiedAt.milliseconds / 1000
        // The note: its fields and tags Vocab's, the rest as it was. A note of another type (a
        // Basic note that became a word) gets the word's edits in the fields they came from.
        let held = try noteId.flatMap { try store.ankiObject(.note, id: $0) }
        var note = held?.row ?? []
        if note.count >= 11, let typeId = note[2].int64Value, typeId != AnkiWordShape.noteTypeId,
           let type = try pass.noteTypes.shape(typeId) {
            let current = (note[6].stringValue ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            shape = AnkiNoteFields.written(word, into: current, targets: type.targets, isCloze: type.isCloze)
        }
        let fields = shape.fields.joined(separator: "\u{1F}")
        let id: Int64
        if note.count >= 11, let heldId = note[0].int64Value {
            id = heldId
            if note[6] != .string(fields) || note[5] != .string(shape.tags) {
                note[3] = .int(max(modified, note[3].int64Value ?? 0))
                note[5] = .string(shape.tags)
                note[6] = .string(fields)
                try pass.put(AnkiObject(kind: .note, id: String(id), usn: state.usn, body: JSONValue.array(note).compact,
                                        source: source, stamp: stamp))
            } else if let held {
                try pass.put(AnkiObject(kind: .note, id: held.id, usn: held.usn, body: held.body, source: source, stamp: stamp))
            }
        } else {
            if !pass.hasWordNoteType {
                try ensureWordNoteType(usn: state.usn)
                pass.hasWordNoteType = true
            }
            id = try pass.ids.freeId(.note, from: word.createdAt.milliseconds)
            note = [.int(id), .string(source), .int(AnkiWordShape.noteTypeId), .int(modified), .int(state.usn), .string(shape.tags),
                    .string(fields), .string(""), .string(""), .int(0), .string("")]
            try pass.put(AnkiObject(kind: .note, id: String(id), usn: state.usn, body: JSONValue.array(note).compact,
                                    source: source, stamp: stamp))
        }
        // The card: in the book's deck, scheduled as the word is.
        let schedule = history.schedule
        let cardId = try heldCard.flatMap { Int64($0.id) } ?? pass.ids.freeId(.card, from: id)
        var card = heldCard?.row ?? []
        let position: Int64
        if card.count >= 18, card[6] == .int(0) {
            position = card[8].int64Value ?? 0
        } else {
            position = pass.position
            if schedule == nil { pass.position += 1 }
        }
        let shaped = AnkiWordShape.card(schedule, created: state.created, newPosition: position)
        let wanted: [JSONValue] = [.int(deck), .int(0), .int(shaped.type), .int(shaped.queue), .int(shaped.due), .int(shaped.interval),
                                   .int(shaped.factor), .int(shaped.reps), .int(shaped.lapses), .int(shaped.left)]
        let heldScheduling: [JSONValue] = card.count >= 18 ? [card[2], card[3]] + Array(card[6...13]) : []
        if heldScheduling != wanted || (card.count >= 18 && schedule != nil && card[17] != .string(shaped.data)) {
            if card.count < 18 {
                card = [.int(cardId), .int(id), .int(deck), .int(0), .int(0), .int(0), .int(0), .int(0), .int(0), .int(0), .int(0),
                        .int(0), .int(0), .int(0), .int(0), .int(0), .int(0), .string("")]
            }
            card[2] = .int(deck)
            card[4] = .int(now.milliseconds / 1000)
            for (index, value) in [(6, shaped.type), (7, shaped.queue), (8, shaped.due), (9, shaped.interval), (10, shaped.factor),
                                   (11, shaped.reps), (12, shaped.lapses), (13, shaped.left)] {
                card[index] = .int(value)
            }
            card[17] = .string(shaped.data)
            try pass.put(AnkiObject(kind: .card, id: String(cardId), usn: state.usn, body: JSONValue.array(card).compact,
                                    source: source, stamp: stamp))
        }
        // Its reviews not in the log yet.
        let log = history.log
        guard !log.isEmpty else { return }
        let unlogged = try Set(log.map { $0.id.lowercaseText }.filter { try !pass.isLogged($0) })
        guard !unlogged.isEmpty else { return }
        for entry in AnkiWordShape.log(log, scheduler: pass.scheduler) where unlogged.contains(entry.review.id.lowercaseText) {
            let entryId = try pass.ids.freeId(.revlog, from: entry.review.reviewedAt.milliseconds)
            let body = JSONValue.array([entryId, cardId, state.usn, entry.ease, entry.interval, entry.lastInterval, entry.factor,
                                        entry.time, entry.type].map(JSONValue.int))
            try pass.put(AnkiObject(kind: .revlog, id: String(entryId), usn: state.usn, body: body.compact,
                                    source: entry.review.id.lowercaseText, stamp: "vocab"))
            // Not added to `pass.logged`: a review is one word's, and a pass meets each word once
            // (a first mirror's 200,000 ids held 16 MiB).
        }
    }
}

extension JSONValue {
    /// An object with `members` set (replaced where present, added where not).
    func setting(_ members: [(String, JSONValue)]) -> JSONValue {
        guard case .object(var current) = self else { return self }
        for (key, value) in members {
            if let index = current.firstIndex(where: { $0.0 == key }) { current[index].1 = value } else { current.append((key, value)) }
        }
        return .object(current)
    }
}
