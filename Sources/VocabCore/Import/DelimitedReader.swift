/// Reads records of delimited text: CSV as RFC 4180 defines it (quoted fields with embedded
/// separators, quotes and newlines; CRLF or LF; a UTF-8 byte-order mark is skipped), or TSV
/// (no quoting; `\t`, `\n`, `\r` and `\\` escapes inside fields).
///
/// Streaming: holds one chunk and one record at a time, whatever the file's size. A malformed
/// record throws `ImportError.invalidLine` and the reader moves on to the next line, so a
/// caller may skip it and keep reading.
public struct DelimitedReader<Stream: ByteStream> {
    public enum Dialect: Sendable { case csv, tsv }

    private var stream: BOMSkippingStream<Stream>
    private let dialect: Dialect
    private let separator: UInt8
    private var chunk: [UInt8] = []
    private var index = 0
    private var finished = false
    /// The physical line the reader is on (1-based).
    private var line = 1

    public init(_ stream: Stream, dialect: Dialect) {
        self.stream = BOMSkippingStream(stream)
        self.dialect = dialect
        self.separator = dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")
    }

    /// The next non-blank record with the line it starts on, or nil at the end of input.
    public mutating func nextRecord() throws -> (line: Int, fields: [String])? {
        while true {
            guard let (startLine, rawFields) = try readRawRecord() else { return nil }
            if rawFields.count == 1 && rawFields[0].isEmpty { continue }  // a blank line
            var fields: [String] = []
            fields.reserveCapacity(rawFields.count)
            for (column, raw) in rawFields.enumerated() {
                guard let text = String(validating: raw, as: UTF8.self) else {
                    throw ImportError.invalidLine(line: startLine, reason: "field \(column + 1) is not valid UTF-8 text")
                }
                fields.append(dialect == .tsv ? TSVEscapes.unescape(text) : text)
            }
            return (startLine, fields)
        }
    }

    private mutating func nextByte() throws -> UInt8? {
        if index == chunk.count {
            guard !finished, let next = try stream.nextChunk() else {
                finished = true
                return nil
            }
            chunk = next
            index = 0
        }
        let byte = chunk[index]
        index += 1
        return byte
    }

    private mutating func peekByte() throws -> UInt8? {
        guard let byte = try nextByte() else { return nil }
        index -= 1
        return byte
    }

    /// Skips the rest of the current physical line after a malformed record.
    private mutating func skipRestOfLine() throws {
        while let byte = try nextByte() {
            if byte == UInt8(ascii: "\n") { line += 1; return }
        }
    }

    private mutating func readRawRecord() throws -> (Int, [[UInt8]])? {
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        let startLine = line
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var sawAnything = false
        let quoting = dialect == .csv

        func fail(_ reason: String) throws -> Never {
            throw ImportError.invalidLine(line: startLine, reason: reason)
        }

        fieldLoop: while true {
            // At the start of a field.
            guard let first = try nextByte() else {
                if !sawAnything { return nil }
                fields.append(field)
                return (startLine, fields)
            }
            sawAnything = true
            if quoting && first == quote {
                // A quoted field: runs to the closing quote; "" is a quote.
                while true {
                    guard let byte = try nextByte() else {
                        try fail("a quoted field is never closed (missing \")")
                    }
                    if byte == quote {
                        if try peekByte() == quote {
                            index += 1
                            field.append(quote)
                            continue
                        }
                        break
                    }
                    if byte == newline { line += 1 }
                    field.append(byte)
                }
                // After the closing quote: a separator, the end of the record, or an error.
                guard let after = try nextByte() else {
                    fields.append(field)
                    return (startLine, fields)
                }
                if after == separator {
                    fields.append(field); field = []
                    continue fieldLoop
                }
                if after == newline || after == carriageReturn {
                    if after == carriageReturn, try peekByte() == newline { index += 1 }
                    line += 1
                    fields.append(field)
                    return (startLine, fields)
                }
                try skipRestOfLine()
                try fail("unexpected text after a closing quote (a quote inside a field must be doubled: \"\")")
            }
            // An unquoted field: runs to the separator or the end of the line.
            var byte = first
            while true {
                if byte == separator {
                    fields.append(field); field = []
                    continue fieldLoop
                }
                if byte == newline {
                    if field.last == carriageReturn { field.removeLast() }
                    line += 1
                    fields.append(field)
                    return (startLine, fields)
                }
                if quoting && byte == quote {
                    try skipRestOfLine()
                    try fail("a quote inside an unquoted field (quote the whole field and double the quote: \"\")")
                }
                field.append(byte)
                guard let next = try nextByte() else {
                    if field.last == carriageReturn { field.removeLast() }
                    fields.append(field)
                    return (startLine, fields)
                }
                byte = next
            }
        }
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
