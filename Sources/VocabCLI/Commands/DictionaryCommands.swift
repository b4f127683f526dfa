import FoundationEssentials
import VocabCore
import VocabDictionary
import VocabSessions

/// `vocab dict` and `vocab say`: looking words up and hearing them.
enum DictionaryCommands {
    static let dict = Command(spec: CommandSpec(
        name: "dict", abstract: "Look a word up: WordNet offline, a DICT server, or the web dictionary.",
        arguments: [ArgumentSpec("WORD", help: "The word (inflected forms such as geese or running are found too).")],
        options: [
            OptionSpec("server", value: "HOST[:PORT]", help: "Ask a DICT server (RFC 2229), e.g. localhost:2628."),
            OptionSpec("database", value: "NAME", help: "With --server: one database (default: all)."),
            OptionSpec("web", help: "Open the web dictionary page for the word (printed when there is no display)."),
            .json,
        ],
        discussion: """
            Offline lookups read WordNet 3.0 from /usr/share/wordnet (apt-get install wordnet-base; VOCAB_WORDNET
            names another folder). Pronunciation comes from espeak-ng when installed. The web dictionary is the Naver
            English dictionary unless config.json sets "webDictionary" to a URL with {word}.
            """,
        examples: ["vocab dict happy", "vocab dict geese --json", "vocab dict 사과 --web", "vocab dict apple --server localhost"]
    )) { arguments, context in
        let word = arguments.positionals[0]
        let console = context.console
        if arguments.flag("web") {
            let dictionaries = try context.paths.dictionaries()
            let url = try dictionaries.webURL(for: word)
            if dictionaries.openInBrowser(url) {
                console.print("Opened \(url)")
            } else {
                console.print(url)
            }
            return
        }
        if let server = arguments.value("server") {
            let client = try DictClient(server: server)
            let definitions = try client.define(word, database: arguments.value("database") ?? "*")
            guard !definitions.isEmpty else { throw DictionaryError.notFound(word) }
            if arguments.flag("json") {
                console.print(JSONValue.array(definitions.map {
                    .object([("word", .string($0.word)), ("database", .string($0.database)),
                             ("description", .string($0.databaseDescription)), ("text", .string($0.text))])
                }).pretty)
            } else {
                for definition in definitions {
                    console.print(Style(console: console, environment: context.environment).bold("From \(definition.databaseDescription) [\(definition.database)]:"))
                    console.print(definition.text)
                    console.print("")
                }
            }
            return
        }
        let entry = try context.dictionary.lookUp(word)
        if arguments.flag("json") {
            console.print(json(entry).pretty)
        } else {
            render(entry, context: context)
        }
    }

    static let say = Command(spec: CommandSpec(
        name: "say", abstract: "Speak a word with espeak-ng (English or Korean), or write it to a WAV file.",
        arguments: [ArgumentSpec("WORD", help: "The word or phrase.")],
        options: [OptionSpec("output", short: "o", value: "FILE", help: "Write a WAV file instead of playing."),
                  OptionSpec("voice", value: "VOICE", help: "en, ko or any espeak-ng voice (default: from the text).")],
        examples: ["vocab say serendipity", "vocab say 사과 -o apple.wav"]
    )) { arguments, context in
        try context.dictionary.say(arguments.positionals[0], voice: arguments.value("voice"),
                                             wavPath: arguments.value("output"))
        if let output = arguments.value("output") { context.console.print("Wrote \(output).") }
    }

    static func json(_ entry: DictionaryEntry) -> JSONValue {
        .object([
            ("word", .string(entry.query)), ("lemma", .string(entry.lemma)),
            ("baseForms", .array(entry.baseForms.map { .string($0) })),
            ("pronunciation", entry.pronunciation.map { .string($0) } ?? .null),
            ("senses", .array(entry.senses.map { sense in
                .object([("lemma", .string(sense.lemma)), ("partOfSpeech", .string(sense.partOfSpeech)), ("definition", .string(sense.definition)),
                         ("examples", .array(sense.examples.map { .string($0) })),
                         ("synonyms", .array(sense.synonyms.map { .string($0) })),
                         ("antonyms", .array(sense.antonyms.map { .string($0) })), ("tagCount", .int(Int64(sense.tagCount)))])
            })),
            ("synonyms", .array(entry.synonyms.map { .string($0) })),
            ("antonyms", .array(entry.antonyms.map { .string($0) })),
        ])
    }

    static func render(_ entry: DictionaryEntry, context: AppContext) {
        let console = context.console
        let style = Style(console: console, environment: context.environment)
        var heading = style.bold(entry.query)
        let forms = entry.baseForms.filter { $0.lowercased() != entry.query.lowercased() }
        if !forms.isEmpty { heading += " (→ \(forms.joined(separator: ", ")))" }
        if let ipa = entry.pronunciation, !ipa.isEmpty { heading += "  /\(ipa)/" }
        console.print(heading)
        console.print("")
        // The senses as a learner meets them, most frequent first, each with its part of speech.
        for (index, sense) in entry.senses.enumerated() {
            let part = sense.partOfSpeech + (sense.lemma.lowercased() == entry.query.lowercased() ? "" : " (\(sense.lemma))")
            console.print(CFormat.string("%3d. ", index + 1) + style.bold(part) + "  " + sense.definition)
            for example in sense.examples { console.print(style.dim("       \"\(example)\"")) }
        }
        if !entry.synonyms.isEmpty { console.print("\nSynonyms: " + entry.synonyms.prefix(12).joined(separator: ", ")) }
        if !entry.antonyms.isEmpty { console.print("Antonyms: " + entry.antonyms.joined(separator: ", ")) }
    }
}
