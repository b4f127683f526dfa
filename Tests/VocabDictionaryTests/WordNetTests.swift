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
            XCTAssertTrue((error as? DictionaryError)?.message.contains("apt-get install wordnet-base") ?? false)
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
