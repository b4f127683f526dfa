import Foundation
import XCTest

/// The README's command blocks and the guides' (docs/using.md, docs/operating.md) against the
/// built `vocab`: every command they name exists, and every flag they give it is one its help
/// names (issue 71). A renamed flag fails here before a reader meets it.
final class DocumentedCommandsTests: EndToEndTestCase {
    private let documents = ["README.md", "docs/using.md", "docs/operating.md"]

    /// Every `vocab …` call in the ```sh blocks of `text` (lines joined at a trailing `\`,
    /// comments cut, leading `VAR=value` assignments and pipes skipped), as its words.
    static func calls(in text: String) -> [[String]] {
        var calls: [[String]] = []
        var inShell = false, pending = ""
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inShell = !inShell && line.hasPrefix("```sh")
                continue
            }
            guard inShell else { continue }
            let code = String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
            if code.hasSuffix("\\") {
                pending += code.dropLast() + " "
                continue
            }
            let whole = pending + code
            pending = ""
            for part in whole.components(separatedBy: CharacterSet(charactersIn: "|&;")) {
                var words = Self.words(part)
                while let first = words.first, first.contains("="), !first.hasPrefix("-") { words.removeFirst() }
                if words.first == "vocab" { calls.append(words) }
            }
        }
        return calls
    }

    /// A command line's words, quotes taken off (a quoted phrase is one word).
    private static func words(_ text: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    func testTheCallsAreFoundAsAReaderWouldTypeThem() {
        let text = """
            ```sh
            PGPASSWORD=... vocab cloud init --admin "postgresql://postgres@$CLOUD"   # once
            printf '2\\n1\\n' | vocab game --book TOEIC     # answers from a pipe
            vocab serve --cloud URL \\
                --listen 0.0.0.0:8443
            swift run vocab-desktop
            ```
            vocab outside --of-a-block
            """
        XCTAssertEqual(Self.calls(in: text), [["vocab", "cloud", "init", "--admin", "postgresql://postgres@$CLOUD"],
                                             ["vocab", "game", "--book", "TOEIC"],
                                             ["vocab", "serve", "--cloud", "URL", "--listen", "0.0.0.0:8443"]])
    }

    func testEveryCommandTheDocumentsNameExistsWithTheFlagsTheyGive() throws {
        var helps: [String: String] = [:]
        /// The help of the command `words` start with (two words, else one); nil when none.
        func help(_ words: [String]) throws -> (command: String, text: String)? {
            let names = words.dropFirst().prefix { !$0.hasPrefix("-") }
            for count in stride(from: min(2, names.count), through: 1, by: -1) {
                let command = names.prefix(count).joined(separator: " ")
                if let known = helps[command] { return (command, known) }
                let run = try vocab.run(Array(names.prefix(count)) + ["--help"])
                if run.status == 0, run.stdout.contains("Usage: vocab \(command)") {
                    helps[command] = run.stdout
                    return (command, run.stdout)
                }
            }
            return nil
        }
        var checked = 0
        for document in documents {
            let text = try String(contentsOfFile: VocabRunner.repository + "/" + document, encoding: .utf8)
            let calls = Self.calls(in: text)
            XCTAssertFalse(calls.isEmpty, "\(document) has vocab commands")
            for call in calls where call.count > 1 {
                guard let (command, text) = try help(call) else {
                    XCTFail("\(document): `\(call.joined(separator: " "))` names no command of vocab")
                    continue
                }
                for flag in call where flag.hasPrefix("--") {
                    let name = String(flag.prefix { $0 != "=" })
                    XCTAssertTrue(text.contains(name), "\(document): `vocab \(command)` has no \(name)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 60, "the documents' commands were read")
    }
}
