import Foundation

/// The file formats words move in and out by.
public enum WordFileFormat: String, CaseIterable, Sendable {
    case csv, tsv, jsonl

    /// The format a file name's extension implies, if any.
    public init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "jsonl", "ndjson": self = .jsonl
        default: return nil
        }
    }
}

/// Reads import rows from any of the formats: a header maps columns for CSV and TSV; JSON
/// Lines objects use the field names directly.
public struct WordFileReader {
    private enum Source {
        case delimited(DelimitedReader)
        case jsonLines(JSONLinesReader)
    }

    private var source: Source
    private var columns: [ImportColumn?] = []
    private var headerCount = 0
    /// Columns the file has that Vocab does not know (reported, not silently dropped).
    public private(set) var unknownColumns: [String] = []

    /// Reads the header (for CSV and TSV) at once; throws when it is missing.
    public init(_ stream: any ByteStream, format: WordFileFormat) throws {
        switch format {
        case .csv, .tsv:
            var reader = DelimitedReader(stream, dialect: format == .csv ? .csv : .tsv)
            guard let header = try reader.nextRecord() else { throw ImportError.emptyFile }
            columns = header.fields.map { ImportColumn(header: $0) }
            headerCount = header.fields.count
            guard columns.contains(.word) else { throw ImportError.missingHeader(found: header.fields) }
            unknownColumns = zip(header.fields, columns).filter { $0.1 == nil }.map { $0.0 }
            let known = columns.compactMap { $0 }
            if let repeated = known.first(where: { column in known.filter { $0 == column }.count > 1 }) {
                throw ImportError.invalidLine(line: header.line, reason: "the header names \"\(repeated.rawValue)\" twice")
            }
            source = .delimited(reader)
        case .jsonl:
            source = .jsonLines(JSONLinesReader(stream))
        }
    }

    /// The next row, or nil at the end. A malformed row throws `ImportError.invalidLine`;
    /// reading may go on after it.
    public mutating func nextRow() throws -> ImportRow? {
        switch source {
        case .delimited(var reader):
            defer { source = .delimited(reader) }
            guard let record = try reader.nextRecord() else { return nil }
            guard record.fields.count == headerCount else {
                throw ImportError.invalidLine(line: record.line,
                    reason: "it has \(record.fields.count) fields but the header has \(headerCount)")
            }
            var values = ImportValues()
            for (column, field) in zip(columns, record.fields) {
                if let column { values[column] = field }
            }
            return ImportRow(line: record.line, values: values)
        case .jsonLines(var reader):
            defer { source = .jsonLines(reader) }
            guard let row = try reader.nextRow() else { return nil }
            for key in reader.newUnknownKeys where !unknownColumns.contains(key) { unknownColumns.append(key) }
            return row
        }
    }
}

/// JSON Lines: one object per line with the field names of DESIGN.md §9.
struct JSONLinesReader {
    private var lines: LineReader
    private(set) var newUnknownKeys: [String] = []

    init(_ stream: any ByteStream) { lines = LineReader(stream) }

    mutating func nextRow() throws -> ImportRow? {
        newUnknownKeys = []
        while let (number, bytes) = try lines.nextLine() {
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                throw ImportError.invalidLine(line: number, reason: "it is not a JSON object")
            }
            var values = ImportValues()
            for (key, value) in object {
                guard let column = ImportColumn(header: key) else {
                    if !["type", "imageType", "imageBytes", "wordCount", "memorizedCount"].contains(key) { newUnknownKeys.append(key) }
                    continue
                }
                switch value {
                case let text as String: values[column] = text
                case let flag as Bool where column == .memorized: values[column] = flag ? "true" : "false"
                case is NSNull: continue
                case let number as NSNumber: values[column] = number.stringValue
                default:
                    throw ImportError.invalidLine(line: number, reason: "\"\(key)\" must be text")
                }
            }
            guard values[.word] != nil else {
                throw ImportError.invalidLine(line: number, reason: "the object has no \"word\"")
            }
            return ImportRow(line: number, values: values)
        }
        return nil
    }
}

/// Splits a byte stream into lines (LF or CRLF), numbering them from 1.
struct LineReader {
    private var stream: BOMSkippingStream
    private var pending: [UInt8] = []
    private var chunk: [UInt8] = []
    private var index = 0
    private var number = 0
    private var finished = false

    init(_ stream: any ByteStream) { self.stream = BOMSkippingStream(stream) }

    mutating func nextLine() throws -> (Int, [UInt8])? {
        pending.removeAll(keepingCapacity: true)
        while true {
            if index == chunk.count {
                guard !finished, let next = try stream.nextChunk() else {
                    finished = true
                    if pending.isEmpty { return nil }
                    number += 1
                    return (number, pending)
                }
                chunk = next
                index = 0
                continue
            }
            if let end = chunk[index...].firstIndex(of: 0x0A) {
                pending.append(contentsOf: chunk[index..<end])
                index = end + 1
                if pending.last == 0x0D { pending.removeLast() }
                number += 1
                return (number, pending)
            }
            pending.append(contentsOf: chunk[index...])
            index = chunk.count
        }
    }
}
