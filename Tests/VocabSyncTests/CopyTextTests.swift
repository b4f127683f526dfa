import XCTest
@testable import VocabSync

/// Pushed batches travel in COPY's text format: every value must come back exactly.
final class CopyTextTests: XCTestCase {
    func testBackslashesTabsAndLineBreaksAreEscapedAndNothingElse() {
        var bytes: [UInt8] = []
        CopyText.append("a\\b\tc\nd\re \"q\" 한 😀", to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"a\\b\tc\nd\re "q" 한 😀"#)
        bytes = []
        CopyText.append("", to: &bytes)
        XCTAssertEqual(bytes, [])
    }
}
