import XCTest
@testable import VocabCore

/// The readers behind Anki text and Quizlet-style imports (issue 15).
final class OtherListFormatsTests: XCTestCase {
    private func records(_ text: String, field: String, row: String = "\n", chunk: Int) throws -> [[String]] {
        var reader = SeparatedTextReader(ArrayByteStream(text, chunkSize: chunk), fieldSeparator: field, rowSeparator: row)
        var out: [[String]] = []
        while let record = try reader.nextRecord() { out.append(record.fields) }
        return out
    }

    func testMultiCharacterSeparatorsSplitAtAnyChunkBoundary() throws {
        let text = "abandon - 버리다;apple - \"사과 - 빨간; \"\"과일\"\"\";run - 달리다"
        for chunk in [1, 2, 3, 5, 64] {
            XCTAssertEqual(try records(text, field: " - ", row: ";", chunk: chunk),
                           [["abandon", "버리다"], ["apple", "사과 - 빨간; \"과일\""], ["run", "달리다"]], "chunks of \(chunk)")
        }
    }

    func testLinesEndWithCRLFOrLFAndBlankLinesAreSkipped() throws {
        XCTAssertEqual(try records("a\tb\r\n\r\nc\td\n", field: "\t", chunk: 1), [["a", "b"], ["c", "d"]])
    }

    func testAnUnclosedQuoteAndAVeryLongRecordAreRefused() throws {
        XCTAssertThrowsError(try records("a\t\"open\n", field: "\t", chunk: 4)) { error in
            XCTAssertEqual((error as? ImportError)?.skippable?.line, 1)
        }
        var reader = SeparatedTextReader(ArrayByteStream(String(repeating: "x", count: 5000)), fieldSeparator: "\t", maxRecordBytes: 1000)
        XCTAssertThrowsError(try reader.nextRecord()) { error in
            XCTAssertEqual(error as? ImportError, .recordTooLong(line: 1, limit: 1000))
        }
    }

    func testAnkiHTMLBecomesTextWithItsLineBreaks() {
        XCTAssertEqual(HTMLText.plain("to leave <b>behind</b><br>버리다 &amp; 포기하다").text, "to leave behind\n버리다 & 포기하다")
        XCTAssertEqual(HTMLText.plain("apple<div>a red &quot;fruit&quot;</div><div>&#54620;&#x3b1;&nbsp;x</div>").text, "apple\na red \"fruit\"\n한α x")
        XCTAssertEqual(HTMLText.plain("The {{c1::cat::animal}} sat [sound:cat.mp3] [sound:b.ogg]").text, "The cat sat")
        XCTAssertEqual(HTMLText.plain("[sound:cat.mp3]x").droppedSounds, 1)
        XCTAssertEqual(HTMLText.plain("a < b & c").text, "a < b & c", "stray brackets and ampersands stay")
        XCTAssertEqual(HTMLText.plain("<P>사과</P><LI>배<BR/>감</li><img src=\"x.png\">끝").text, "사과\n배\n감\n끝")
        XCTAssertEqual(HTMLText.plain("<div>one</div><div><br></div><div>two &lt;3&gt; &unknown; &#x1F600;</div>").text,
                       "one\n\ntwo <3> &unknown; 😀")
        // Lines kept from the text itself: trimmed, Windows line ends too, runs of empty lines made one.
        XCTAssertEqual(HTMLText.plain("  first \r\n\r\n\r\n\tsecond\t\r\n \r\n").text, "first\n\nsecond")
        XCTAssertEqual(HTMLText.plain("\n\n<div> 단어 </div>\n\n").text, "단어")
    }

    func testAnkiHeaderLinesAreReadUpToTheData() throws {
        let text = "#separator:Pipe\n#html:true\n#tags column:3\n#columns:Front|Back|Tags\na|b|c\n"
        let (header, rest, first) = try AnkiTextHeader.read(from: ArrayByteStream(text, chunkSize: 3))
        XCTAssertEqual(header.separator, "|")
        XCTAssertTrue(header.html)
        XCTAssertEqual(header.tagsColumn, 3)
        XCTAssertEqual(header.columnNames, ["Front", "Back", "Tags"])
        XCTAssertEqual(first, "a|b|c")
        var reader = SeparatedTextReader(rest, fieldSeparator: "|")
        XCTAssertEqual(try reader.nextRecord()?.fields, ["a", "b", "c"])
        XCTAssertEqual(UUID.derived(fromAnkiGUID: "Fe=cLi#q86"), UUID.derived(fromAnkiGUID: "Fe=cLi#q86"))
        XCTAssertNotEqual(UUID.derived(fromAnkiGUID: "a"), UUID.derived(fromAnkiGUID: "b"))
        // A review's id is pinned: an import by any earlier Vocab must meet the same ids again
        // (the log is merged by id), or a second import would log every review twice.
        XCTAssertEqual(UUID.derived(fromAnkiReview: 1_767_603_600_000, noteGUID: "Fe=cLi#q86").uuidString,
                       "C55ACC7B-7C0F-847C-BACA-A2E52CFCE64B")
    }
}
