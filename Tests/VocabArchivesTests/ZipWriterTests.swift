import Foundation
import XCTest
import VocabArchives
import VocabSystem

/// Writing a zip through libzip in a folder of the test's own.
final class ZipWriterTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "vocab-zip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testAnArchiveAppearsOnlyWhenCommitted() throws {
        let source = folder + "/entry.txt"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: source))
        let zip = try ZipWriter(path: folder + "/out.zip")
        try zip.addFile("entry.txt", from: source)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out.zip"))
        try zip.commit()
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/out.zip"))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x50, 0x4B, 0x03, 0x04])
    }

    func testAMissingFolderOrAFolderInTheWayIsSaidAtOnceInOurWords() throws {
        XCTAssertThrowsError(try ZipWriter(path: folder + "/no/such/out.zip")) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.write, folder + "/no/such/out.zip", .missing))
        }
        try FileManager.default.createDirectory(atPath: folder + "/taken.zip", withIntermediateDirectories: false)
        XCTAssertThrowsError(try ZipWriter(path: folder + "/taken.zip")) {
            XCTAssertEqual($0 as? FileFailure, FileFailure(.write, folder + "/taken.zip", .folder))
        }
    }
}
