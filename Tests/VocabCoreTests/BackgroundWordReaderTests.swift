import XCTest
@testable import VocabCore

final class BackgroundWordReaderTests: XCTestCase {
    /// A CSV of `rows` words made on demand, a few rows per chunk; counts the rows it handed out.
    private final class GeneratedCSV: ByteStream {
        let rows: Int
        private(set) var produced = 0
        private var headerSent = false

        init(rows: Int) { self.rows = rows }

        func nextChunk() throws -> [UInt8]? {
            if !headerSent {
                headerSent = true
                return Array("word,definition,memorized\n".utf8)
            }
            guard produced < rows else { return nil }
            var text = ""
            for _ in 0..<min(7, rows - produced) {
                produced += 1
                // Every 500th row has a bad flag; every 777th has a field too many.
                let flag = produced % 500 == 0 ? "maybe" : "yes"
                let extra = produced % 777 == 0 ? ",extra" : ""
                text += "word \(produced),\"뜻, \(produced)\",\(flag)\(extra)\n"
            }
            return Array(text.utf8)
        }
    }

    /// A stream that fails after its first chunk, like a file on a vanishing disk.
    private struct FailingStream: ByteStream {
        struct ReadFailure: Error {}
        var sent = false

        mutating func nextChunk() throws -> [UInt8]? {
            guard !sent else { throw ReadFailure() }
            sent = true
            return Array("word\napple\nbanana\n".utf8)
        }
    }

    private func describe(_ item: BackgroundWordReader.Item) -> String {
        switch item {
        case .word(let word): return "\(word.line) \(word.draft.word) \(word.draft.definition) \(word.draft.memorized)"
        case .failed(let error as ImportError): return "failed \(error.message)"
        case .failed(let error): return "failed \(type(of: error))"
        }
    }

    /// What a plain loop on the caller's thread sees.
    private func readInline(_ stream: any ByteStream) throws -> [String] {
        var reader = try WordFileReader(stream, format: .csv)
        var seen: [String] = []
        while true {
            do {
                guard let row = try reader.nextRow() else { break }
                seen.append(describe(.word(try ImportedWord(row: row, defaultBook: "B"))))
            } catch {
                seen.append(describe(.failed(error)))
                if (error as? ImportError)?.skippable == nil { break }
            }
        }
        return seen
    }

    func testRowsAndErrorsComeOutInFileOrderAsAPlainLoopSeesThem() throws {
        let expected = try readInline(GeneratedCSV(rows: 5_000))
        let rows = BackgroundWordReader(try WordFileReader(GeneratedCSV(rows: 5_000), format: .csv), defaultBook: "B")
        var seen: [String] = []
        while let item = rows.next() { seen.append(describe(item)) }
        _ = rows.finish()
        XCTAssertEqual(seen.count, 5_000)
        XCTAssertEqual(seen, expected)
        XCTAssertEqual(seen.filter { $0.hasPrefix("failed") }.count, 10 + 6)
        XCTAssertTrue(seen.contains { $0.hasPrefix("failed Line 501: ") })
    }

    func testFinishingEarlyStopsTheThreadWithoutReadingTheWholeFile() throws {
        let stream = GeneratedCSV(rows: 1_000_000)
        let rows = BackgroundWordReader(try WordFileReader(stream, format: .csv), defaultBook: "B")
        guard case .word(let first)? = rows.next() else { return XCTFail("expected the first word") }
        XCTAssertEqual(first.draft.word, "word 1")
        _ = rows.finish()
        XCTAssertLessThan(stream.produced, 10_000, "reading runs only a few batches ahead of the caller")
    }

    func testAnUnreadableStreamEndsTheRowsWithItsError() throws {
        let rows = BackgroundWordReader(try WordFileReader(FailingStream(), format: .csv), defaultBook: "B")
        var seen: [String] = []
        while let item = rows.next() { seen.append(describe(item)) }
        _ = rows.finish()
        XCTAssertEqual(seen, ["2 apple  false", "3 banana  false", "failed ReadFailure"])
    }

    func testTheReaderComesBackWithTheUnknownColumnsItMet() throws {
        let text = "{\"word\": \"apple\", \"colour\": \"red\"}\n{\"word\": \"kiwi\", \"shape\": \"round\"}\n"
        let rows = BackgroundWordReader(try WordFileReader(ArrayByteStream(text), format: .jsonl), defaultBook: "B")
        var count = 0
        while rows.next() != nil { count += 1 }
        let reader = rows.finish()
        XCTAssertEqual(count, 2)
        XCTAssertEqual(reader.unknownColumns, ["colour", "shape"])
    }
}
