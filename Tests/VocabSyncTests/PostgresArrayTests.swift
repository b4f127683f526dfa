import XCTest
@testable import VocabSync

/// Array literals carry whole push batches: every element must come back exactly.
final class PostgresArrayTests: XCTestCase {
    func testArrayLiteralsEscapeQuotesAndBackslashesOnly() {
        XCTAssertEqual(PostgresArray.literal(["a", "b\"c", "d\\e", "", "한 😀"]), #"{"a","b\"c","d\\e","","한 😀"}"#)
        XCTAssertEqual(PostgresArray.literal([]), "{}")
    }
}
