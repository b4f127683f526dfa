import VocabCore

/// Which word field each field of each Anki note type fills: `--field NAME=target` first, then
/// by name (Front/Word/Expression/Vocabulary → word, Back/Meaning/Definition → definition,
/// Example/Sentence/Context/Notes → detail, Pronunciation/Reading/IPA → pronunciation,
/// Synonym(s), Antonym(s)); a note type with no field named like a word gives its first
/// unnamed field to the word, and one with none named like a definition its next to the
/// definition. Fields left over are not carried (listed in the summary).
public struct AnkiFieldMap {
    /// Per note type: the word field each Anki field fills, by position (nil: not carried).
    private var targets: [Int64: [WordField?]] = [:]
    /// What the summary should say about the mapping.
    private(set) var notes: [String] = []
    /// The note types' fields that go nowhere ("Audio (Basic)"), for a front end to offer a mapping.
    private(set) var notCarried: [String] = []

    init(noteTypes: [Int64: AnkiNoteType], overrides: [String: WordField], usedNoteTypes: Set<Int64>) throws {
        let allNames = Set(noteTypes.values.flatMap { $0.fields.map { $0.lowercased() } })
        for name in overrides.keys where !allNames.contains(name.lowercased()) {
            throw AnkiPackageError.unknownField(name: name, known: Array(Set(noteTypes.values.flatMap(\.fields))).sorted())
        }
        let lowered = Dictionary(overrides.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        var byPosition: [String] = []
        for (id, type) in noteTypes.sorted(by: { $0.key < $1.key }) where usedNoteTypes.contains(id) {
            let (fields, filled) = Self.targets(ofFields: type.fields, overrides: lowered)
            byPosition += filled.map { "\(type.fields[$0.index]) → \($0.target.rawValue) (\(type.name))" }
            for (index, name) in type.fields.enumerated() where fields[index] == nil {
                notCarried.append("\(name) (\(type.name))")
            }
            targets[id] = fields
        }
        if !byPosition.isEmpty { notes.append("Anki fields read by position: \(byPosition.joined(separator: ", ")).") }
    }

    /// The word field each of a note type's fields (`names`, in order) fills: an override (by
    /// lower-cased name) first, then by name; the word and the definition, when no name gives
    /// them, go to the first fields left. Returns those filled by position too.
    public static func targets(ofFields names: [String], overrides: [String: WordField] = [:])
        -> (targets: [WordField?], byPosition: [(index: Int, target: WordField)]) {
        var fields: [WordField?] = names.map { overrides[$0.lowercased()] ?? field(named: $0) }
        var byPosition: [(index: Int, target: WordField)] = []
        for target in [WordField.word, .definition] where !fields.contains(target) {
            guard let free = fields.indices.first(where: { fields[$0] == nil && overrides[names[$0].lowercased()] == nil }) else { continue }
            fields[free] = target
            byPosition.append((free, target))
        }
        return (fields, byPosition)
    }

    /// The word field `name` stands for, by the names decks commonly use.
    static func field(named name: String) -> WordField? {
        let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
        switch key {
        case "word", "front", "expression", "vocabulary", "vocab", "term", "text", "단어": return .word
        case "back", "meaning", "meanings", "definition", "definitions", "translation", "뜻", "의미": return .definition
        case "example", "examples", "sentence", "sentences", "context", "notes", "note", "detail", "details",
             "backextra", "extra", "예문", "메모": return .detail
        case "pronunciation", "reading", "ipa", "phonetic", "phonetics", "발음": return .pronunciation
        case "synonym", "synonyms", "유의어", "동의어": return .synonym
        case "antonym", "antonyms", "반의어": return .antonym
        default: return nil
        }
    }

    /// The targets of note type `id`'s fields, by position.
    func targets(ofNoteType id: Int64) -> [WordField?] { targets[id] ?? [] }
}
