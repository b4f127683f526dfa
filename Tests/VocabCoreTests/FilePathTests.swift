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
}
