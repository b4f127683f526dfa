import XCTest
@testable import VocabStore

extension Store {
    /// Fails the calling test when what the triggers keep (each book's counts, `scheduled`,
    /// the search index) disagrees with the words and schedules as they are.
    func assertDerivedDataMatchesWords(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(try derivedDataProblems(), [], file: file, line: line)
    }
}
