/// The top-level fields of a protobuf message: enough for the messages of an Anki collection
/// (a package's `meta` and media list, the configs of its note types, decks and deck options).
/// Unknown wire types and truncated input throw; nothing is read past the end.
struct ProtobufFields {
    enum Value: Equatable {
        case varint(UInt64)
        case bytes([UInt8])
        case fixed32(UInt32)
        case fixed64(UInt64)
    }

    private(set) var fields: [(number: Int, value: Value)] = []

    struct Malformed: Error {}

    /// A message with no field (every field its default).
    static let empty = ProtobufFields()

    private init() {}

    init(_ bytes: [UInt8]) throws {
        var index = 0
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.count, shift < 64 else { throw Malformed() }
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
        }
        while index < bytes.count {
            let key = try varint()
            let number = Int(truncatingIfNeeded: key >> 3)
            switch key & 7 {
            case 0: fields.append((number, .varint(try varint())))
            case 1, 5:
                let width = key & 7 == 1 ? 8 : 4
                guard index + width <= bytes.count else { throw Malformed() }
                var value: UInt64 = 0
                for offset in 0..<width { value |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
                fields.append((number, width == 4 ? .fixed32(UInt32(truncatingIfNeeded: value)) : .fixed64(value)))
                index += width
            case 2:
                let length = try varint()
                guard length <= UInt64(bytes.count - index) else { throw Malformed() }
                let end = index + Int(length)
                fields.append((number, .bytes(Array(bytes[index..<end]))))
                index = end
            default: throw Malformed()
            }
        }
    }

    /// The last varint given for field `number` (protobuf's rule for repeated scalars).
    func varint(_ number: Int) -> UInt64? {
        for field in fields.reversed() where field.number == number {
            if case .varint(let value) = field.value { return value }
        }
        return nil
    }

    /// Every length-delimited value of field `number`, in order.
    func bytes(_ number: Int) -> [[UInt8]] {
        fields.compactMap { field in
            guard field.number == number, case .bytes(let value) = field.value else { return nil }
            return value
        }
    }

    /// Field `number` as UTF-8 text, if present.
    func string(_ number: Int) -> String? {
        bytes(number).last.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Field `number` as a message, if present.
    func message(_ number: Int) -> ProtobufFields? {
        bytes(number).last.flatMap { try? ProtobufFields($0) }
    }

    /// Whether field `number` was given at all (an `optional` field's presence).
    func has(_ number: Int) -> Bool { fields.contains { $0.number == number } }

    /// Field `number` as a signed integer (int32 and int64 are both sent as 64-bit varints).
    func int(_ number: Int) -> Int64 { varint(number).map { Int64(bitPattern: $0) } ?? 0 }

    func bool(_ number: Int) -> Bool { (varint(number) ?? 0) != 0 }

    /// Field `number` as a float (proto3: 0 when absent).
    func float(_ number: Int) -> Float {
        for field in fields.reversed() where field.number == number {
            if case .fixed32(let bits) = field.value { return Float(bitPattern: bits) }
        }
        return 0
    }

    /// A repeated float field, packed or not.
    func floats(_ number: Int) -> [Float] {
        fields.flatMap { field -> [Float] in
            guard field.number == number else { return [] }
            switch field.value {
            case .fixed32(let bits): return [Float(bitPattern: bits)]
            case .bytes(let packed):
                var floats: [Float] = []
                for at in stride(from: 0, to: packed.count - packed.count % 4, by: 4) {
                    var bits: UInt32 = 0
                    for offset in 0..<4 { bits |= UInt32(packed[at + offset]) << UInt32(8 * offset) }
                    floats.append(Float(bitPattern: bits))
                }
                return floats
            default: return []
            }
        }
    }

    /// A repeated varint field, packed or not.
    func varints(_ number: Int) -> [UInt64] {
        fields.flatMap { field -> [UInt64] in
            guard field.number == number else { return [] }
            switch field.value {
            case .varint(let value): return [value]
            case .bytes(let packed): return (try? ProtobufFields.packedVarints(packed)) ?? []
            default: return []
            }
        }
    }

    private static func packedVarints(_ bytes: [UInt8]) throws -> [UInt64] {
        var values: [UInt64] = [], index = 0
        while index < bytes.count {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard index < bytes.count, shift < 64 else { throw Malformed() }
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            values.append(result)
        }
        return values
    }
}
