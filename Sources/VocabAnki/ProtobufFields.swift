/// The top-level fields of a protobuf message: enough for the few small messages in an Anki
/// package (its `meta`, its media list, a deck's kind, a note type's config). Unknown wire types
/// and truncated input throw; nothing is read past the end.
struct ProtobufFields {
    enum Value: Equatable {
        case varint(UInt64)
        case bytes([UInt8])
    }

    private(set) var fields: [(number: Int, value: Value)] = []

    struct Malformed: Error {}

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
}
