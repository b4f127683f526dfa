import XCTest
@testable import VocabSync
@testable import VocabCloudAPI
@testable import VocabCloud

/// A push batch as the cloud's line-by-line insert reads it: one record a line, the records'
/// bytes untouched, and anything that is not an array of objects left to the usual path.
final class PushLinesTests: XCTestCase {
    func testEachRecordOnALineOfItsOwnWithItsStringsUntouched() {
        let batch = #"[{"k":"word","i":"a","d":false,"b":{"word":"x,y]}","note":"line\nbreak \"quoted\" \\"}},"#
            + "\n  " + #"{"k":"book","i":"b","d":false,"b":{"name":"한국어 [책]","list":[1,{"a":2}]}}]"#
        XCTAssertEqual(PushLines.lines(fromBatch: batch),
                       #"{"k":"word","i":"a","d":false,"b":{"word":"x,y]}","note":"line\nbreak \"quoted\" \\"}}"# + "\n"
                       + #"{"k":"book","i":"b","d":false,"b":{"name":"한국어 [책]","list":[1,{"a":2}]}}"#)
    }

    func testANewlineBetweenTokensIsOnlyASpace() {
        XCTAssertEqual(PushLines.lines(fromBatch: "[{\"k\":\n\"word\",\r\n\"i\":\"a\"}]"), "{\"k\": \"word\",  \"i\":\"a\"}")
    }

    func testWhatIsNoArrayOfObjectsIsLeftToTheUsualPath() {
        for batch in ["", "{}", "[]", "[1]", "[{\"k\":\"word\"}", "[{\"k\":\"word\"}] x", "[{\"k\":\"wo\nrd\"}]", "[{\"k\":\"a\"} {\"k\":\"b\"}]",
                      "[{\"k\":\"a\\", "[{\"k\":\"a\"},]"] {
            XCTAssertNil(PushLines.lines(fromBatch: batch), batch)
        }
    }
}
