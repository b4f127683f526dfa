import VocabCore
import VocabDictionary
import VocabSessions

/// The interactive word form of `vocab word add` without a word: one field per line, each with
/// the original app's two toolbar actions — Done (Enter on an empty line) and Dictionary (`?`:
/// look up the word typed so far and offer to fill the empty fields). The form itself (what the
/// dictionary may fill, what Done checks) is the shared `WordForm`; this is its terminal view.
struct EntryForm {
    let context: AppContext

    /// The form the user filled in, or nil when they left the word empty (nothing to add).
    func run(bookName: String) throws -> WordForm? {
        let console = context.console
        let style = Style(console: console, environment: context.environment)
        console.print("New word for \"\(bookName)\". " + style.dim("Enter on an empty line: Done · ?: Dictionary"))
        var form = WordForm()
        var index = 0
        let fields = WordField.allCases
        while index < fields.count {
            let field = fields[index]
            if !form[field].isEmpty { index += 1; continue }  // filled from the dictionary
            console.prompt("\(field.rawValue) " + style.dim("[Enter: Done · ?: Dictionary]") + " > ")
            guard let line = console.readLine() else { break }                   // end of input: Done
            var text = line.trimmingSpaces()
            let wantsDictionary = text.hasSuffix("?")
            if wantsDictionary { text = String(text.dropLast()).trimmingSpaces() }
            if !text.isEmpty { form[field] = text }

            if wantsDictionary {
                let word: String
                do { word = try form.wordToLookUp() } catch {
                    console.print(TerminalWording.message(forAny: error))
                    continue
                }
                try offerDictionary(for: word, form: &form)
                index += field == .word ? 1 : 0
                continue
            }
            if text.isEmpty {
                if field == .word { return nil }
                break  // Done
            }
            index += 1
        }
        return form[.word].isEmpty ? nil : form
    }

    private func offerDictionary(for word: String, form: inout WordForm) throws {
        let console = context.console
        let entry: DictionaryEntry
        do {
            entry = try context.dictionary.lookUp(word)
        } catch let error as DictionaryError {
            console.print(error.message)
            return
        }
        let changes = form.dictionaryFill(from: entry)
        guard !changes.isEmpty else {
            console.print("The dictionary has nothing for the empty fields.")
            return
        }
        // The senses, most met first; the first one's fill is shown, any other is a number away.
        if entry.senses.count > 1 {
            for (index, sense) in entry.senses.prefix(DictionaryService.sensesOffered).enumerated() {
                console.print("  \(index + 1). " + TextWidth.fit(WordLookup.definition(of: sense), width: 100))
            }
        }
        for (field, value) in changes { console.print("  \(field.rawValue): \(value)") }
        let senses = min(entry.senses.count, DictionaryService.sensesOffered)
        let question = senses > 1 ? "Fill these fields? [y/N, or the number of another sense 1-\(senses)] " : "Fill these fields? [y/N] "
        console.prompt(question)
        let answer = (console.readLine() ?? "").trimmingSpaces().lowercased()
        if ["y", "yes"].contains(answer) {
            form.fill(from: entry)
        } else if let number = Int(answer), (1...senses).contains(number) {
            form.fill(from: entry)
            form.choose(sense: number - 1, of: entry)
            for field in [WordField.definition, .detail, .synonym, .antonym] where !form[field].isEmpty {
                console.print("  \(field.rawValue): \(form[field])")
            }
        }
    }
}
