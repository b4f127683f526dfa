import FoundationEssentials
import VocabCore
import VocabDictionary
import VocabStore

/// The word entry form behind both front ends: field values as typed, the Dictionary action
/// (fills only the empty fields; what the user typed is never replaced) and Done (validates,
/// then saves all or nothing; a rule broken is reported with the field it concerns).
public struct WordForm: Sendable, Equatable {
    /// The word being edited, or nil for a new one.
    public var editing: UUID?
    public var values: [WordField: String]
    public var memorized = false
    /// When the word was met (a new word only; nil: now).
    public var date: Timestamp?
    /// What the dictionary put in each field it filled: a field still holding it (not retyped)
    /// is one that choosing another sense replaces. (A front end that keeps the form itself —
    /// a web page — hands it back with the form.)
    public var filledByDictionary: [WordField: String] = [:]
    /// The id a new word gets when the device that made it gave it one (nil: a new id).
    public var newId: UUID?

    public init(editing word: Word? = nil) {
        editing = word?.id
        values = [:]
        if let word {
            for field in WordField.allCases { values[field] = word.value(of: field) }
            memorized = word.memorized
        }
    }

    public subscript(field: WordField) -> String {
        get { values[field] ?? "" }
        set { values[field] = newValue }
    }

    /// The word a dictionary looks up: the form's word, trimmed. A form with no word yet is
    /// refused (on the word field), in every front end alike.
    public func wordToLookUp() throws -> String {
        let word = self[.word].trimmingSpaces()
        guard !word.isEmpty else { throw WordFormError(field: .word, underlying: .nothingToLookUp) }
        return word
    }

    /// The form as a draft for a new word.
    public var draft: WordDraft {
        WordDraft(word: self[.word], definition: self[.definition], detail: self[.detail],
                  pronunciation: self[.pronunciation], synonym: self[.synonym], antonym: self[.antonym], date: date, memorized: memorized)
    }

    /// The fields the dictionary entry would fill (only empty ones), with their new values.
    public func dictionaryFill(from entry: DictionaryEntry) -> [(field: WordField, value: String)] {
        let filled = WordLookup.fill(draft, from: entry)
        return WordField.allCases.compactMap { field in
            let new = filled.value(of: field)
            return new != self[field] ? (field, new) : nil
        }
    }

    /// Fills the empty fields from the dictionary entry (its most frequent sense); returns the
    /// fields it filled.
    @discardableResult
    public mutating func fill(from entry: DictionaryEntry) -> [WordField] {
        let changes = dictionaryFill(from: entry)
        for (field, value) in changes { self[field] = value }
        for (field, value) in changes { filledByDictionary[field] = value }
        return changes.map(\.field)
    }

    /// Another sense of the entry after Dictionary: its definition, example, synonyms and
    /// antonyms take the place of what the dictionary filled, and fill what is still empty;
    /// what the user typed stays. Returns the fields it changed.
    @discardableResult
    public mutating func choose(sense: Int, of entry: DictionaryEntry) -> [WordField] {
        var changed: [WordField] = []
        for (field, value) in WordLookup.values(of: sense, in: entry)
        where filledByDictionary[field] == self[field] || self[field].isEmpty {
            if self[field] != value { changed.append(field) }
            self[field] = value
            filledByDictionary[field] = value.isEmpty ? nil : value
        }
        return changed
    }

    /// Done: validates and saves the word into `bookId` (new) or over the word being edited.
    /// Throws `WordFormError` naming the field a rule concerns, or the store's error; on any
    /// error nothing is saved.
    public func save(to library: Library, bookId: UUID, now: Timestamp) throws -> Word {
        let store = library.store
        do {
            if let editing {
                let changes = WordChanges(word: self[.word], definition: self[.definition], detail: self[.detail],
                                          pronunciation: self[.pronunciation], synonym: self[.synonym],
                                          antonym: self[.antonym], memorized: memorized,
                                          bookId: bookId)
                return try store.updateWord(id: editing, changes, now: now)
            }
            return try store.addWord(draft, toBook: bookId, id: newId, now: now)
        } catch let error as VocabError {
            throw WordFormError(field: WordFormError.field(of: error), underlying: error)
        }
    }
}

/// A rule the form broke, with the field to show it next to (nil: the whole form).
public struct WordFormError: UserFacingError {
    public let field: WordField?
    public let underlying: VocabError
    public var category: ErrorCategory { underlying.category }
    public var sentence: Sentence { underlying.sentence }

    static func field(of error: VocabError) -> WordField? {
        switch error {
        case .emptyField(let name), .fieldTooLong(let name, _), .invalidCharacters(let name):
            return WordField(rawValue: name)
        case .duplicateWord: return .word
        default: return nil
        }
    }
}

/// Filling a word's empty fields from a dictionary entry; what the user typed is never replaced.
public enum WordLookup {
    /// `draft` with its empty fields filled from the entry's sense `sense` (0: the one met most
    /// often): "(adj.) definition", its first example, its synonyms and antonyms; the IPA.
    public static func fill(_ draft: WordDraft, from entry: DictionaryEntry, sense: Int = 0) -> WordDraft {
        var filled = draft
        for (field, value) in values(of: sense, in: entry) where filled.value(of: field).isEmpty { filled.set(field, value) }
        if filled.pronunciation.isEmpty, let ipa = entry.pronunciation, !ipa.isEmpty { filled.pronunciation = ipa }
        return filled
    }

    /// The fields the entry's sense `index` fills, with their values ("" where it has nothing).
    /// A sense whose synset holds no other word takes the synonyms of the entry's other senses
    /// of the same part of speech (happy's first sense alone is "happy"; glad is its third).
    static func values(of index: Int, in entry: DictionaryEntry) -> [(WordField, String)] {
        guard entry.senses.indices.contains(index) else { return [] }
        let sense = entry.senses[index]
        var synonyms = sense.synonyms
        if synonyms.isEmpty {
            let others = entry.senses.filter { $0.partOfSpeech == sense.partOfSpeech }.flatMap(\.synonyms)
            var seen = Set<String>()
            synonyms = others.filter { seen.insert($0.lowercased()).inserted }
        }
        return [(.definition, definition(of: sense)), (.detail, sense.examples.first ?? ""),
                (.synonym, synonyms.prefix(5).joined(separator: ", ")), (.antonym, sense.antonyms.prefix(3).joined(separator: ", "))]
    }

    /// "(adj.) possessing or displaying courage": a sense as a word's definition.
    public static func definition(of sense: Sense) -> String {
        "(\(abbreviation(sense.partOfSpeech))) \(sense.definition)"
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

/// The six text fields a word and a draft share, readable by `WordField`.
public protocol WordTextFields {
    var word: String { get }
    var definition: String { get }
    var detail: String { get }
    var pronunciation: String { get }
    var synonym: String { get }
    var antonym: String { get }
}

extension WordTextFields {
    /// The text of one field.
    public func value(of field: WordField) -> String {
        switch field {
        case .word: return word
        case .definition: return definition
        case .detail: return detail
        case .pronunciation: return pronunciation
        case .synonym: return synonym
        case .antonym: return antonym
        }
    }
}

extension Word: WordTextFields {}
extension WordDraft: WordTextFields {
    mutating func set(_ field: WordField, _ value: String) {
        switch field {
        case .word: word = value
        case .definition: definition = value
        case .detail: detail = value
        case .pronunciation: pronunciation = value
        case .synonym: synonym = value
        case .antonym: antonym = value
        }
    }
}
