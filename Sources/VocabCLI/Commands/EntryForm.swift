import VocabCore
import VocabDictionary

/// The interactive word form of `vocab word add` without a word: one field per line, each with
/// the original app's two toolbar actions — Done (Enter on an empty line) and Dictionary (`?`:
/// look up the word typed so far and offer to fill the empty fields). Text is kept as typed.
struct EntryForm {
    let context: AppContext

    private static let fields: [(WordField, String)] = [
        (.word, "word"), (.definition, "definition"), (.detail, "detail"), (.pronunciation, "pronunciation"),
        (.synonym, "synonym"), (.antonym, "antonym"),
    ]

    /// The draft the user filled in, or nil when they left the word empty (nothing to add).
    func run(bookName: String) throws -> WordDraft? {
        let console = context.console
        let style = Style(console: console, environment: context.environment)
        console.print("New word for \"\(bookName)\". " + style.dim("Enter on an empty line: Done · ?: Dictionary"))
        var draft = WordDraft(word: "")
        var index = 0
        while index < EntryForm.fields.count {
            let (field, label) = EntryForm.fields[index]
            if !value(of: field, in: draft).isEmpty { index += 1; continue }  // filled from the dictionary
            console.prompt("\(label) " + style.dim("[Enter: Done · ?: Dictionary]") + " > ")
            guard let line = console.readLine() else { break }                   // end of input: Done
            var text = line.trimmingCharacters(in: .whitespaces)
            let wantsDictionary = text.hasSuffix("?")
            if wantsDictionary { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
            if field == .word && !text.isEmpty { draft.word = text }
            else if !text.isEmpty { set(field, to: text, in: &draft) }

            if wantsDictionary {
                guard !draft.word.isEmpty else {
                    console.print("Type the word first, then ? to look it up.")
                    continue
                }
                try offerDictionary(for: draft.word, draft: &draft)
                index += field == .word ? 1 : 0
                continue
            }
            if text.isEmpty {
                if field == .word { return nil }
                break  // Done
            }
            index += 1
        }
        return draft.word.isEmpty ? nil : draft
    }

    private func offerDictionary(for word: String, draft: inout WordDraft) throws {
        let console = context.console
        let entry: DictionaryEntry
        do {
            entry = try DictionaryCommands.lookUp(word, context: context)
        } catch let error as DictionaryError {
            console.print(error.message)
            return
        }
        let filled = WordLookup.fill(draft, from: entry)
        let changes = WordLookup.changedFields(from: draft, to: filled)
        guard !changes.isEmpty else {
            console.print("The dictionary has nothing for the empty fields.")
            return
        }
        for (label, value) in changes { console.print("  \(label): \(value)") }
        if console.confirm("Fill these fields?") { draft = filled }
    }

    private func value(of field: WordField, in draft: WordDraft) -> String {
        switch field {
        case .word: return draft.word
        case .definition: return draft.definition
        case .detail: return draft.detail
        case .pronunciation: return draft.pronunciation
        case .synonym: return draft.synonym
        case .antonym: return draft.antonym
        }
    }

    private func set(_ field: WordField, to text: String, in draft: inout WordDraft) {
        switch field {
        case .word: draft.word = text
        case .definition: draft.definition = text
        case .detail: draft.detail = text
        case .pronunciation: draft.pronunciation = text
        case .synonym: draft.synonym = text
        case .antonym: draft.antonym = text
        }
    }
}

/// Filling a word's empty fields from a dictionary entry; what the user typed is never replaced.
enum WordLookup {
    static func fill(_ draft: WordDraft, from entry: DictionaryEntry) -> WordDraft {
        var filled = draft
        if filled.definition.isEmpty, let sense = entry.senses.first {
            filled.definition = "(\(abbreviation(sense.partOfSpeech))) \(sense.definition)"
        }
        if filled.detail.isEmpty, let example = entry.senses.first?.examples.first { filled.detail = example }
        if filled.pronunciation.isEmpty, let ipa = entry.pronunciation, !ipa.isEmpty { filled.pronunciation = ipa }
        if filled.synonym.isEmpty { filled.synonym = entry.synonyms.prefix(5).joined(separator: ", ") }
        if filled.antonym.isEmpty { filled.antonym = entry.antonyms.prefix(3).joined(separator: ", ") }
        return filled
    }

    static func changedFields(from old: WordDraft, to new: WordDraft) -> [(String, String)] {
        [("definition", old.definition, new.definition), ("detail", old.detail, new.detail),
         ("pronunciation", old.pronunciation, new.pronunciation), ("synonym", old.synonym, new.synonym),
         ("antonym", old.antonym, new.antonym)]
            .filter { $0.1 != $0.2 }.map { ($0.0, $0.2) }
    }

    private static func abbreviation(_ partOfSpeech: String) -> String {
        switch partOfSpeech {
        case "noun": return "n."
        case "verb": return "v."
        case "adjective": return "adj."
        case "adverb": return "adv."
        default: return partOfSpeech
        }
    }
}
