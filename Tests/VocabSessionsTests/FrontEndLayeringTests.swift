import Foundation
import XCTest

/// The front ends reach the store and the cloud only through the session layer (DESIGN.md §2):
/// no file of theirs imports `VocabStore` or the sync client (`VocabSync`), and `Package.swift`
/// gives none of them the dependency. (The compiler holds the rest: `MemberImportVisibility`
/// hides what a module does not import.)
final class FrontEndLayeringTests: XCTestCase {
    private let frontEnds = ["VocabCLI", "VocabDesktop", "VocabWeb", "VocabServer", "VocabWording"]
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private let below = ["VocabStore", "VocabSync"]

    func testNoFrontEndFileImportsTheStoreOrTheSyncClient() throws {
        var offenders: [String] = []
        for module in frontEnds {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
            XCTAssertFalse(files.isEmpty, "\(module) has Swift files")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").map(String.init)
                    if let imported = words.last, words.contains("import"), below.contains(imported) {
                        offenders.append("\(module)/\(file): \(line)")
                    }
                }
            }
        }
        XCTAssertEqual(offenders, [], "front-end files that import the store or the sync client")
    }

    func testNoFrontEndTargetDependsOnTheStoreOrTheSyncClient() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for module in frontEnds {
            let declaration = try XCTUnwrap(manifest.range(of: ".target(name: \"\(module)\""), "\(module) is a target")
            let rest = manifest[declaration.upperBound...]
            let end = rest.range(of: "]")?.lowerBound ?? rest.endIndex
            let dependencies = rest[..<end]
            XCTAssertTrue(dependencies.contains("\"VocabSessions\""), "\(module) depends on the session layer")
            for module in below { XCTAssertFalse(dependencies.contains("\"\(module)\""), "a front end depends on \(module)") }
        }
    }
}
