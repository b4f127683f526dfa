/// Reads records of delimited text: CSV as RFC 4180 defines it (quoted fields with embedded
/// separators, quotes and newlines; CRLF or LF; a UTF-8 byte-order mark is skipped), or TSV
/// (no quoting; `\t`, `\n`, `\r` and `\\` escapes inside fields).
///
/// Streaming: holds one chunk and one record at a time, whatever the file's size. A malformed
/// record throws `ImportError.invalidLine` and the reader moves on to the next line, so a
/// caller may skip it and keep reading.
public struct DelimitedReader: RecordReader {
    public enum Dialect: Sendable { case csv, tsv }

    /// The longest record any reader accepts (1 MiB): longer is not a word list, and reading it
    /// whole would let a file of one endless line take all memory.
    public static let maxRecordBytes = 1 << 20

    private var stream: BOMSkippingStream
    private let dialect: Dialect
    private let separator: UInt8
    /// Bytes read but not yet consumed; the next record starts at `position`.
    private var buffer: [UInt8] = []
    private var position = 0
    private var endOfInput = false
    /// The physical line the next record starts on (1-based).
    private var line = 1

    public init(_ stream: any ByteStream, dialect: Dialect) {
        self.stream = BOMSkippingStream(stream)
        self.dialect = dialect
        self.separator = dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")
    }

    /// The next non-blank record with the line it starts on, or nil at the end of input.
    public mutating func nextRecord() throws -> (line: Int, fields: [String])? {
        while true {
            let startLine = line
            let outcome = buffer.withUnsafeBufferPointer { scanRecord(in: $0, from: position) }
            switch outcome {
            case .needMore:
                if buffer.count - position > Self.maxRecordBytes {
                    throw ImportError.recordTooLong(line: startLine, limit: Self.maxRecordBytes)
                }
                guard try readMore() else { continue }
                // The end of input ends the record; scan it once more knowing that.
                continue
            case .endOfInput:
                return nil
            case .malformed(let reason, let resumeAt, let newlines):
                position = resumeAt
                line += newlines
                throw ImportError.invalidLine(line: startLine, reason: reason)
            case .record(let spans, let resumeAt, let newlines):
                let fields = try buffer.withUnsafeBufferPointer { try makeFields(spans, in: $0, line: startLine) }
                position = resumeAt
                line += newlines
                if fields.count == 1 && fields[0].isEmpty { continue }  // a blank line
                return (startLine, fields)
            }
        }
    }

    /// Appends the next chunk after the unconsumed bytes; false at the end of input.
    private mutating func readMore() throws -> Bool {
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        guard let chunk = try stream.nextChunk() else {
            endOfInput = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// Where one field lies in the buffer; `quoted` fields may hold doubled quotes.
    private struct FieldSpan {
        var start: Int
        var end: Int
        var hasDoubledQuotes: Bool
    }

    private enum ScanOutcome {
        case record([FieldSpan], resumeAt: Int, newlines: Int)
        case malformed(String, resumeAt: Int, newlines: Int)
        case needMore
        case endOfInput
    }

    /// Finds the fields of the record starting at `start`, without copying anything.
    private func scanRecord(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> ScanOutcome {
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        let count = bytes.count
        if start >= count { return endOfInput ? .endOfInput : .needMore }
        let quoting = dialect == .csv
        var spans: [FieldSpan] = []
        var index = start
        var newlines = 0

        /// After an error: resume after the end of the physical line.
        func malformed(_ reason: String, at errorIndex: Int) -> ScanOutcome {
            var scan = errorIndex
            while scan < count && bytes[scan] != newline { scan += 1 }
            if scan == count && !endOfInput { return .needMore }
            return .malformed(reason, resumeAt: min(scan + 1, count), newlines: newlines + (scan < count ? 1 : 0))
        }

        while true {
            // At the start of a field.
            if quoting && index < count && bytes[index] == quote {
                let fieldStart = index + 1
                var scan = fieldStart
                var doubled = false
                var closed = false
                while scan < count {
                    let byte = bytes[scan]
                    if byte == quote {
                        if scan + 1 < count && bytes[scan + 1] == quote {
                            doubled = true
                            scan += 2
                            continue
                        }
                        if scan + 1 == count && !endOfInput { return .needMore }
                        closed = true
                        break
                    }
                    if byte == newline { newlines += 1 }
                    scan += 1
                }
                guard closed else {
                    if !endOfInput { return .needMore }
                    return .malformed("a quoted field is never closed (missing \")", resumeAt: count, newlines: newlines)
                }
                spans.append(FieldSpan(start: fieldStart, end: scan, hasDoubledQuotes: doubled))
                index = scan + 1
                if index == count {
                    if !endOfInput { return .needMore }
                    return .record(spans, resumeAt: index, newlines: newlines)
                }
                let after = bytes[index]
                if after == separator { index += 1; continue }
                if after == newline { return .record(spans, resumeAt: index + 1, newlines: newlines + 1) }
                if after == carriageReturn {
                    if index + 1 == count && !endOfInput { return .needMore }
                    let skip = index + 1 < count && bytes[index + 1] == newline ? 2 : 1
                    return .record(spans, resumeAt: index + skip, newlines: newlines + 1)
                }
                return malformed("unexpected text after a closing quote (a quote inside a field must be doubled: \"\")", at: index)
            }
            // An unquoted field: runs to the separator or the end of the line.
            let fieldStart = index
            while index < count {
                let byte = bytes[index]
                if byte == separator || byte == newline { break }
                if quoting && byte == quote {
                    return malformed("a quote inside an unquoted field (quote the whole field and double the quote: \"\")", at: index)
                }
                index += 1
            }
            if index == count && !endOfInput { return .needMore }
            var fieldEnd = index
            if index == count || bytes[index] == newline {
                if fieldEnd > fieldStart && bytes[fieldEnd - 1] == carriageReturn { fieldEnd -= 1 }
                spans.append(FieldSpan(start: fieldStart, end: fieldEnd, hasDoubledQuotes: false))
                let atEnd = index == count
                return .record(spans, resumeAt: atEnd ? count : index + 1, newlines: newlines + (atEnd ? 0 : 1))
            }
            spans.append(FieldSpan(start: fieldStart, end: fieldEnd, hasDoubledQuotes: false))
            index += 1  // past the separator
        }
    }

    private func makeFields(_ spans: [FieldSpan], in bytes: UnsafeBufferPointer<UInt8>, line: Int) throws -> [String] {
        var fields: [String] = []
        fields.reserveCapacity(spans.count)
        for (column, span) in spans.enumerated() {
            let slice = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
            var text: String?
            if span.hasDoubledQuotes {
                var unescaped: [UInt8] = []
                unescaped.reserveCapacity(slice.count)
                var index = 0
                while index < slice.count {
                    unescaped.append(slice[index])
                    index += slice[index] == UInt8(ascii: "\"") ? 2 : 1
                }
                text = unescaped.withUnsafeBufferPointer(DelimitedReader.utf8String)
            } else {
                text = DelimitedReader.utf8String(slice)
            }
            guard let text else {
                throw ImportError.invalidLine(line: line, reason: "field \(column + 1) is not valid UTF-8 text")
            }
            fields.append(dialect == .tsv ? TSVEscapes.unescape(text) : text)
        }
        return fields
    }

    /// The text of valid UTF-8 bytes, or nil (decoding repairs invalid bytes, so a repaired
    /// result differs from its input).
    static func utf8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if bytes.allSatisfy({ $0 < 0x80 }) { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}

/// The escapes that let TSV fields hold tabs, newlines and backslashes.
public enum TSVEscapes {
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Turns `\t`, `\n`, `\r` and `\\` back into their characters; any other backslash stays.
    public static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else { out.unicodeScalars.append(scalar); continue }
            guard let next = scalars.next() else { out += "\\"; break }
            switch next {
            case "t": out += "\t"
            case "n": out += "\n"
            case "r": out += "\r"
            case "\\": out += "\\"
            default: out += "\\"; out.unicodeScalars.append(next)
            }
        }
        return out
    }
}
