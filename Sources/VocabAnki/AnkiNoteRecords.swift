import FoundationEssentials
import VocabCore
import VocabStore

/// The notes of a collection as import records, one per note, after a header naming Vocab's
/// columns: the note's guid as the word id (Vocab's own export uses word ids as guids; any
/// other guid is hashed to a stable id), its first card's deck as the book (unless the user
/// named one), its fields mapped by `AnkiFieldMap` and turned from HTML to text, its tags as a
/// last line of the detail, and its creation and change times.
final class AnkiNoteRecords: RecordReader {
    static let header = ["id", "book", "word", "definition", "detail", "pronunciation", "synonym", "antonym",
                         "createdAt", "modifiedAt"]
    static let noteColumns = """
        n.id, n.guid, n.mid, n.mod, n.tags, n.flds,
        (SELECT CASE WHEN c.odid != 0 THEN c.odid ELSE c.did END FROM cards c WHERE c.nid = n.id ORDER BY c.ord LIMIT 1)
        """

    private let collection: AnkiCollection
    private let fieldMap: AnkiFieldMap
    private let defaultBook: String?
    private var statement: Statement?
    private var number = 0
    /// `[sound:…]` references dropped so far.
    private(set) var droppedSounds = 0

    init(collection: AnkiCollection, fieldMap: AnkiFieldMap, defaultBook: String?) {
        self.collection = collection
        self.fieldMap = fieldMap
        self.defaultBook = defaultBook
    }

    func nextRecord() throws -> (line: Int, fields: [String])? {
        guard let statement else {
            statement = try damagedIfFails { try collection.database.statement("SELECT \(Self.noteColumns) FROM notes n ORDER BY n.id") }
            return (0, Self.header)
        }
        guard try damagedIfFails({ try statement.step() }) else { return nil }
        number += 1
        return (number, try record(statement.row, number: number, sounds: &droppedSounds))
    }

    /// The record of one note, by its id (to find the word its reviews belong to); nil for a
    /// note that is not there or that makes no word (an invalid note, left out as the words
    /// were read). Its sounds were counted when the note was read as a record, so not again.
    func record(ofNote id: Int64) throws -> [String]? {
        try damagedIfFails {
            try collection.database.first("SELECT \(Self.noteColumns) FROM notes n WHERE n.id = ?", [.integer(id)]) { row in
                var uncounted = 0
                do {
                    return try record(row, number: 0, sounds: &uncounted)
                } catch is ImportError {
                    return nil
                }
            } ?? nil
        }
    }

    /// The word id a note's guid stands for.
    static func wordId(guid: String) -> UUID {
        UUID(text: guid) ?? UUID.derived(fromAnkiGUID: guid)
    }

    /// The record of a note's row; `sounds` counts the `[sound:…]` references it drops.
    private func record(_ row: Row, number: Int, sounds: inout Int) throws -> [String] {
        let noteId = row.int(0), guid = row.text(1), modified = row.int(3)
        // Split on the separator byte, not on characters: faster, and a separator followed by
        // a combining mark (one character with it) still separates.
        let fields = row.text(5).utf8.split(separator: 0x1F, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let type = collection.noteTypes[row.int(2)]
        var dropped = 0
        defer { sounds += dropped }
        func plain(_ html: String) -> String {
            let (text, count) = HTMLText.plain(html.utf8.contains(9) ? html.replacingText("\t", with: " ") : html)
            dropped += count
            return text
        }
        let values: [WordField: String]
        do {
            values = try AnkiNoteFields.values(of: fields, targets: fieldMap.targets(ofNoteType: row.int(2)), isCloze: type?.isCloze == true,
                                               tags: row.text(4).split(separator: " ").map(String.init), plain: plain)
        } catch {
            throw ImportError.invalidLine(line: number, reason: error.reason)
        }
        let deck = row.isNull(6) ? nil : collection.decks[row.int(6)]?.name
        let book = defaultBook ?? deck ?? "Default"
        // Note ids are creation times in milliseconds (from 2001 on, or taken as unknown).
        let created = (978_307_200_000..<4_102_444_800_000).contains(noteId) ? Timestamp(milliseconds: noteId).iso8601 : ""
        let changed = (978_307_200..<4_102_444_800).contains(modified) ? Timestamp(milliseconds: modified * 1000).iso8601 : ""
        return [Self.wordId(guid: guid).lowercaseText, book, values[.word] ?? "", values[.definition] ?? "",
                values[.detail] ?? "", values[.pronunciation] ?? "", values[.synonym] ?? "", values[.antonym] ?? "",
                created, changed.isEmpty ? created : changed]
    }

    private func damagedIfFails<T>(_ body: () throws -> T) throws -> T {
        try AnkiPackageError.readingCollection(of: collection.path, body)
    }
}
