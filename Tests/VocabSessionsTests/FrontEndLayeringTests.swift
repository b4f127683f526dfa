import Foundation
import XCTest

/// The front ends reach the store only through the session layer (DESIGN.md §2): no file of
/// theirs imports `VocabStore`, and `Package.swift` gives none of them the dependency. (The
/// compiler holds the rest: `MemberImportVisibility` hides what a module does not import.)
final class FrontEndLayeringTests: XCTestCase {
    private let frontEnds = ["VocabCLI", "VocabDesktop", "VocabWeb", "VocabServer", "VocabWording"]
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testNoFrontEndFileImportsTheStore() throws {
        var offenders: [String] = []
        for module in frontEnds {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
            XCTAssertFalse(files.isEmpty, "\(module) has Swift files")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                if text.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import VocabStore") }) {
                    offenders.append("\(module)/\(file)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "front-end files that import VocabStore")
    }

    func testNoFrontEndTargetDependsOnTheStore() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for module in frontEnds {
            let declaration = try XCTUnwrap(manifest.range(of: ".target(name: \"\(module)\""), "\(module) is a target")
            let rest = manifest[declaration.upperBound...]
            let end = rest.range(of: "]")?.lowerBound ?? rest.endIndex
            let dependencies = rest[..<end]
            XCTAssertTrue(dependencies.contains("\"VocabSessions\""), "\(module) depends on the session layer")
            XCTAssertFalse(dependencies.contains("\"VocabStore\""), "\(module) depends on VocabStore")
        }
    }
}
