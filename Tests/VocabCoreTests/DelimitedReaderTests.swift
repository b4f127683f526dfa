import XCTest
@testable import VocabCore

final class DelimitedReaderTests: XCTestCase {
    private func records(_ text: String, dialect: DelimitedReader.Dialect = .csv, chunkSize: Int = 65_536) throws -> [[String]] {
        var reader = DelimitedReader(ArrayByteStream(text, chunkSize: chunkSize), dialect: dialect)
        var out: [[String]] = []
        while let record = try reader.nextRecord() { out.append(record.fields) }
        return out
    }

    func testReadsRFC4180QuotingWhateverTheChunkBoundaries() throws {
        let text = "\u{FEFF}word,definition\r\n\"a,b\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",plain\r\nlast,\"\"\r\n"
        let expected = [["word", "definition"], ["a,b", "say \"hi\""], ["multi\nline", "plain"], ["last", ""]]
        for chunkSize in [1, 2, 3, 5, 7, 64, 65_536] {
            XCTAssertEqual(try records(text, chunkSize: chunkSize), expected, "chunk size \(chunkSize)")
        }
    }

    func testAcceptsLFAndAMissingFinalNewlineAndSkipsBlankLines() throws {
        XCTAssertEqual(try records("a,b\n\nc,d"), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(try records("a,b\r\n\r\nc,\"d\""), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(try records(""), [])
        XCTAssertEqual(try records("a,,\n"), [["a", "", ""]])
    }

    func testReportsBrokenQuotingWithItsLineAndCarriesOn() throws {
        var reader = DelimitedReader(ArrayByteStream("ok,1\nbad\"quote,2\n\"x\"y,3\nfine,4\n\"open,5\n"), dialect: .csv)
        XCTAssertEqual(try reader.nextRecord()?.fields, ["ok", "1"])
        XCTAssertThrowsError(try reader.nextRecord()) { XCTAssertEqual(($0 as? ImportError)?.skippable?.line, 2) }
        XCTAssertThrowsError(try reader.nextRecord()) { XCTAssertEqual(($0 as? ImportError)?.skippable?.line, 3) }
        let fine = try reader.nextRecord()
        XCTAssertEqual(fine?.fields, ["fine", "4"])
        XCTAssertEqual(fine?.line, 4)
        XCTAssertThrowsError(try reader.nextRecord()) { error in
            XCTAssertEqual((error as? ImportError)?.skippable?.line, 5)
            XCTAssertTrue("\(error)".contains("never closed"))
        }
        XCTAssertNil(try reader.nextRecord())
    }

    func testRefusesInvalidUTF8() {
        var bytes = Array("word\n".utf8)
        bytes += [0x61, 0xFF, 0x62, 0x0A]
        var reader = DelimitedReader(ArrayByteStream(bytes), dialect: .csv)
        XCTAssertEqual(try reader.nextRecord()?.fields, ["word"])
        XCTAssertThrowsError(try reader.nextRecord()) { error in
            XCTAssertEqual(error as? ImportError, .invalidLine(line: 2, reason: "field 1 is not valid UTF-8 text"))
        }
    }

    func testLineNumbersCountNewlinesInsideQuotedFields() throws {
        var reader = DelimitedReader(ArrayByteStream("h\n\"a\nb\nc\"\nnext\n"), dialect: .csv)
        XCTAssertEqual(try reader.nextRecord()?.line, 1)
        XCTAssertEqual(try reader.nextRecord()?.line, 2)
        XCTAssertEqual(try reader.nextRecord()?.line, 5)
    }

    func testTSVHasNoQuotingButEscapes() throws {
        XCTAssertEqual(try records("a\t\"b\"\tc\\td\\nnew\\\\x\\q\n", dialect: .tsv), [["a", "\"b\"", "c\td\nnew\\x\\q"]])
    }

    func testWrittenFieldsReadBackExactly() throws {
        let samples = ["plain", "", " edge ", "comma, inside", "quote \" inside", "\"", "new\nline", "crlf\r\nline",
                       "tab\there", "back\\slash\\n", "사과 🍎", "e\u{301}", "trailing\n"]
        for format in [WordFileFormat.csv, .tsv] {
            let writer = WordFileWriter(format: format)
            let stamp = Timestamp(milliseconds: 1_700_000_000_123)
            var text = writer.header
            var words: [Word] = []
            for (index, sample) in samples.enumerated() {
                let word = Word(bookId: UUID(), word: "w\(index)", definition: sample, detail: sample, synonym: sample,
                                date: stamp, memorized: index % 2 == 0, createdAt: stamp, modifiedAt: stamp)
                words.append(word)
                text += writer.line(for: word, bookName: sample.isEmpty ? "b" : "book \(sample)")
            }
            var reader = try WordFileReader(ArrayByteStream(text, chunkSize: 3), format: format)
            for word in words {
                let row = try XCTUnwrap(try reader.nextRow())
                XCTAssertEqual(row.values[.definition], word.definition, "\(format)")
                XCTAssertEqual(row.values[.detail], word.detail, "\(format)")
                XCTAssertEqual(row.values[.id], word.id.uuidString.lowercased())
                XCTAssertEqual(row.values[.memorized], word.memorized ? "true" : "false")
                XCTAssertEqual(row.values[.createdAt], stamp.iso8601)
            }
            XCTAssertNil(try reader.nextRow())
        }
    }
}

final class WordFileReaderTests: XCTestCase {
    func testMapsHeadersByNameAliasAndCaseAndReportsUnknownColumns() throws {
        var reader = try WordFileReader(ArrayByteStream("Word,Meaning,발음,Colour\nhello,greeting,həˈləʊ,red\n"), format: .csv)
        let row = try XCTUnwrap(try reader.nextRow())
        XCTAssertEqual(row.values[.word], "hello")
        XCTAssertEqual(row.values[.definition], "greeting")
        XCTAssertEqual(row.values[.pronunciation], "həˈləʊ")
        XCTAssertEqual(reader.unknownColumns, ["Colour"])
    }

    func testAFirstRowThatNamesNoColumnIsReadAsWordAndDefinition() throws {
        var reader = try WordFileReader(ArrayByteStream("apple,사과\nbanana\n"), format: .csv)
        XCTAssertEqual(reader.notes, ["The file has no header row: its columns were read as word, definition."])
        XCTAssertEqual(try reader.nextRow()?.values[.definition], "사과")
        XCTAssertEqual(try reader.nextRow()?.values[.word], "banana")
        XCTAssertNil(try reader.nextRow())
        var named = try WordFileReader(ArrayByteStream("a,b,c\n"), format: .csv, layout: ImportLayout(columns: [.word, .detail, .definition]))
        let row = try XCTUnwrap(try named.nextRow())
        XCTAssertEqual([row.values[.word], row.values[.detail], row.values[.definition]], ["a", "b", "c"])
    }

    func testAFileWithoutAWordColumnIsRefused() {
        XCTAssertThrowsError(try WordFileReader(ArrayByteStream("definition,detail\nred,fruit\n"), format: .csv)) { error in
            guard case .missingHeader = error as? ImportError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try WordFileReader(ArrayByteStream("apple,red,fruit\n"), format: .csv)) { error in
            XCTAssertEqual(error as? ImportError, .noHeader(fields: 3))
        }
        XCTAssertThrowsError(try WordFileReader(ArrayByteStream(""), format: .csv)) { error in
            XCTAssertEqual(error as? ImportError, .emptyFile)
        }
    }

    func testRowsWithTheWrongNumberOfFieldsAreInvalid() throws {
        var reader = try WordFileReader(ArrayByteStream("word,definition\na\nb,c,d\n"), format: .csv)
        XCTAssertThrowsError(try reader.nextRow()) { XCTAssertEqual(($0 as? ImportError)?.skippable?.line, 2) }
        XCTAssertThrowsError(try reader.nextRow()) { XCTAssertEqual(($0 as? ImportError)?.skippable?.line, 3) }
        XCTAssertNil(try reader.nextRow())
    }

    func testJSONLinesReadsObjectsAndRefusesOtherLines() throws {
        let text = "{\"word\":\"a\",\"memorized\":true,\"definition\":\"x\\ny\"}\n\n[1,2]\n{\"definition\":\"no word\"}\n{\"word\":\"b\",\"colour\":1}\n"
        var reader = try WordFileReader(ArrayByteStream(text), format: .jsonl)
        let first = try XCTUnwrap(try reader.nextRow())
        XCTAssertEqual(first.values[.memorized], "true")
        XCTAssertEqual(first.values[.definition], "x\ny")
        XCTAssertThrowsError(try reader.nextRow()) { XCTAssertEqual(($0 as? ImportError)?.skippable?.line, 3) }
        XCTAssertThrowsError(try reader.nextRow()) { XCTAssertEqual(($0 as? ImportError)?.skippable?.line, 4) }
        XCTAssertEqual(try reader.nextRow()?.line, 5)
        XCTAssertEqual(reader.unknownColumns, ["colour"])
    }

    func testImportedWordsAreValidatedWithTheirLine() {
        func check(_ values: ImportValues, _ fragment: String) {
            XCTAssertThrowsError(try ImportedWord(row: ImportRow(line: 7, values: values), defaultBook: "B")) { error in
                guard case .invalidLine(7, let reason) = error as? ImportError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains(fragment), reason)
            }
        }
        check([.word: " "], "must not be empty")
        check([.word: "a", .date: "31/12/2026"], "is not a date")
        check([.word: "a", .memorized: "perhaps"], "yes/no")
        check([.word: "a", .id: "not-a-uuid"], "not a UUID")
        XCTAssertThrowsError(try ImportedWord(row: ImportRow(line: 3, values: [.word: "a"]), defaultBook: nil)) { error in
            XCTAssertEqual(error as? ImportError, .noBook(line: 3))
        }
    }
}
