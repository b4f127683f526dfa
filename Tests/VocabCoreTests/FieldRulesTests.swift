import XCTest
@testable import VocabCore

final class FieldRulesTests: XCTestCase {
    func testTextIsTrimmedAndNormalisedButNeverCapitalised() throws {
        let draft = try WordDraft(word: "  cafe\u{301} \n", definition: "\tcoffee shop ").validated()
        XCTAssertEqual(draft.word, "caf\u{E9}")
        XCTAssertEqual(draft.word.unicodeScalars.count, 4, "stored in NFC")
        XCTAssertEqual(draft.definition, "coffee shop")
        XCTAssertEqual(try WordDraft(word: "iPhone").validated().word, "iPhone")
    }

    func testEmptyWordAndBookNameAreRefused() {
        XCTAssertThrowsError(try WordDraft(word: "   ").validated()) { error in
            XCTAssertEqual(error as? VocabError, .emptyField(field: "word"))
        }
        XCTAssertThrowsError(try BookDraft(name: "\n").validated()) { error in
            XCTAssertEqual(error as? VocabError, .emptyField(field: "book name"))
        }
    }

    func testOverlongAndControlCharacterFieldsAreRefused() {
        XCTAssertThrowsError(try WordDraft(word: String(repeating: "a", count: 501)).validated())
        XCTAssertThrowsError(try BookDraft(name: "a\u{7}b").validated()) { error in
            XCTAssertEqual(error as? VocabError, .invalidCharacters(field: "book name"))
        }
        XCTAssertThrowsError(try WordDraft(word: "ok", detail: String(repeating: "x", count: 20_001)).validated())
    }

    func testImagesAreRecognisedByTheirFirstBytes() throws {
        XCTAssertEqual(ImageKind(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        XCTAssertEqual(ImageKind(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageKind(sniffing: Array("GIF89a...".utf8)), .gif)
        XCTAssertEqual(ImageKind(sniffing: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)), .webp)
        XCTAssertNil(ImageKind(sniffing: Array("hello".utf8)))
        XCTAssertNil(ImageKind(sniffing: []))
        XCTAssertThrowsError(try FieldRules.image(Array("not an image".utf8))) { error in
            XCTAssertEqual(error as? VocabError, .unsupportedImage)
        }
        let huge = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: FieldRules.maxImageBytes)
        XCTAssertThrowsError(try FieldRules.image(huge)) { error in
            guard case .imageTooLarge = error as? VocabError else { return XCTFail("\(error)") }
        }
    }

    func testBooleansAcceptSpreadsheetSpellingsOnly() throws {
        XCTAssertTrue(try FieldRules.boolean(" Yes "))
        XCTAssertTrue(try FieldRules.boolean("1"))
        XCTAssertFalse(try FieldRules.boolean("false"))
        XCTAssertFalse(try FieldRules.boolean(""))
        XCTAssertThrowsError(try FieldRules.boolean("maybe"))
    }

    func testAnswersMatchIgnoringCaseAndSpacesButNotAccents() {
        XCTAssertTrue(TextRules.answersMatch("  Apple ", "apple"))
        XCTAssertFalse(TextRules.answersMatch("cafe", "café"))
        XCTAssertTrue(TextRules.answersMatch("cafe", "café", ignoringAccents: true))
        XCTAssertTrue(TextRules.answersMatch("cafe\u{301}", "caf\u{E9}"))
    }

    func testBookNameKeysFoldUnicodeCase() {
        XCTAssertEqual(TextRules.nameKey("ÄPFEL"), TextRules.nameKey("äpfel"))
        XCTAssertEqual(TextRules.nameKey(" TOEIC "), "toeic")
        XCTAssertNotEqual(TextRules.nameKey("토익"), TextRules.nameKey("토플"))
    }

    func testErrorsCarryExitCodesOfTheirCategory() {
        XCTAssertEqual(VocabError.bookNotFound("x").category.exitCode, 1)
        XCTAssertEqual(ErrorCategory.usage.exitCode, 2)
        XCTAssertEqual(ErrorCategory.cloudUnavailable.exitCode, 3)
        XCTAssertEqual(ErrorCategory.conflictOrCorruption.exitCode, 4)
    }
}
