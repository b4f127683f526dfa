/// Writes an `Encodable` value straight to compact JSON (UTF-8), keys in the order its
/// `encode(to:)` gives them (a synthesized conformance: the order of the properties), an
/// optional that is nil as `null`. Faster than building a `JSONValue` first or Foundation's
/// encoder, which both make a tree of the value before writing it: the web API encodes
/// every answer with it.
public enum JSONBytes {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONStreamWriter()
        writer.out.reserveCapacity(256)
        try writer.write(value)
        return writer.out
    }
}

/// The encoder behind `JSONBytes`. A container's closing bracket is written when the value
/// that opened it has finished encoding (every container opened deeper than the level the
/// value started at is closed then), so a conformance must write its members in one pass,
/// as synthesized conformances do.
final class JSONStreamWriter: Encoder {
    var out: [UInt8] = []
    /// Each open container's closing byte, innermost last, and whether it has a member yet.
    private var open: [(close: UInt8, hasMember: Bool)] = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func write<T: Encodable>(_ value: T) throws {
        switch value {
        case let text as String: JSONValue.writeString(text, to: &out)
        case let number as Int: out += String(number).utf8
        case let flag as Bool: writeBool(flag)
        default:
            let depth = open.count
            try value.encode(to: self)
            while open.count > depth { out.append(open.removeLast().close) }
        }
    }

    func writeBool(_ flag: Bool) { out += (flag ? "true" : "false").utf8 }
    func writeNull() { out += "null".utf8 }
    func writeDouble(_ number: Double) { out += (number.isFinite ? String(number) : "null").utf8 }

    /// A comma before every member of a container but its first.
    func separate() {
        guard let last = open.indices.last else { return }
        if open[last].hasMember { out.append(UInt8(ascii: ",")) } else { open[last].hasMember = true }
    }

    func key(_ key: some CodingKey) {
        separate()
        JSONValue.writeString(key.stringValue, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        out.append(UInt8(ascii: "{"))
        open.append((UInt8(ascii: "}"), false))
        return KeyedEncodingContainer(Keyed(writer: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        out.append(UInt8(ascii: "["))
        open.append((UInt8(ascii: "]"), false))
        return Unkeyed(writer: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(writer: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: JSONStreamWriter
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { writer.key(key); writer.writeNull() }
        mutating func encode(_ value: String, forKey key: Key) throws { writer.key(key); JSONValue.writeString(value, to: &writer.out) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { writer.key(key); writer.writeBool(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { writer.key(key); writer.out += String(value).utf8 }
        mutating func encode(_ value: Int64, forKey key: Key) throws { writer.key(key); writer.out += String(value).utf8 }
        mutating func encode(_ value: Double, forKey key: Key) throws { writer.key(key); writer.writeDouble(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { writer.key(key); try writer.write(value) }
        // A nil optional is written as null, not left out: the answer's shape does not change.
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            writer.key(key)
            return writer.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            writer.key(key)
            return writer.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { writer.key(SuperKey()); return writer }
        mutating func superEncoder(forKey key: Key) -> any Encoder { writer.key(key); return writer }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let writer: JSONStreamWriter
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() throws { writer.separate(); writer.writeNull(); count += 1 }
        mutating func encode(_ value: String) throws { writer.separate(); JSONValue.writeString(value, to: &writer.out); count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws { writer.separate(); try writer.write(value); count += 1 }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            writer.separate()
            count += 1
            return writer.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            writer.separate()
            count += 1
            return writer.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { writer.separate(); count += 1; return writer }
    }

    struct Single: SingleValueEncodingContainer {
        let writer: JSONStreamWriter
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { writer.writeNull() }
        mutating func encode(_ value: String) throws { JSONValue.writeString(value, to: &writer.out) }
        mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
        mutating func encode(_ value: Int) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: Int64) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: Double) throws { writer.writeDouble(value) }
        mutating func encode(_ value: Float) throws { writer.writeDouble(Double(value)) }
        mutating func encode(_ value: Int8) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: Int16) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: Int32) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: UInt) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: UInt8) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: UInt16) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: UInt32) throws { writer.out += String(value).utf8 }
        mutating func encode(_ value: UInt64) throws { writer.out += String(value).utf8 }
        mutating func encode<T: Encodable>(_ value: T) throws { try writer.write(value) }
    }

    private struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}
