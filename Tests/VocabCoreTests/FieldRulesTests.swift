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

final class IdentifierTests: XCTestCase {
    func testRandomIdsAreVersion4AndPrintLikeFoundationInLowercase() {
        var seen = Set<UUID>()
        for _ in 0..<1000 {
            let id = UUID.random()
            XCTAssertEqual(id.lowercaseText, id.uuidString.lowercased())
            XCTAssertEqual(Array(id.lowercaseText)[14], "4")
            XCTAssertTrue("89ab".contains(Array(id.lowercaseText)[19]))
            seen.insert(id)
        }
        XCTAssertEqual(seen.count, 1000)
    }

    func testTheNFCFastPathAgreesWithFoundation() {
        for text in ["plain", "café", "cafe\u{301}", "사과", "\u{1100}\u{1161}", "Å", "A\u{30A}", "漢字", "🍎", "ﬁ", "\u{F900}", "e\u{301}\u{301}"] {
            XCTAssertEqual(TextRules.clean(text), text.precomposedStringWithCanonicalMapping, text)
        }
        XCTAssertEqual(TextRules.clean(" \u{3000}text\u{A0}\n"), "text")
    }

    func testTrimmingAgreesWithFoundationOnEveryKindOfEdge() {
        let edges = ["", " ", "\t", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{202F}", "\u{3000}",
                     "a", "é", "사", "\u{2010}", "\u{E000}", "😀", "\u{1E00}"]
        for head in edges {
            for tail in edges {
                let text = head + "가 x" + tail
                XCTAssertEqual(TextRules.trimmingWhiteSpace(text), text.trimmingCharacters(in: .whitespacesAndNewlines),
                               text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
        XCTAssertEqual(TextRules.trimmingWhiteSpace("   "), "")
        XCTAssertEqual(TextRules.trimmingWhiteSpace("\u{3000}"), "")
    }
}

final class TimeOrderedIDTests: XCTestCase {
    func testIdsMadeInOneMillisecondOrAfterSortInTheOrderMade() {
        var ids = TimeOrderedIDs()
        var previous = ""
        for index in 0..<5000 {
            let id = ids.next(milliseconds: 1_700_000_000_000 + Int64(index / 1000))
            let text = id.lowercaseText
            XCTAssertGreaterThan(text, previous)
            XCTAssertEqual(Array(text)[14], "7", "version 7")
            XCTAssertTrue("89ab".contains(Array(text)[19]), "RFC variant")
            previous = text
        }
    }
}

final class UUIDTextTests: XCTestCase {
    func testParsesWhatFoundationParsesAndRefusesTheRest() {
        for _ in 0..<200 {
            let id = UUID()
            XCTAssertEqual(UUID(text: id.uuidString), id)
            XCTAssertEqual(UUID(text: id.lowercaseText), id)
        }
        for bad in ["", "not-a-uuid", "0000000-0000-4000-8000-0000000000001", "00000000-0000-4000-8000-00000000000g",
                    "00000000x0000-4000-8000-000000000001", "00000000-0000-4000-8000-0000000000011",
                    "00000000-0000-4000-8000-00000000000é", "00000000-0000-4000-8000-0000000000é"] {
            XCTAssertNil(UUID(text: bad), bad)
        }
    }
}
