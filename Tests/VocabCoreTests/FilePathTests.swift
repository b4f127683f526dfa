import XCTest
import VocabCore

final class FilePathTests: XCTestCase {
    func testParentFolderOfEveryShapeOfPath() {
        XCTAssertEqual(FilePath.parentFolder(of: "h"), "")
        XCTAssertEqual(FilePath.parentFolder(of: "a/b"), "a")
        XCTAssertEqual(FilePath.parentFolder(of: "a/b/"), "a")
        XCTAssertEqual(FilePath.parentFolder(of: "/x"), "/")
        XCTAssertEqual(FilePath.parentFolder(of: "/"), "/")
        XCTAssertEqual(FilePath.parentFolder(of: "/home/u/.local/share/vocab"), "/home/u/.local/share")
        XCTAssertEqual(FilePath.folder(of: "x"), ".")
        XCTAssertEqual(FilePath.folder(of: "out/x.csv"), "out")
    }

    func testPathsAndExtensions() {
        XCTAssertEqual(FilePath.lastComponent(of: "/a/b.csv"), "b.csv")
        XCTAssertEqual(FilePath.lastComponent(of: "/a/b/"), "b")
        XCTAssertEqual(FilePath.lastComponent(of: "/"), "/")
        XCTAssertEqual(FilePath.lastComponent(of: "x"), "x")
        XCTAssertEqual(FilePath.fileExtension(of: "dir.v2/words.CSV"), "CSV")
        XCTAssertEqual(FilePath.fileExtension(of: "dir.v2/words"), "")
        XCTAssertEqual(FilePath.fileExtension(of: ".profile"), "")
        XCTAssertEqual(FilePath.joining("/a/", "b"), "/a/b")
        XCTAssertEqual(FilePath.joining("/a", "b"), "/a/b")
    }
}
