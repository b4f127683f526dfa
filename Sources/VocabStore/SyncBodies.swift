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
        var stampsObject = JSONObjectWriter()
        if stamps.isEmpty {
            let stamp = JSONObjectWriter.pair(word.modifiedAt.milliseconds, device)
            for field in sortedWordFields { stampsObject.addPair(field, stamp) }
        } else {
            let all = complete(stamps, fields: wordFields, fallback: word.modifiedAt, device: device)
            for field in all.keys.sorted() {
                if let stamp = all[field] { stampsObject.addPair(field, stamp.milliseconds, stamp.device) }
            }
        }
        body.add("stamps", stampsObject)
        return body.text
    }

    private static let sortedWordFields = wordFields.sorted()

    static func book(_ book: Book, stamps: [String: FieldStamp], device: String) -> String {
        JSONValue.object([
            ("name", .string(book.name)), ("explain", .string(book.explain)), ("meaning", .string(book.meaning)),
            ("image", book.image.map { .string(Base64.encode($0)) } ?? .null), ("coverWord", .string(book.coverWord)),
            ("createdAt", .int(book.createdAt.milliseconds)), ("modifiedAt", .int(book.modifiedAt.milliseconds)),
            ("stamps", completeStampsValue(stamps, fields: bookFields, fallback: book.modifiedAt, device: device)),
        ]).compact
    }

    static func review(wordId: String, reviewedAt: Int64, rating: Int64, durationMs: Int64?, gameId: String?, source: String) -> String {
        JSONValue.object([
            ("wordId", .string(wordId)), ("reviewedAt", .int(reviewedAt)), ("rating", .int(rating)),
            ("durationMs", durationMs.map { .int($0) } ?? .null), ("gameId", gameId.map { .string($0) } ?? .null),
            ("source", .string(source)),
        ]).compact
    }

    static func stampsValue(_ stamps: [String: FieldStamp]) -> JSONValue {
        .object(stamps.keys.sorted().compactMap { key in
            stamps[key].map { (key, .array([.int($0.milliseconds), .string($0.device)])) }
        })
    }

    /// `stampsValue(complete(...))`, without building dictionaries when no field was ever
    /// edited since sync existed (every imported word, on its first push).
    static func completeStampsValue(_ stamps: [String: FieldStamp], fields: [String], fallback: Timestamp,
                                    device: String) -> JSONValue {
        guard stamps.isEmpty else { return stampsValue(complete(stamps, fields: fields, fallback: fallback, device: device)) }
        let stamp = JSONValue.array([.int(fallback.milliseconds), .string(device)])
        return .object(fields.sorted().map { ($0, stamp) })
    }

    /// Every field gets a stamp: fields never edited since sync existed count from `modifiedAt`.
    static func complete(_ stamps: [String: FieldStamp], fields: [String], fallback: Timestamp, device: String) -> [String: FieldStamp] {
        var all = stamps
        for field in fields where all[field] == nil { all[field] = FieldStamp(milliseconds: fallback.milliseconds, device: device) }
        return all
    }

    static func encodeStamps(_ stamps: [String: FieldStamp]) -> String {
        stampsValue(stamps).compact
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
