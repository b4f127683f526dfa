/// Reads records of text split by any separators, one or more characters each (Quizlet's
/// exports let people pick " - " between term and definition and ";" between rows; Anki's
/// text exports name theirs in a `#separator:` line).
///
/// Quoting follows CSV: a field that starts with `"` runs to the next `"` not doubled, may hold
/// separators and newlines, and `""` inside it is one `"`. A field that does not start with a
/// quote is taken as it is, quotes and all. A `\r` before a newline row separator is dropped.
///
/// Streaming, like `DelimitedReader`: one chunk and one record at a time; a record longer than
/// `maxRecordBytes` is refused (a file of 10 MB lines is not a word list).
public struct SeparatedTextReader: RecordReader {
    private var stream: BOMSkippingStream
    private let fieldSeparator: [UInt8]
    private let rowSeparator: [UInt8]
    private let maxRecordBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var endOfInput = false
    private var line = 1

    /// `fieldSeparator` and `rowSeparator` must be non-empty and differ.
    public init(_ stream: any ByteStream, fieldSeparator: String, rowSeparator: String = "\n",
                maxRecordBytes: Int = DelimitedReader.maxRecordBytes) {
        self.stream = BOMSkippingStream(stream)
        self.fieldSeparator = Array(fieldSeparator.utf8)
        self.rowSeparator = Array(rowSeparator.utf8)
        self.maxRecordBytes = maxRecordBytes
    }

    public mutating func nextRecord() throws -> (line: Int, fields: [String])? {
        while true {
            let startLine = line
            switch scan() {
            case .needMore:
                if buffer.count - position > maxRecordBytes {
                    throw ImportError.recordTooLong(line: startLine, limit: maxRecordBytes)
                }
                if position > 0 {
                    buffer.removeSubrange(0..<position)
                    position = 0
                }
                if let chunk = try stream.nextChunk() { buffer.append(contentsOf: chunk) } else { endOfInput = true }
            case .endOfInput:
                return nil
            case .malformed(let reason, let resumeAt):
                line += newlines(from: position, to: resumeAt)
                position = resumeAt
                throw ImportError.invalidLine(line: startLine, reason: reason)
            case .record(let raw, let resumeAt):
                line += newlines(from: position, to: resumeAt)
                position = resumeAt
                var fields: [String] = []
                for (column, bytes) in raw.enumerated() {
                    guard let text = bytes.withUnsafeBufferPointer(DelimitedReader.utf8String) else {
                        throw ImportError.invalidLine(line: startLine, reason: "field \(column + 1) is not valid UTF-8 text")
                    }
                    fields.append(text)
                }
                if fields.count == 1 && fields[0].allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                return (startLine, fields)
            }
        }
    }

    private enum Outcome {
        case record([[UInt8]], resumeAt: Int)
        case malformed(String, resumeAt: Int)
        case needMore
        case endOfInput
    }

    private func newlines(from start: Int, to end: Int) -> Int {
        var count = 0
        for index in start..<min(end, buffer.count) where buffer[index] == UInt8(ascii: "\n") { count += 1 }
        return count
    }

    private func matches(_ separator: [UInt8], at index: Int) -> Bool {
        guard index + separator.count <= buffer.count else { return false }
        for offset in 0..<separator.count where buffer[index + offset] != separator[offset] { return false }
        return true
    }

    /// Whether the bytes from `index` might still become `separator` when more arrive.
    private func mayMatch(_ separator: [UInt8], at index: Int) -> Bool {
        guard !endOfInput, index + separator.count > buffer.count else { return false }
        for offset in 0..<(buffer.count - index) where buffer[index + offset] != separator[offset] { return false }
        return true
    }

    private func scan() -> Outcome {
        let quote = UInt8(ascii: "\"")
        var index = position
        if index >= buffer.count { return endOfInput ? .endOfInput : .needMore }
        var fields: [[UInt8]] = []
        let dropsCarriageReturn = rowSeparator == [UInt8(ascii: "\n")]
        while true {
            var field: [UInt8] = []
            if index < buffer.count && buffer[index] == quote {
                var scan = index + 1
                var closed = false
                while scan < buffer.count {
                    if buffer[scan] == quote {
                        if scan + 1 < buffer.count && buffer[scan + 1] == quote { field.append(quote); scan += 2; continue }
                        if scan + 1 == buffer.count && !endOfInput { return .needMore }
                        closed = true
                        break
                    }
                    field.append(buffer[scan])
                    scan += 1
                }
                guard closed else {
                    return endOfInput ? .malformed("a quoted field is never closed (missing \")", resumeAt: buffer.count) : .needMore
                }
                index = scan + 1
                if dropsCarriageReturn && index < buffer.count && buffer[index] == UInt8(ascii: "\r") { index += 1 }
                if index >= buffer.count {
                    if !endOfInput { return .needMore }
                    fields.append(field)
                    return .record(fields, resumeAt: index)
                }
                if matches(fieldSeparator, at: index) { fields.append(field); index += fieldSeparator.count; continue }
                if matches(rowSeparator, at: index) { fields.append(field); return .record(fields, resumeAt: index + rowSeparator.count) }
                if mayMatch(fieldSeparator, at: index) || mayMatch(rowSeparator, at: index) { return .needMore }
                var end = index
                while end < buffer.count && !matches(rowSeparator, at: end) { end += 1 }
                if end == buffer.count && !endOfInput { return .needMore }
                return .malformed("unexpected text after a closing quote (a quote inside a quoted field must be doubled: \"\")",
                                  resumeAt: min(end + rowSeparator.count, buffer.count))
            }
            let start = index
            while index < buffer.count {
                if matches(fieldSeparator, at: index) || matches(rowSeparator, at: index) { break }
                if mayMatch(fieldSeparator, at: index) || mayMatch(rowSeparator, at: index) { return .needMore }
                index += 1
            }
            if index >= buffer.count && !endOfInput { return .needMore }
            field = Array(buffer[start..<index])
            if index >= buffer.count || matches(rowSeparator, at: index) {
                if dropsCarriageReturn, field.last == UInt8(ascii: "\r") { field.removeLast() }
                fields.append(field)
                return .record(fields, resumeAt: min(index + rowSeparator.count, buffer.count))
            }
            fields.append(field)
            index += fieldSeparator.count
        }
    }
}
