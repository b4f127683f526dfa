/// A JSON value whose objects keep their keys in the order they were given, so output is
/// stable and reads in the order of DESIGN.md §9.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Compact JSON on one line (for JSON Lines).
    public var compact: String {
        var out: [UInt8] = []
        write(to: &out, indent: nil, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented JSON for people and `--json` output.
    public var pretty: String {
        pretty(level: 0)
    }

    /// Indented JSON as an element `level` containers deep (for arrays written one element
    /// at a time).
    public func pretty(level: Int) -> String {
        var out: [UInt8] = []
        write(to: &out, indent: "  ", level: level)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8], indent: String?, level: Int) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let value): out += (value ? "true" : "false").utf8
        case .int(let value): out += String(value).utf8
        case .double(let value):
            out += (value.isFinite ? String(value) : "null").utf8
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, to: &out, indent: indent, level: level) { index, out in
                items[index].write(to: &out, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, to: &out, indent: indent, level: level) { index, out in
                JSONValue.writeString(members[index].0, to: &out)
                out += (indent == nil ? ":" : ": ").utf8
                members[index].1.write(to: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(open: Character, close: Character, count: Int, to out: inout [UInt8], indent: String?,
                                level: Int, element: (Int, inout [UInt8]) -> Void) {
        out += open.utf8
        guard count > 0 else { out += close.utf8; return }
        for index in 0..<count {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if let indent { out += ("\n" + String(repeating: indent, count: level + 1)).utf8 }
            element(index, &out)
        }
        if let indent { out += ("\n" + String(repeating: indent, count: level)).utf8 }
        out += close.utf8
    }

    /// Writes a JSON string literal as UTF-8: runs of plain bytes are copied whole; quotes,
    /// backslashes, control characters and U+2028/U+2029 (E2 80 A8/A9) are escaped.
    public static func writeString(_ value: String, to out: inout [UInt8]) {
        var text = value
        text.withUTF8 { writeString(utf8: $0, to: &out) }
    }

    /// `writeString` of text given as UTF-8 bytes (valid UTF-8: the caller checks).
    public static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        do {
            var plainStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // Almost every byte is plain: one test, then on to the next.
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 {
                    index += 1
                    continue
                }
                var escape: [UInt8]?
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = Array("\\\"".utf8)
                case UInt8(ascii: "\\"): escape = Array("\\\\".utf8)
                case UInt8(ascii: "\n"): escape = Array("\\n".utf8)
                case UInt8(ascii: "\r"): escape = Array("\\r".utf8)
                case UInt8(ascii: "\t"): escape = Array("\\t".utf8)
                case 0..<0x20: escape = unicodeEscape(UInt32(byte))
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    length = 3
                default: break
                }
                if let escape {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
                    out.append(contentsOf: escape)
                    plainStart = index + length
                }
                index += length
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        let hex = String(value, radix: 16)
        return Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
    }
}
