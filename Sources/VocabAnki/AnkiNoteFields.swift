import VocabCore

/// A note of any type as a word's fields, one rule for the `.apkg` import and for the
/// collection an Anki app syncs with: each field's text goes to the word field its name maps to
/// (`AnkiFieldMap`; several to one joined by lines), a cloze note's deletions' answers are the
/// word, their hints the definition and the whole sentence first in the detail, the tags a last
/// "tags: …" line of the detail. `written` goes the other way for an edit made in Vocab.
public enum AnkiNoteFields {
    /// Why a note makes no word.
    public enum Unfit: Error, Equatable {
        /// A cloze note without a `{{c1::…}}` deletion (its text's start).
        case clozeWithoutDeletion(start: String)
        /// No text for the word (its first field's start, or "").
        case noWord(first: String)

        /// The reason, as the import says it.
        public var reason: String {
            switch self {
            case .clozeWithoutDeletion(let start): return "the cloze note \"\(start)\" has no {{c1::…}} deletion to make a word from"
            case .noWord(let first): return "the note\(first.isEmpty ? "" : " (\"\(first)\")") has no text for the word"
            }
        }
    }

    /// The word fields of a note's `fields` (HTML), mapped by `targets` (by position); `plain`
    /// turns a field's HTML into text.
    public static func values(of fields: [String], targets: [WordField?], isCloze: Bool, tags: [String],
                              plain: (String) -> String) throws(Unfit) -> [WordField: String] {
        var values: [WordField: String] = [:]
        func add(_ text: String, to field: WordField) {
            guard !text.isEmpty else { return }
            values[field] = values[field].map { $0 + "\n" + text } ?? text
        }
        var clozeSource: String?
        for (index, raw) in fields.enumerated() {
            guard index < targets.count, let target = targets[index] else { continue }
            if isCloze, target == .word, clozeSource == nil {
                clozeSource = raw
                continue
            }
            add(plain(raw), to: target)
        }
        if let source = clozeSource {
            var answers: [String] = []
            let deletions = HTMLText.clozeDeletions(source)
            for deletion in deletions {
                let answer = plain(deletion.answer)
                if !answer.isEmpty && !answers.contains(answer) { answers.append(answer) }
            }
            guard !answers.isEmpty else { throw .clozeWithoutDeletion(start: String(plain(source).prefix(40))) }
            let hints = deletions.compactMap { $0.hint.map(plain) }.filter { !$0.isEmpty }
            if values[.definition] == nil, !hints.isEmpty { values[.definition] = hints.joined(separator: "; ") }
            let sentence = plain(source)
            values[.detail] = values[.detail].map { sentence + "\n" + $0 } ?? sentence
            values[.word] = answers.joined(separator: ", ")
        }
        if !tags.isEmpty { add("tags: " + tags.joined(separator: " "), to: .detail) }
        guard values[.word] != nil else { throw .noWord(first: String((fields.first.map(plain) ?? "").prefix(40))) }
        return values
    }

    /// `fields` (HTML) with an edit of `word` made in Vocab written back: each word field that
    /// one field alone fills, where its text differs from the word's, becomes the word's (a field
    /// whose text is the same keeps its HTML: pictures, sounds, formatting). A cloze note's, and a
    /// word field several fill, stay as they are. Returns the fields and the note's tags.
    public static func written(_ word: Word, into fields: [String], targets: [WordField?], isCloze: Bool) -> (fields: [String], tags: String) {
        let shape = AnkiWordShape.note(word)
        guard !isCloze else { return (fields, shape.tags) }
        let order: [WordField] = [.word, .definition, .detail, .pronunciation, .synonym, .antonym]
        var written = fields
        for (place, target) in order.enumerated() {
            let sources = targets.indices.filter { targets[$0] == target && $0 < fields.count }
            guard sources.count == 1, let index = sources.first else { continue }
            if HTMLText.plain(fields[index]).text != HTMLText.plain(shape.fields[place]).text { written[index] = shape.fields[place] }
        }
        return (written, shape.tags)
    }
}
