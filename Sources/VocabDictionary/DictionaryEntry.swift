/// What a dictionary knows about a word.
public struct DictionaryEntry: Sendable, Equatable {
    /// The word as looked up.
    public var query: String
    /// The base form the senses belong to ("goose" for "geese"), when it differs from the query.
    public var lemma: String
    public var senses: [Sense]
    /// Opposites from WordNet's lexical antonym pointers over all senses, in the senses' order.
    public var antonyms: [String]
    /// IPA, when espeak-ng was available.
    public var pronunciation: String?

    public init(query: String, lemma: String, senses: [Sense], antonyms: [String], pronunciation: String? = nil) {
        self.query = query
        self.lemma = lemma
        self.senses = senses
        self.antonyms = antonyms
        self.pronunciation = pronunciation
    }

    /// The dictionary forms the senses belong to, in order, when any differs from the query
    /// ("geese" → goose; "running" → running, run).
    public var baseForms: [String] {
        var seen = Set<String>()
        return senses.map(\.lemma).filter { seen.insert($0).inserted }
    }

    /// Synonyms over all senses, in order of first appearance, without the word itself.
    public var synonyms: [String] {
        var seen = Set<String>([lemma.lowercased()])
        return senses.flatMap(\.synonyms).filter { seen.insert($0.lowercased()).inserted }
    }
}

/// One meaning of a word.
public struct Sense: Sendable, Equatable {
    /// The dictionary form this sense belongs to ("run" for "running" as a verb).
    public var lemma: String
    /// noun, verb, adjective or adverb.
    public var partOfSpeech: String
    public var definition: String
    public var examples: [String]
    public var synonyms: [String]
    /// This sense's own opposites (lexical antonym pointers from the word in this synset).
    public var antonyms: [String]
    /// How often this sense was met in WordNet's tagged texts (SemCor's counts, `cntlist.rev`):
    /// what orders the senses, the one a learner meets most first.
    public var tagCount: Int

    public init(lemma: String, partOfSpeech: String, definition: String, examples: [String], synonyms: [String],
                antonyms: [String] = [], tagCount: Int = 0) {
        self.lemma = lemma
        self.partOfSpeech = partOfSpeech
        self.definition = definition
        self.examples = examples
        self.synonyms = synonyms
        self.antonyms = antonyms
        self.tagCount = tagCount
    }
}
