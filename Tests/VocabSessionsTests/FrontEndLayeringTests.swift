import Foundation
import XCTest

/// The front ends reach the store and the cloud only through the session layers (DESIGN.md §2,
/// §18): no file of theirs imports `VocabStore`, the sync client (`VocabSync`) or the cloud
/// itself (`VocabCloud`: they call `VocabCloudSessions`), read as the compiler reads an import
/// (`import struct VocabStore.Store`, attributes, a comment after it), and `Package.swift` gives
/// none of them the dependency. (The compiler holds the rest: `MemberImportVisibility` hides
/// what a module does not import.)
final class FrontEndLayeringTests: XCTestCase {
    private let frontEnds = ["VocabCLI", "VocabDesktop", "VocabWeb", "VocabServer", "VocabAnkiSync", "VocabWording"]
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private let below = ["VocabStore", "VocabSync", "VocabCloud"]

    /// The module a line of Swift imports, as the compiler reads it; nil for any other line.
    static func importedModule(_ line: Substring) -> String? {
        let code = line.prefix { $0 != "/" }  // an import's line has no "/" before its comment
        let pattern = #/^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)/#
        return code.firstMatch(of: pattern).map { String($0.1) }
    }

    func testImportsAreReadAsTheCompilerReadsThem() {
        XCTAssertEqual(Self.importedModule("import VocabStore"), "VocabStore")
        XCTAssertEqual(Self.importedModule("import struct VocabStore.Store"), "VocabStore")
        XCTAssertEqual(Self.importedModule("@testable import VocabCloud"), "VocabCloud")
        XCTAssertEqual(Self.importedModule("@_spi(Internal) @preconcurrency import VocabSync // the engine"), "VocabSync")
        XCTAssertEqual(Self.importedModule("import VocabSync// no space"), "VocabSync")
        XCTAssertNil(Self.importedModule("// import VocabStore"))
        XCTAssertNil(Self.importedModule("let important = 1"))
    }

    func testNoFrontEndFileImportsTheStoreOrTheSyncClient() throws {
        var offenders: [String] = []
        for module in frontEnds {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
            XCTAssertFalse(files.isEmpty, "\(module) has Swift files")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    if let imported = Self.importedModule(line), below.contains(imported) { offenders.append("\(module)/\(file): \(line)") }
                }
            }
        }
        XCTAssertEqual(offenders, [], "front-end files that import the store, the sync client or the cloud")
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
