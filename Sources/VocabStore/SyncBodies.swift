import FoundationEssentials
import VocabCore

/// The JSON bodies of synced records, and their per-field stamps.
enum SyncBodies {
    static let wordFields = WordFields.synced.map(\.name)
    static let bookFields = BookFields.synced.map(\.name)

    /// The synced fields that differ between two versions of a word.
    static func changedFields(_ old: Word, _ new: Word) -> [String] {
        WordFields.synced.filter { $0.read(old) != $0.read(new) }.map(\.name)
    }

    /// The synced fields that differ between two versions of a book.
    static func changedFields(_ old: Book, _ new: Book) -> [String] {
        BookFields.synced.filter { $0.read(old) != $0.read(new) }.map(\.name)
    }

    static func word(_ word: Word, stamps: [String: FieldStamp], device: String) -> String {
        var body = JSONObjectWriter()
        for field in WordFields.all.dropFirst() { add(field.read(word), as: field.name, to: &body) }  // the id is the record's
        body.add("stamps", completeStamps(stamps, fields: sortedWordFields, fallback: word.modifiedAt, device: device))
        return body.text
    }

    static func book(_ book: Book, stamps: [String: FieldStamp], device: String) -> String {
        var body = JSONObjectWriter()
        for field in BookFields.all.dropFirst() { add(field.read(book), as: field.name, to: &body) }
        body.add("stamps", completeStamps(stamps, fields: sortedBookFields, fallback: book.modifiedAt, device: device))
        return body.text
    }

    /// A field's value as a member of a sync body: ids as text, times as ms, images as base64.
    private static func add(_ value: FieldValue, as name: String, to body: inout JSONObjectWriter) {
        switch value {
        case .text(let text): body.add(name, text)
        case .id(let id): body.add(name, id.lowercaseText)
        case .time(let time): body.add(name, time.milliseconds)
        case .flag(let flag): body.add(name, flag)
        case .bytes(let bytes?): body.add(name, Base64.encode(bytes))
        case .bytes(nil): body.addNull(name)
        }
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

    /// The field stamps a row of `table` keeps. Text that is not a JSON object is a damaged row
    /// (read as "no stamps" it would let older edits win a merge): it is reported, not skipped.
    static func decodeStamps(_ text: String, table: String) throws -> [String: FieldStamp] {
        if text == "{}" { return [:] }   // never edited since sync existed: the common case
        guard let object = parse(text) else { throw StoreError.malformedRow(table: table, column: "stamps") }
        return decodeStamps(object)
    }

    static func decodeStamps(_ object: [String: JSONValue]) -> [String: FieldStamp] {
        var stamps: [String: FieldStamp] = [:]
        for (field, value) in object {
            guard let pair = value.arrayValue, pair.count == 2, let ms = pair[0].int64Value,
                  let device = pair[1].stringValue else { continue }
            stamps[field] = FieldStamp(milliseconds: ms, device: device)
        }
        return stamps
    }

    /// The word a pulled body describes (`record` gives the id), or nil when it lacks its text,
    /// book or times. Texts and the flag may be missing (older bodies): empty and false.
    static func word(id: UUID, body: [String: JSONValue]) -> Word? {
        var word = Word(id: id, bookId: id, word: "", date: Timestamp(milliseconds: 0),
                        createdAt: Timestamp(milliseconds: 0), modifiedAt: Timestamp(milliseconds: 0))
        for field in WordFields.all.dropFirst() {
            let member = body[field.name]
            switch field.kind {
            case .text: field.write(&word, .text(member?.stringValue ?? ""))
            case .flag: field.write(&word, .flag(member?.boolValue ?? false))
            case .id:
                guard let text = member?.stringValue, let value = UUID(text: text) else { return nil }
                field.write(&word, .id(value))
            case .time:
                guard let number = member?.int64Value else { return nil }
                field.write(&word, .time(Timestamp(milliseconds: number)))
            case .bytes: continue
            }
        }
        return word.word.isEmpty ? nil : word
    }

    static func parse(_ text: String) -> [String: JSONValue]? {
        (try? JSONParser.parse(text))?.objectValue
    }
}
