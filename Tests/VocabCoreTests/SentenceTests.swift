import XCTest
import VocabCore

/// `Sentence.fill` is the one filler of sentences: English here, translated formats in the
/// window and the web's server (the page's `t()` mirrors it).
final class SentenceTests: XCTestCase {
    func testFillsEachPlaceInOrderWhateverItsKind() {
        XCTAssertEqual(Sentence.fill("%d words in %@", ["3", "Travel"]), "3 words in Travel")
        XCTAssertEqual(Sentence.fill("Score: %d/%d (%d%%)", ["3", "5", "60"]), "Score: 3/5 (60%)")
    }

    func testAValueIsNeverFilledAgain() {
        XCTAssertEqual(Sentence.fill("%@ and %@", ["100%@", "%d"]), "100%@ and %d")
    }

    func testMissingValuesLeaveNothingAndOtherPercentSignsStay() {
        XCTAssertEqual(Sentence.fill("%@ then %@", ["one"]), "one then ")
        XCTAssertEqual(Sentence.fill("50%s off, 10%", []), "50%s off, 10%")
    }

    func testAPathIsSaidAsAnotherNameInsideSentencesToo() {
        let inner = Sentence("Cannot read %@: %@.", "/srv/scratch/1.csv", "no such file")
        let outer = Sentence("%@ (%@)", .sentence(inner), "in /srv/scratch/1.csv")
        XCTAssertEqual(outer.replacingText("/srv/scratch/1.csv", with: "words.csv").english,
                       "Cannot read words.csv: no such file. (in words.csv)")
        XCTAssertEqual(outer.replacingText("/srv/scratch/1.csv", with: "words.csv").format, outer.format)
    }

    func testEnglishFillsTheValuesAsEnglish() {
        let sentence = Sentence("%@ must not be empty (%@ of %@).", .field("definition"), .bytes(2048), 3)
        XCTAssertEqual(sentence.english, "The definition must not be empty (2 KiB of 3).")
    }
}
