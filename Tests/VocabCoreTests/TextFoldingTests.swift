import Foundation
import XCTest
@testable import VocabCore

/// Vocab folds case and accents by its own rules (TextFolding) instead of Foundation's, whose
/// ICU and CoreFoundation doubled a command's start-up. These tests hold the two side by side.
final class TextFoldingTests: XCTestCase {
    /// Case pairs Unicode added after Foundation's case tables: Vocab folds them, Foundation not.
    private let newerCasePairs: [ClosedRange<UInt32>] = [0x1C80...0x1C8A, 0xA7C0...0xA7DC, 0x10D50...0x10D65, 0x16EA0...0x16EB8]

    private func foundationKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    func testEveryLetterAndSymbolFoldsAsFoundationFoldsIt() {
        var differences: [String] = []
        for range: ClosedRange<UInt32> in [0x20...0xD7FF, 0xF900...0xFFFD, 0x10000...0x1FFFF] {
            for value in range where !newerCasePairs.contains(where: { $0.contains(value) }) {
                guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
                      scalar.properties.generalCategory != .privateUse,
                      scalar.properties.canonicalCombiningClass == .notReordered else { continue }
                let text = TextRules.clean(String(scalar))
                guard !text.isEmpty else { continue }
                if TextRules.lookupKey(text) != foundationKey(text) { differences.append(String(value, radix: 16)) }
            }
        }
        XCTAssertEqual(differences, [])
    }

    func testWordsWithAccentsFoldAsFoundationFoldsThem() {
        let words = ["Café", "NAÏVE", "Ñandú", "Ångström", "façade", "Straße", "İstanbul", "ﬁancé", "Ωmega", "ἀλήθεια",
                     "ᾠδή", "Ёлка", "Йогурт", "Tiếng Việt", "한국어", "학교", "がっこう", "ガギグ", "ﾊﾟﾝ", "Ａｂｃ", "ǅemal",
                     "crème brûlée", "ŁÓDŹ", "Øre", "dĳk", "ǰ", "ΐ", "ᾳ", "e\u{301}\u{323}", "ı", "ǈ", "Ǆ"]
        for word in words {
            let clean = TextRules.clean(word)
            XCTAssertEqual(TextRules.lookupKey(clean), foundationKey(clean), word)
        }
        // Every Latin, Greek and Cyrillic letter with every combining accent after it; but Ⱥ and
        // Ⱦ, whose small letters lie outside those scripts: after them Foundation keeps
        // accents (its buffer grows), Vocab folds them as after any letter of another script.
        for base in Array(UInt32(0x41)...0x7A) + Array(UInt32(0xC0)...0x24F) + Array(UInt32(0x391)...0x3C9) + Array(UInt32(0x410)...0x44F)
        where base != 0x23A && base != 0x23E {
            guard let scalar = Unicode.Scalar(base), scalar.properties.isAlphabetic else { continue }
            for accent in UInt32(0x300)...0x36F {
                let text = TextRules.clean(String(scalar) + String(Unicode.Scalar(accent)!) + "x")
                XCTAssertEqual(TextRules.lookupKey(text), foundationKey(text), "\(String(base, radix: 16)) + \(String(accent, radix: 16))")
            }
        }
    }

    func testNewerCasePairsFoldByUnicode() {
        XCTAssertEqual(TextRules.lookupKey("\u{1C80}"), "в")
    }

    func testAnswersAndOrderIgnoreWhatTheySay() {
        XCTAssertTrue(TextRules.answersMatch("STRASSE", "straße"))
        XCTAssertFalse(TextRules.answersMatch("cafe", "café"))
        XCTAssertTrue(TextRules.answersMatch("cafe", "Café", ignoringAccents: true))
        XCTAssertTrue(TextRules.answersMatch(" e\u{301}lan ", "Élan"))
        let names = ["zebra", "Éclair", "apple", "eclair", "Banana"]
        XCTAssertEqual(names.sorted(by: TextRules.sortsBefore), ["apple", "Banana", "eclair", "Éclair", "zebra"])
        XCTAssertTrue(TextRules.contains("Grüße aus Köln", "GRÜSSE"))
        XCTAssertFalse(TextRules.contains("abc", ""))
    }
}
