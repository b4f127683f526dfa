import XCTest
import VocabCore
import VocabDictionary
@testable import VocabSessions

/// The starter book and the Dictionary button pick a word's meaning in one place: every starter
/// word holds exactly what Dictionary fills it with from the WordNet files installed here.
final class StarterBookTests: XCTestCase {
    func testEveryStarterWordIsWhatTheDictionaryFillsItWith() throws {
        let wordNet = try WordNetDatabase()
        XCTAssertEqual(StarterWords.words.count, 300)
        var differing: [String] = []
        for (word, definition, detail, synonym, antonym) in StarterWords.words {
            let filled = WordLookup.fill(WordDraft(word: word), from: try wordNet.lookUp(word))
            if (filled.definition, filled.detail, filled.synonym, filled.antonym) != (definition, detail, synonym, antonym) {
                differing.append("\(word): starter \(definition) | dictionary \(filled.definition)")
            }
        }
        XCTAssertEqual(differing, [], "regenerate with scripts/make_starter_book.py")
    }
}
