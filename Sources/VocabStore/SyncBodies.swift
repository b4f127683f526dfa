import Foundation
import VocabCore

/// The JSON bodies of synced records, and their per-field stamps.
enum SyncBodies {
    static let wordFields = ["bookId", "word", "definition", "detail", "pronunciation", "synonym", "antonym", "date", "memorized"]
    static let bookFields = ["name", "explain", "meaning", "image", "coverWord"]

    /// The synced fields that differ between two versions of a word.
    static func changedFields(_ old: Word, _ new: Word) -> [String] {
        var fields: [String] = []
        if old.bookId != new.bookId { fields.append("bookId") }
        if old.word != new.word { fields.append("word") }
        if old.definition != new.definition { fields.append("definition") }
        if old.detail != new.detail { fields.append("detail") }
        if old.pronunciation != new.pronunciation { fields.append("pronunciation") }
        if old.synonym != new.synonym { fields.append("synonym") }
        if old.antonym != new.antonym { fields.append("antonym") }
        if old.date != new.date { fields.append("date") }
        if old.memorized != new.memorized { fields.append("memorized") }
        return fields
    }

    /// The synced fields that differ between two versions of a book.
    static func changedFields(_ old: Book, _ new: Book) -> [String] {
        var fields: [String] = []
        if old.name != new.name { fields.append("name") }
        if old.explain != new.explain { fields.append("explain") }
        if old.meaning != new.meaning { fields.append("meaning") }
        if old.image != new.image { fields.append("image") }
        if old.coverWord != new.coverWord { fields.append("coverWord") }
        return fields
    }

    static func word(_ word: Word, stamps: [String: FieldStamp], device: String) -> String {
        var body = JSONObjectWriter()
        body.add("bookId", word.bookId.lowercaseText)
        body.add("word", word.word)
        body.add("definition", word.definition)
        body.add("detail", word.detail)
        body.add("pronunciation", word.pronunciation)
        body.add("synonym", word.synonym)
        body.add("antonym", word.antonym)
        body.add("date", word.date.milliseconds)
        body.add("memorized", word.memorized)
        body.add("createdAt", word.createdAt.milliseconds)
        body.add("modifiedAt", word.modifiedAt.milliseconds)
        body.add("stamps", completeStamps(stamps, fields: sortedWordFields, fallback: word.modifiedAt, device: device))
        return body.text
    }

    static func book(_ book: Book, stamps: [String: FieldStamp], device: String) -> String {
        var body = JSONObjectWriter()
        body.add("name", book.name)
        body.add("explain", book.explain)
        body.add("meaning", book.meaning)
        if let image = book.image { body.add("image", Base64.encode(image)) } else { body.addNull("image") }
        body.add("coverWord", book.coverWord)
        body.add("createdAt", book.createdAt.milliseconds)
        body.add("modifiedAt", book.modifiedAt.milliseconds)
        body.add("stamps", completeStamps(stamps, fields: sortedBookFields, fallback: book.modifiedAt, device: device))
        return body.text
    }

    private static let sortedWordFields = wordFields.sorted()
    private static let sortedBookFields = bookFields.sorted()

    static func review(wordId: String, reviewedAt: Int64, rating: Int64, durationMs: Int64?, gameId: String?, source: String) -> String {
        JSONValue.object([
            ("wordId", .string(wordId)), ("reviewedAt", .int(reviewedAt)), ("rating", .int(rating)),
            ("durationMs", durationMs.map { .int($0) } ?? .null), ("gameId", gameId.map { .string($0) } ?? .null),
            ("source", .string(source)),
        ]).compact
    }

    /// `{field: [ms, "device"]}` with the fields in sorted order.
    static func stampsObject(_ stamps: [String: FieldStamp]) -> JSONObjectWriter {
        var object = JSONObjectWriter()
        for field in stamps.keys.sorted() {
            if let stamp = stamps[field] { object.addPair(field, stamp.milliseconds, stamp.device) }
        }
        return object
    }

    /// The stamps of a pushed body: every field of `sortedFields` stamped, those never edited
    /// since sync existed from `fallback`. With no stored stamps (every imported word, on its
    /// first push) the one shared pair is written once and no dictionary is built.
    static func completeStamps(_ stamps: [String: FieldStamp], fields sortedFields: [String], fallback: Timestamp,
                               device: String) -> JSONObjectWriter {
        guard stamps.isEmpty else { return stampsObject(complete(stamps, fields: sortedFields, fallback: fallback, device: device)) }
        let pair = JSONObjectWriter.pair(fallback.milliseconds, device)
        var object = JSONObjectWriter()
        for field in sortedFields { object.addPair(field, pair) }
        return object
    }

    /// Every field gets a stamp: fields never edited since sync existed count from `modifiedAt`.
    static func complete(_ stamps: [String: FieldStamp], fields: [String], fallback: Timestamp, device: String) -> [String: FieldStamp] {
        var all = stamps
        for field in fields where all[field] == nil { all[field] = FieldStamp(milliseconds: fallback.milliseconds, device: device) }
        return all
    }

    static func encodeStamps(_ stamps: [String: FieldStamp]) -> String {
        stampsObject(stamps).text
    }

    static func decodeStamps(_ text: String) -> [String: FieldStamp] {
        if text == "{}" { return [:] }   // never edited since sync existed: the common case
        guard let object = parse(text) else { return [:] }
        return decodeStamps(object)
    }

    static func decodeStamps(_ object: [String: Any]) -> [String: FieldStamp] {
        var stamps: [String: FieldStamp] = [:]
        for (field, value) in object {
            guard let pair = value as? [Any], pair.count == 2, let ms = (pair[0] as? NSNumber)?.int64Value,
                  let device = pair[1] as? String else { continue }
            stamps[field] = FieldStamp(milliseconds: ms, device: device)
        }
        return stamps
    }

    static func parse(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }
}
