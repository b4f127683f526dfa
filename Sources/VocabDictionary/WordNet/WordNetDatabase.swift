import VocabCore
import FoundationEssentials

/// WordNet 3.0 as Debian's `wordnet-base` installs it, read directly: index files by binary
/// search, synsets by byte offset, base forms through the exception lists and WordNet's
/// detachment rules (morphy).
public final class WordNetDatabase {
    /// Where Debian puts the files.
    public static let defaultFolder = "/usr/share/wordnet"

    enum PartOfSpeech: String, CaseIterable {
        case noun, verb, adj, adv

        var name: String {
            switch self {
            case .noun: return "noun"
            case .verb: return "verb"
            case .adj: return "adjective"
            case .adv: return "adverb"
            }
        }

        /// The suffix rules of WordNet's morphy: (ending, replacement).
        var detachments: [(String, String)] {
            switch self {
            case .noun: return [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")]
            case .verb: return [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")]
            case .adj: return [("er", ""), ("est", ""), ("er", "e"), ("est", "e")]
            case .adv: return []
            }
        }
    }

    private let indexes: [PartOfSpeech: SortedLineFile]
    private let data: [PartOfSpeech: SortedLineFile]
    private let exceptions: [PartOfSpeech: SortedLineFile]
    /// `cntlist.rev`: how often each sense was met in the tagged texts (nil: WordNet's order).
    private let tagCounts: SortedLineFile?

    /// Opens the WordNet files in `folder`; throws a message saying how to install them when missing.
    public init(folder: String = WordNetDatabase.defaultFolder) throws {
        var indexes: [PartOfSpeech: SortedLineFile] = [:]
        var data: [PartOfSpeech: SortedLineFile] = [:]
        var exceptions: [PartOfSpeech: SortedLineFile] = [:]
        for pos in PartOfSpeech.allCases {
            guard let index = SortedLineFile(path: "\(folder)/index.\(pos.rawValue)"),
                  let lines = SortedLineFile(path: "\(folder)/data.\(pos.rawValue)") else {
                throw DictionaryError.wordNetMissing(folder: folder)
            }
            indexes[pos] = index
            data[pos] = lines
            exceptions[pos] = SortedLineFile(path: "\(folder)/\(pos.rawValue).exc")
        }
        self.indexes = indexes
        self.data = data
        self.exceptions = exceptions
        tagCounts = SortedLineFile(path: "\(folder)/cntlist.rev")
    }

    /// Looks a word up, falling back to its base forms ("geese" → goose, "running" → run).
    /// The senses come in the order a learner meets them: by how often each was met in
    /// WordNet's tagged texts, across parts of speech (brave: the adjective before the noun
    /// nobody met); ties keep WordNet's own order (noun, verb, adjective, adverb; sense number).
    public func lookUp(_ word: String) throws -> DictionaryEntry {
        let query = TextRules.trimmingWhiteSpace(word)
        guard !query.isEmpty else { throw DictionaryError.emptyWord }
        let key = query.lowercased().replacingText(" ", with: "_")
        var senses: [Sense] = []
        var lemma: String?
        for pos in PartOfSpeech.allCases {
            for (form, line) in formsInIndex(of: key, pos: pos) {
                let offsets = try synsetOffsets(indexLine: line)
                if lemma == nil { lemma = form }
                let counts = tagCounts(of: form, pos: pos)
                let shown = form.replacingText("_", with: " ")
                for (number, offset) in offsets.enumerated() {
                    let synset = try readSynset(pos: pos, offset: offset)
                    senses.append(Sense(lemma: shown, partOfSpeech: pos.name, definition: synset.definition, examples: synset.examples,
                                        synonyms: synset.words.filter { $0.lowercased() != shown },
                                        antonyms: Self.distinct(try synset.antonyms(of: form, database: self)),
                                        tagCount: counts[number + 1] ?? 0))
                }
            }
        }
        guard let lemma, !senses.isEmpty else { throw DictionaryError.notFound(query) }
        senses = Self.byFrequency(senses)
        let antonyms = Self.distinct(senses.flatMap(\.antonyms))
        return DictionaryEntry(query: query, lemma: lemma.replacingText("_", with: " "), senses: senses, antonyms: antonyms)
    }

    /// `words` without repeats, in order.
    static func distinct(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }

    /// `senses` (in WordNet's order) by tagged count, most met first; ties keep their order.
    static func byFrequency(_ senses: [Sense]) -> [Sense] {
        senses.enumerated().sorted { ($0.element.tagCount, -$0.offset) > ($1.element.tagCount, -$1.offset) }.map(\.element)
    }

    /// Sense number → tagged count for `form` as a `pos`, from `cntlist.rev` (sense keys
    /// `lemma%ss_type:…`; ss_type 1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite adjective).
    func tagCounts(of form: String, pos: PartOfSpeech) -> [Int: Int] {
        guard let tagCounts else { return [:] }
        let types: Set<Character> = switch pos {
        case .noun: ["1"]
        case .verb: ["2"]
        case .adj: ["3", "5"]
        case .adv: ["4"]
        }
        var counts: [Int: Int] = [:]
        for line in tagCounts.lines(withPrefix: form.lowercased() + "%") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let separator = fields[0].firstIndex(of: "%"),
                  let type = fields[0][fields[0].index(after: separator)...].first, types.contains(type),
                  let number = Int(fields[1]), let count = Int(fields[2]) else { continue }
            counts[number, default: 0] += count
        }
        return counts
    }

    /// The forms of `key` that this part of speech's index holds, with their index lines, as
    /// WordNet's morphy finds them: the word itself and its irregular base forms from the
    /// exception list ("better" → better, good, well); only when none of those is there, the
    /// first form the detachment rules give ("boxes" → box).
    func formsInIndex(of key: String, pos: PartOfSpeech) -> [(String, String)] {
        var candidates = [key]
        if let line = exceptions[pos]?.line(forKey: key) {
            candidates += line.split(separator: " ").dropFirst().map(String.init)
        }
        var seen = Set<String>()
        var found = candidates.filter { seen.insert($0).inserted }.compactMap { form in
            indexes[pos]?.line(forKey: form).map { (form, $0) }
        }
        if found.isEmpty {
            for (ending, replacement) in pos.detachments where key.hasSuffix(ending) && key.count > ending.count {
                let form = String(key.dropLast(ending.count)) + replacement
                if let line = indexes[pos]?.line(forKey: form) { found.append((form, line)); break }
            }
        }
        return found
    }

    private func synsetOffsets(indexLine line: String) throws -> [Int] {
        // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
        let fields = line.split(separator: " ")
        guard fields.count >= 4, let synsetCount = Int(fields[2]), let pointerCount = Int(fields[3]) else {
            throw DictionaryError.wordNetDamaged(file: "index")
        }
        let start = 4 + pointerCount + 2
        guard fields.count >= start + synsetCount else { throw DictionaryError.wordNetDamaged(file: "index") }
        return try fields[start..<start + synsetCount].map { field in
            guard let offset = Int(field) else { throw DictionaryError.wordNetDamaged(file: "index") }
            return offset
        }
    }

    func readSynset(pos: PartOfSpeech, offset: Int) throws -> Synset {
        guard let line = data[pos]?.line(atOffset: offset), let synset = Synset(line: line) else {
            throw DictionaryError.wordNetDamaged(file: "data.\(pos.rawValue)")
        }
        return synset
    }

    func part(forSymbol symbol: Substring) -> PartOfSpeech? {
        switch symbol {
        case "n": return .noun
        case "v": return .verb
        case "a", "s": return .adj
        case "r": return .adv
        default: return nil
        }
    }
}

/// One line of a WordNet data file.
struct Synset {
    struct Pointer {
        let symbol: Substring
        let offset: Int
        let pos: Substring
        let source: Int
        let target: Int
    }

    let words: [String]
    let pointers: [Pointer]
    let definition: String
    let examples: [String]

    /// Parses `offset lex_filenum ss_type w_cnt word lex_id ... p_cnt ptr... | gloss`.
    init?(line: String) {
        let parts = line.components(separatedBy: " | ")
        let fields = parts[0].split(separator: " ")
        guard fields.count >= 4, let wordCount = Int(fields[3], radix: 16) else { return nil }
        var index = 4
        var words: [String] = []
        for _ in 0..<wordCount {
            guard index + 1 < fields.count else { return nil }
            var word = String(fields[index]).replacingText("_", with: " ")
            if let parenthesis = word.firstIndex(of: "(") { word = String(word[..<parenthesis]) }  // "(a)" markers
            words.append(word)
            index += 2
        }
        guard index < fields.count, let pointerCount = Int(fields[index]) else { return nil }
        index += 1
        var pointers: [Pointer] = []
        for _ in 0..<pointerCount {
            guard index + 3 < fields.count, let offset = Int(fields[index + 1]),
                  let sourceTarget = Int(fields[index + 3], radix: 16) else { return nil }
            pointers.append(Pointer(symbol: fields[index], offset: offset, pos: fields[index + 2],
                                    source: sourceTarget >> 8, target: sourceTarget & 0xFF))
            index += 4
        }
        let gloss = parts.count > 1 ? parts[1...].joined(separator: " | ").trimmingSpaces() : ""
        let pieces = gloss.components(separatedBy: "; ").map { $0.trimmingSpaces() }
        self.words = words
        self.pointers = pointers
        definition = pieces.filter { !$0.hasPrefix("\"") }.joined(separator: "; ")
        examples = pieces.filter { $0.hasPrefix("\"") }.map { piece in piece.trimming { $0 == "\"" } }
    }

    /// Lexical antonyms (`!` pointers whose source is `lemma`'s place in this synset).
    func antonyms(of lemma: String, database: WordNetDatabase) throws -> [String] {
        let plain = lemma.replacingText("_", with: " ").lowercased()
        guard let place = words.firstIndex(where: { $0.lowercased() == plain }) else { return [] }
        var found: [String] = []
        for pointer in pointers where pointer.symbol == "!" && pointer.source == place + 1 {
            guard let pos = database.part(forSymbol: pointer.pos) else { continue }
            let target = try database.readSynset(pos: pos, offset: pointer.offset)
            if pointer.target >= 1 && pointer.target <= target.words.count { found.append(target.words[pointer.target - 1]) }
        }
        return found
    }
}
