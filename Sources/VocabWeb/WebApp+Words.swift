import FoundationEssentials
import Glibc
import VocabCloudAPI
import VocabCore
import VocabDictionary
import VocabSessions

/// A book's words: the list (paged, searched), the word form (add, edit, memorised, delete),
/// Dictionary on the form the page keeps, and the word spoken.
extension WebApp {
    func words(bookId: UUID, query: [String: String]) throws -> WordPage {
        let offset = max(0, Int(query["offset"] ?? "") ?? 0), limit = min(max(1, Int(query["limit"] ?? "") ?? 50), WebMeta.wordsPerPage)
        let search = query["q"] ?? ""
        return try pool.read { library -> WordPage in
            let total: Int, rows: [WordListRow]
            if TextRules.clean(search).isEmpty {  // a page, read as such (the count is kept)
                total = try library.bookSummary(id: bookId).wordCount
                rows = try library.wordListPage(bookId: bookId, offset: offset, limit: limit)
            } else {  // the ranked search, best first
                guard try library.book(id: bookId) != nil else { throw VocabError.bookNotFound(bookId.lowercaseText) }
                let keys = try library.wordListKeys(bookId: bookId, search: search)
                total = keys.count
                rows = try keys.dropFirst(offset).prefix(limit).compactMap { try library.wordListRow(key: $0) }
            }
            return WordPage(total: total, offset: offset, words: rows.map { row in WordRow(row.word, due: row.due) })
        }
    }

    /// A new word through the word form. With `id` (made on the phone, maybe offline) it is
    /// added once however often it is sent: a word already here with that id is answered as
    /// it is (200), one deleted since stays deleted (`{"deleted": true}`).
    func addWord(_ input: NewWord) throws -> HTTPResponse {
        let bookId = try uuid(input.bookId)
        var form = WordForm()
        for field in WordField.allCases { form[field] = input.fields[field] ?? "" }
        if let given = input.id {
            guard let id = UUID(text: given) else {
                throw Refusal.notADeviceMadeId
            }
            form.newId = id
        }
        let now = clock.now()
        let (word, isNew, deleted) = try pool.write { library -> (Word?, Bool, Bool) in
            if let id = form.newId {
                if let word = try library.word(id: id) { return (word, false, false) }
                if try library.wordWasDeleted(id: id) { return (nil, false, true) }
            }
            return (try form.save(to: library, bookId: bookId, now: now), true, false)
        }
        guard let word else { return Self.json(DeletedAnswer(deleted: deleted)) }
        return Self.json(WordRow(word, due: nil), status: isNew ? 201 : 200)
    }

    /// An edit through the word form: the fields given (and `memorized`) change, the rest stay.
    /// Sending the same edit twice changes nothing the second time.
    func editWord(_ id: UUID, _ changes: WordChanges) throws -> WordRow {
        let now = clock.now()
        return try pool.write { library -> WordRow in
            guard let word = try library.word(id: id) else { throw VocabError.wordNotFound(id.lowercaseText, book: nil) }
            var form = WordForm(editing: word)
            for field in WordField.allCases { if let value = changes.fields[field] { form[field] = value } }
            if let memorized = changes.memorized { form.memorized = memorized }
            return WordRow(try form.save(to: library, bookId: word.bookId, now: now), due: nil)
        }
    }

    /// Deletes a word (and its reviews); a word already gone is no error (sent twice, say).
    func deleteWord(_ id: UUID) throws -> DeletedAnswer {
        let now = clock.now()
        let deleted = try pool.write { library in try WordActions.delete(id, from: library, now: now) }
        return DeletedAnswer(deleted: deleted)
    }

    /// The word spoken, as a WAV from espeak-ng (made in a private temporary folder, then removed).
    func sound(wordId: UUID) throws -> HTTPResponse {
        guard let speech else { throw Refusal.noSpeech }
        guard let word = try pool.read({ library in try library.word(id: wordId) }) else {
            throw VocabError.wordNotFound(wordId.lowercaseText, book: nil)
        }
        let path = try scratch.newFile(suffix: ".wav")
        defer { unlink(path) }
        try speech.say(word.word, wavPath: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Refusal.speechFailed
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "audio/wav"), ("Cache-Control", "private, max-age=3600")],
                            body: [UInt8](data))
    }

    /// Dictionary on a form the page keeps: `{word, definition, …, filled?, sense?}` → the form
    /// filled (only empty fields; with `sense`, that meaning in place of what the dictionary
    /// filled), what the dictionary filled, the meanings to pick from, the web dictionary's URL.
    func fillFromDictionary(_ request: DictionaryRequest) throws -> DictionaryAnswer {
        guard let dictionaries else { throw Refusal.noDictionary }
        var form = WordForm()
        for field in WordField.allCases { form[field] = request.fields[field] ?? "" }
        for (name, value) in request.filled ?? [:] {
            if let field = WordField(rawValue: name) { form.filledByDictionary[field] = value }
        }
        let entry = try dictionaries.lookUp(try form.wordToLookUp())
        form.fill(from: entry)
        if let sense = request.sense { form.choose(sense: sense, of: entry) }
        var fields: [String: String] = [:]
        for field in WordField.allCases { fields[field.rawValue] = form[field] }
        return DictionaryAnswer(form: fields, filled: Dictionary(uniqueKeysWithValues: form.filledByDictionary.map { ($0.key.rawValue, $0.value) }),
                                senses: entry.senses.prefix(DictionaryService.sensesOffered).map { WordLookup.definition(of: $0) },
                                webURL: try? dictionaries.webURL(for: form[.word]))  // no template: no link, the fill stands
    }
}
