import Foundation
import XCTest

/// Only the terminal names the terminal's commands: a sentence built below the front ends (or
/// in the window) that says "run `vocab sync`" would show in the window and the web app, where
/// no such command exists. The layers report values; the terminal words them (TerminalWording).
final class LayeringTests: XCTestCase {
    private static let commands = ["book", "word", "import", "export", "game", "study", "due", "review", "dict", "say",
                                   "cloud", "login", "logout", "account", "sync", "backup", "maintain", "optimize",
                                   "starter", "stats", "help", "serve"]

    /// Every Swift file of `Sources`, as "module/path" and its text, but those of `excluded` modules.
    private func sourceFiles(excludingModules excluded: Set<String>) throws -> [(name: String, text: String)] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var found: [(name: String, text: String)] = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !excluded.contains($0) }
        for module in modules {
            guard let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let path = sources.appendingPathComponent(module).appendingPathComponent(file).path
                found.append(("\(module)/\(file)", try String(contentsOfFile: path, encoding: .utf8)))
            }
        }
        return found
    }

    func testNoTypeOutsideTheTerminalBuildsASentenceThatNamesAVocabCommand() throws {
        let pattern = try NSRegularExpression(pattern: "`vocab\\b|\\bvocab (" + Self.commands.joined(separator: "|") + ")\\b")
        var offenders: [String] = []
        let files = try sourceFiles(excludingModules: ["VocabCLI", "vocab", "vocab-bench"])
        for file in files {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), code.contains("\"") || !code.isEmpty else { continue }
                let text = String(line)
                if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    offenders.append("\(file.name):\(number + 1): \(code)")
                }
            }
        }
        XCTAssertGreaterThan(files.count, 100, "the sources were found")
        XCTAssertEqual(offenders, [], "sentences outside the terminal that name a vocab command")
    }

    /// The `vocab` binary's modules import FoundationEssentials, never all of Foundation (with it
    /// come ICU and CoreFoundation, and every command starts twice as slowly: DESIGN.md §2).
    func testTheCommandLinesModulesDoNotImportAllOfFoundation() throws {
        let files = try sourceFiles(excludingModules: ["VocabDesktop", "vocab-desktop", "vocab-bench"])
        let offenders = files.filter { file in
            let imports = file.text.split(separator: "\n").filter { $0.hasPrefix("import Foundation") || $0.contains(" import Foundation") }
            return imports.contains { $0.hasSuffix("Foundation") || $0.contains("Foundation.") || $0.hasSuffix("Foundation ") }
        }.map(\.name)
        XCTAssertGreaterThan(files.count, 100, "the sources were found")
        XCTAssertEqual(offenders, [], "files of the vocab binary that import all of Foundation")
    }

    /// And the binary the tests run loads none of it either (a module importing Foundation, as
    /// SwiftPM's accessor of a resource bundle does, would load it and hide what differs).
    func testTheVocabBinaryLoadsNeitherFoundationNorICU() throws {
        let runner = try VocabRunner()
        let listed = try runner.run([], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])  // the loader lists, runs nothing
        XCTAssertTrue(listed.stdout.contains("libc.so"), listed.stdout + listed.stderr)
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libCoreFoundation"] {
            XCTAssertFalse(listed.stdout.contains(library), "\(library) in \(listed.stdout)")
        }
    }
}
