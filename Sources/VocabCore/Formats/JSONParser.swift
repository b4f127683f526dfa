/// Reads JSON text (RFC 8259) into a `JSONValue`: numbers without a fraction or exponent that
/// fit 64 bits become `.int`, others `.double`; objects keep their members in the order written
/// (a repeated key: the last one counts when looked up). Bounded: nesting deeper than
/// `maximumDepth` is an error, not a crash.
public struct JSONParser {
    /// Why text is not JSON, and where (a byte offset).
    public struct Failure: Error, Equatable, Sendable {
        public let offset: Int
        public let reason: String
    }

    public static let maximumDepth = 256

    /// Parses `bytes` as one JSON value, white space around it allowed.
    /// Bytes held in one piece (an array, `Data`, a string's UTF-8) are read where they are.
    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws -> JSONValue where Bytes.Element == UInt8 {
        if let value = try bytes.withContiguousStorageIfAvailable(parse(buffer:)) { return value }
        return try Array(bytes).withUnsafeBufferPointer(parse(buffer:))
    }

    /// Parses `text` as one JSON value.
    public static func parse(_ text: String) throws -> JSONValue {
        try parse(text.utf8)
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == buffer.count else { throw parser.failure("text after the value") }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONParser.maximumDepth else { throw failure("nested too deeply") }
        guard index < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw failure("unexpected word") }
            index += 1
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a key must be a string") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("a colon must follow a key") }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw failure("the object is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw failure("a comma or } must follow a member") }
            index += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw failure("the array is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw failure("a comma or ] must follow an item") }
            index += 1
            return .array(items)
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a fraction needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("an exponent needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text) else { throw failure("not a number") }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func string() throws -> String {
        index += 1
        var out: [UInt8] = []
        var plainStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
                index += 1
                guard let text = String(validating: out, as: UTF8.self) else { throw failure("a string is not UTF-8") }
                return text
            }
            if byte < 0x20 { throw failure("a control character in a string") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("a lone surrogate")
                    }
                    index += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure("a lone surrogate") }
                out.append(contentsOf: String(unicode).utf8)
            default: throw failure("an unknown escape")
            }
            plainStart = index
        }
        throw failure("the string is not closed")
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

extension JSONValue {
    /// The member named `key` of an object (the last, if repeated); nil for anything else.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The members of an object, last of each key; nil for anything else.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members, uniquingKeysWith: { _, last in last })
    }

    public var arrayValue: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    public var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    public var isNull: Bool { self == .null }

    /// A whole number: an int, or a double with no fraction that fits.
    public var int64Value: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    /// Any number, as a double.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
}

extension JSONValue {
    /// A tree of Swift values as JSON: strings, true/false, integers, doubles, `JSONValue`s and
    /// arrays and `[String: …]` objects of them; anything else, `nil` included, is null. Object
    /// keys are sorted (output that stays the same) unless `sortingKeys` is false (an answer
    /// read by a program, made by the thousand: the web API's).
    public init(any value: Any?, sortingKeys: Bool = true) {
        switch value {
        case let json as JSONValue: self = json
        case let text as String: self = .string(text)
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(Int64(number))
        case let number as Int64: self = .int(number)
        case let number as Double: self = .double(number)
        case let object as [String: Any]:
            let members = object.map { ($0.key, JSONValue(any: $0.value, sortingKeys: sortingKeys)) }
            self = .object(sortingKeys ? members.sorted { $0.0 < $1.0 } : members)
        case let list as [Any]: self = .array(list.map { JSONValue(any: $0, sortingKeys: sortingKeys) })
        default: self = .null
        }
    }
}

extension JSONValue {
    /// The value as plain Swift values, for code that reads loosely shaped requests:
    /// `[String: Any]`, `[Any]`, `String`, `Bool`, `Int` (an int that fits), `Double`; null
    /// stays `JSONValue.null`, so a key given as null is still there.
    public var plainValue: Any {
        switch self {
        case .null: return JSONValue.null
        case .bool(let flag): return flag
        case .int(let number): return Int(exactly: number).map { $0 as Any } ?? Double(number)
        case .double(let number): return number
        case .string(let text): return text
        case .array(let items): return items.map(\.plainValue)
        case .object(let members): return Dictionary(members.map { ($0.0, $0.1.plainValue) }, uniquingKeysWith: { _, last in last })
        }
    }
}
