import Foundation
import XCTest
import TestServices

/// `vocab dict`, `vocab say`, `word add --lookup` and the entry form, with the real binary.
final class DictionaryEndToEndTests: EndToEndTestCase {
    func testDictShowsSensesSynonymsAndAntonyms() throws {
        let output = try vocab.ok(["dict", "happy"])
        XCTAssertTrue(output.contains("enjoying or showing or marked by joy or pleasure"), output)
        XCTAssertTrue(output.contains("glad"), output)
        XCTAssertTrue(output.contains("felicitous"), output)
        XCTAssertTrue(output.contains("Antonyms: unhappy"), output)
        XCTAssertTrue(output.contains("hˈæpi"), "IPA from espeak-ng: \(output)")
        let geese = try XCTUnwrap(try vocab.json(["dict", "geese", "--json"]) as? [String: Any])
        XCTAssertEqual(geese["baseForms"] as? [String], ["goose"])
        let running = try XCTUnwrap(try vocab.json(["dict", "running", "--json"]) as? [String: Any])
        XCTAssertTrue((running["baseForms"] as? [String] ?? []).contains("run"))
    }

    func testMissingWordsAndMissingDataAreClearErrors() throws {
        XCTAssertTrue(try vocab.fails(["dict", "qqqzzzx"], status: 1).contains("not in the dictionary"))
        let result = try vocab.run(["dict", "happy"], environment: ["VOCAB_WORDNET": vocab.file("none")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("apt-get install wordnet-base"), result.stderr)
        let noSpeech = try vocab.run(["say", "hello"], environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(noSpeech.status, 1)
        XCTAssertTrue(noSpeech.stderr.contains("apt-get install espeak-ng"), noSpeech.stderr)
    }

    func testWebGivesTheURLForTheWordWithoutADisplay() throws {
        let korean = try vocab.run(["dict", "사과", "--web"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        XCTAssertEqual(korean.stdout, "https://en.dict.naver.com/#/search?query=%EC%82%AC%EA%B3%BC\n")
        let english = try vocab.run(["dict", "ice cream", "--web"], environment: ["DISPLAY": ""])
        XCTAssertEqual(english.stdout, "https://en.dict.naver.com/#/search?query=ice%20cream\n")
        let config = vocab.file("config")
        try FileManager.default.createDirectory(atPath: config + "/vocab", withIntermediateDirectories: true)
        try Data(#"{"webDictionary": "https://dict.example/{word}"}"#.utf8).write(to: URL(fileURLWithPath: config + "/vocab/config.json"))
        let custom = try vocab.run(["dict", "apple", "--web"], environment: ["DISPLAY": "", "XDG_CONFIG_HOME": config])
        XCTAssertEqual(custom.stdout, "https://dict.example/apple\n")
    }

    func testDictServerLookupsGoToARealDictd() throws {
        let server = try requiredService("VOCAB_TEST_DICT_SERVER", "dictd")
        let output = try vocab.ok(["dict", "happy", "--server", server])
        XCTAssertTrue(output.contains("WordNet"), output)
        XCTAssertTrue(output.contains("enjoying or showing or marked by joy"), output)
        XCTAssertTrue(try vocab.fails(["dict", "qqqzzzx", "--server", server], status: 1).contains("not in the dictionary"))
        XCTAssertTrue(try vocab.fails(["dict", "happy", "--server", "127.0.0.1:1"], status: 1).contains("Cannot reach"))
        try vocab.fails(["dict", "happy", "--server", "127.0.0.1:0"], status: 1)
    }

    func testSayWritesAWAVFile() throws {
        let path = vocab.file("hello.wav")
        XCTAssertTrue(try vocab.ok(["say", "hello", "-o", path]).contains("Wrote"))
        XCTAssertEqual(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4), as: UTF8.self), "RIFF")
        try vocab.ok(["say", "사과", "-o", vocab.file("apple.wav")])
    }

    func testLookupFillsOnlyEmptyFields() throws {
        try vocab.ok(["book", "add", "B"])
        try vocab.ok(["word", "add", "happy", "--lookup", "--definition", "my meaning"])
        let happy = try XCTUnwrap(try vocab.json(["word", "show", "happy", "--json"]) as? [String: Any])
        XCTAssertEqual(happy["definition"] as? String, "my meaning")
        XCTAssertEqual(happy["antonym"] as? String, "unhappy")
        XCTAssertTrue((happy["synonym"] as? String ?? "").contains("glad"))
        XCTAssertEqual(happy["pronunciation"] as? String, "hˈæpi")
        XCTAssertTrue(try vocab.ok(["word", "add", "qqqzzzx", "--lookup"]).contains("not in the dictionary; added as typed"))
    }

    func testTheEntryFormWorksFromAPipeWithDoneAndDictionary() throws {
        try vocab.ok(["book", "add", "B"])
        let typed = try vocab.ok(["word", "add", "--book", "B"], input: "  iPhone \nphone by Apple\n\n")
        XCTAssertTrue(typed.contains("Added \"iPhone\""), "stored as typed, never capitalised or corrected: \(typed)")
        let iphone = try XCTUnwrap(try vocab.json(["word", "show", "iPhone", "--json"]) as? [String: Any])
        XCTAssertEqual(iphone["definition"] as? String, "phone by Apple")
        XCTAssertEqual(iphone["detail"] as? String, "")
        let looked = try vocab.ok(["word", "add"], input: "glad?\ny\n")
        XCTAssertTrue(looked.contains("antonym: sad"), looked)
        let glad = try XCTUnwrap(try vocab.json(["word", "show", "glad", "--json"]) as? [String: Any])
        XCTAssertEqual(glad["antonym"] as? String, "sad")
        XCTAssertTrue(try vocab.ok(["word", "add"], input: "\n").contains("nothing added"))
        // `keen?` lists its senses, the one met most first; a number picks another.
        let keen = try vocab.ok(["word", "add"], input: "keen?\n2\n")
        XCTAssertTrue(keen.contains("1. (adj.) having or demonstrating ability to recognize or draw fine distinctions"), keen)
        let picked = try XCTUnwrap(try vocab.json(["word", "show", "keen", "--json"]) as? [String: Any])
        let definition = try XCTUnwrap(picked["definition"] as? String)
        XCTAssertTrue(keen.contains("2. " + definition.prefix(40)), "the second sense listed is the one saved: \(definition)\n\(keen)")
        XCTAssertFalse(definition.contains("fine distinctions"), definition)
    }
}
