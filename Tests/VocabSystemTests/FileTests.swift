import Foundation
import XCTest
@testable import VocabSystem

/// Reading and writing real files in a folder of the test's own.
final class FileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "vocab-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func testReadingSaysWhyAFileCannotBeRead() throws {
        XCTAssertThrowsError(try FileAccess.readBytes(folder + "/missing", limit: 10)) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.read, folder + "/missing", .missing))
        }
        XCTAssertThrowsError(try FileAccess.readBytes(folder, limit: 10)) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.read, folder, .folder))
        }
        XCTAssertThrowsError(try FileReader(path: folder)) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.read, folder, .folder))
        }
    }

    func testReadingStopsOneByteBeyondTheLimit() throws {
        try AtomicFile.replace(folder + "/ten", with: Array(repeating: 7, count: 10))
        XCTAssertEqual(try FileAccess.readBytes(folder + "/ten", limit: 10).count, 10)
        XCTAssertEqual(try FileAccess.readBytes(folder + "/ten", limit: 4).count, 5)
    }

    func testAReaderGivesEveryByteInChunks() throws {
        let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try AtomicFile.replace(folder + "/big", with: bytes)
        var reader = try FileReader(path: folder + "/big")
        defer { reader.close() }
        var read: [UInt8] = []
        var chunks = 0
        while let chunk = try reader.nextChunk() {
            XCTAssertFalse(chunk.isEmpty)
            read += chunk
            chunks += 1
        }
        XCTAssertEqual(read, bytes)
        XCTAssertGreaterThan(chunks, 1)
    }

    func testAPrivateFileIsItsOwnersFromTheStart() throws {
        let path = folder + "/login.json"
        try AtomicFile.replace(path, permissions: 0o600, with: Array("secret".utf8))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertEqual(try entries(), ["login.json"])
    }

    func testAnAbandonedWriteLeavesTheOldFileAndNothingElse() throws {
        let path = folder + "/words.csv"
        try AtomicFile.replace(path, with: Array("old\n".utf8))
        do {
            let file = try AtomicFile(path: path)
            try file.write("new, half written")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old\n".utf8))
        XCTAssertEqual(try entries(), ["words.csv"])
        let file = try AtomicFile(path: path)
        try file.write("new\n")
        try file.commit()
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("new\n".utf8))
        XCTAssertEqual(try entries(), ["words.csv"])
    }

    func testWritingSaysWhyAFileCannotBeWrittenAndLeavesNothing() throws {
        XCTAssertThrowsError(try AtomicFile.replace(folder + "/no/such/folder.csv", with: [1])) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.write, folder + "/no/such/folder.csv", .missing))
        }
        try FileManager.default.createDirectory(atPath: folder + "/taken", withIntermediateDirectories: false)
        XCTAssertThrowsError(try AtomicFile.replace(folder + "/taken", with: [1])) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.write, folder + "/taken", .folder))
        }
        XCTAssertEqual(try entries(), ["taken"])
    }
}
