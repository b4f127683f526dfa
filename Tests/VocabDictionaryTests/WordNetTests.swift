import Foundation
import XCTest
@testable import VocabDictionary

/// Lookups in the real WordNet 3.0 files (Debian's wordnet-base, installed by .ci/run).
final class WordNetTests: XCTestCase {
    var wordNet: WordNetDatabase!

    override func setUpWithError() throws {
        wordNet = try WordNetDatabase()
    }

    func testHappyHasItsSensesSynonymsAndAntonym() throws {
        let entry = try wordNet.lookUp("happy")
        XCTAssertEqual(entry.senses.count, 4)
        XCTAssertTrue(entry.senses.allSatisfy { $0.partOfSpeech == "adjective" })
        XCTAssertEqual(entry.senses[0].definition, "enjoying or showing or marked by joy or pleasure")
        XCTAssertEqual(entry.senses[0].examples.first, "a happy smile")
        XCTAssertTrue(entry.synonyms.contains("glad"))
        XCTAssertTrue(entry.synonyms.contains("felicitous"))
        XCTAssertEqual(entry.antonyms, ["unhappy"])
    }

    /// The meaning a learner expects first: senses by WordNet's tagged counts across parts of
    /// speech (brave's adjective was met 10 times, its noun never), ties in WordNet's order.
    func testTheSenseMetMostComesFirstAcrossPartsOfSpeech() throws {
        let expected: [(String, String, String)] = [
            ("brave", "adjective", "possessing or displaying courage"),
            ("eager", "adjective", "having or showing keen interest"),
            ("glad", "adjective", "showing or causing joy and pleasure"),
            ("keen", "adjective", "having or demonstrating ability to recognize or draw fine distinctions"),
            ("abandon", "verb", "forsake, leave behind"),
            ("run", "verb", "move fast by using one's feet"),
            ("book", "noun", "a written work or composition"),
            ("light", "noun", "(physics) electromagnetic radiation"),
        ]
        for (word, part, definition) in expected {
            let entry = try wordNet.lookUp(word)
            XCTAssertEqual(entry.senses[0].partOfSpeech, part, word)
            XCTAssertTrue(entry.senses[0].definition.hasPrefix(definition), "\(word): \(entry.senses[0].definition)")
            XCTAssertEqual(entry.senses.map(\.tagCount), entry.senses.map(\.tagCount).sorted(by: >), "\(word): most met first")
        }
        // Ties keep WordNet's order: brave's never-met noun senses come in their own order, after
        // every sense that was met.
        let brave = try wordNet.lookUp("brave")
        XCTAssertEqual(brave.senses[0].tagCount, 10)
        let nouns = brave.senses.filter { $0.partOfSpeech == "noun" }.map(\.definition)
        XCTAssertEqual(nouns, ["a North American Indian warrior", "people who are brave"])
        XCTAssertTrue(brave.senses.last?.tagCount == 0)
        // Each sense keeps its own antonyms.
        XCTAssertEqual(brave.senses[0].antonyms, ["cowardly"])
    }

    func testWithoutTheCountsTheOrderIsWordNetsOwn() throws {
        let folder = NSTemporaryDirectory() + "wordnet-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: WordNetDatabase.defaultFolder) where name != "cntlist.rev" {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: WordNetDatabase.defaultFolder + "/" + name)
        }
        let brave = try WordNetDatabase(folder: folder).lookUp("brave")
        XCTAssertEqual(brave.senses[0].partOfSpeech, "noun")
    }

    func testIrregularAndInflectedFormsFindTheirBaseForms() throws {
        XCTAssertEqual(try wordNet.lookUp("geese").baseForms, ["goose"])
        XCTAssertTrue(try wordNet.lookUp("running").baseForms.contains("run"))
        XCTAssertTrue(try wordNet.lookUp("mice").baseForms.contains("mouse"))
        XCTAssertTrue(try wordNet.lookUp("better").baseForms.contains("good"))
        XCTAssertTrue(try wordNet.lookUp("boxes").baseForms.contains("box"))
        XCTAssertTrue(try wordNet.lookUp("Happier").baseForms.contains("happy"))
    }

    func testMultiWordEntriesAndTheEdgesOfTheIndex() throws {
        XCTAssertEqual(try wordNet.lookUp("ice cream").senses.first?.partOfSpeech, "noun")
        XCTAssertNoThrow(try wordNet.lookUp("a"))        // near the start of the index
        XCTAssertNoThrow(try wordNet.lookUp("zymurgy"))  // near the end
        XCTAssertThrowsError(try wordNet.lookUp("qqqzzz")) { XCTAssertEqual($0 as? DictionaryError, .notFound("qqqzzz")) }
        XCTAssertThrowsError(try wordNet.lookUp("  ")) { XCTAssertEqual($0 as? DictionaryError, .emptyWord) }
    }

    func testMissingDataSaysHowToInstallIt() {
        XCTAssertThrowsError(try WordNetDatabase(folder: "/nonexistent")) { error in
            XCTAssertEqual(error as? DictionaryError, .wordNetMissing(folder: "/nonexistent"))
            XCTAssertEqual((error as? DictionaryError)?.remedy, .installPackage("wordnet-base", setting: "VOCAB_WORDNET"))
        }
    }
}

final class WebDictionaryTests: XCTestCase {
    func testTheURLIsForTheWordItselfPercentEncoded() throws {
        let web = try WebDictionary()
        XCTAssertEqual(web.url(for: "apple"), "https://en.dict.naver.com/#/search?query=apple")
        XCTAssertEqual(web.url(for: " 사과 "), "https://en.dict.naver.com/#/search?query=%EC%82%AC%EA%B3%BC")
        XCTAssertEqual(web.url(for: "ice cream & cone#1"), "https://en.dict.naver.com/#/search?query=ice%20cream%20%26%20cone%231")
        XCTAssertEqual(try WebDictionary(template: "https://example.org/w/{word}?x=1").url(for: "é"), "https://example.org/w/%C3%A9?x=1")
        XCTAssertThrowsError(try WebDictionary(template: "https://example.org/"))
    }
}

final class SpeechTests: XCTestCase {
    func testPronunciationIsIPAFromEspeak() throws {
        let speech = try Speech()
        XCTAssertEqual(try speech.ipa("happy"), "hˈæpi")
        XCTAssertFalse(try speech.ipa("사과").isEmpty)
        XCTAssertEqual(Speech.voice(for: "사과"), "ko")
        XCTAssertEqual(Speech.voice(for: "apple"), "en-us")
    }

    func testSpeechCanBeWrittenToAWAVFile() throws {
        let path = NSTemporaryDirectory() + "vocab-say-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Speech().say("hello", wavPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(String(decoding: bytes.prefix(4), as: UTF8.self), "RIFF")
        XCTAssertGreaterThan(bytes.count, 1000)
    }

    func testAMissingEspeakSaysHowToInstallIt() {
        XCTAssertThrowsError(try Speech(environment: ["PATH": "/nonexistent"])) { error in
            XCTAssertEqual(error as? DictionaryError, .espeakMissing)
        }
    }
}
