/// The field names a `Decodable` type reads, found by decoding it from a decoder that has
/// every key (an empty text, 0, false; one element in a list) and writes down each key asked
/// for: the names as the API's JSON spells them, at every depth ("card", "card.word", …).
enum FieldNames {
    static func of(_ type: any Decodable.Type) -> Set<String> {
        let recorder = Recorder(path: [])
        _ = try? type.init(from: recorder)
        return recorder.names.value
    }

    /// The names shared by every part of the recorder.
    final class Names { var value: Set<String> = [] }

    struct Recorder: Decoder {
        var path: [String]
        var names = Names()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func nested(_ key: String?) -> Recorder {
            var next = self
            if let key {
                next.path.append(key)
                names.value.insert(next.path.joined(separator: "."))
            }
            return next
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed(recorder: self))
        }

        func unkeyedContainer() -> any UnkeyedDecodingContainer { Unkeyed(recorder: self) }
        func singleValueContainer() -> any SingleValueDecodingContainer { Single(recorder: self) }
    }

    /// A value of a type that is no container (a text, a number, a flag).
    static func plain<T: Decodable>(_ type: T.Type, _ recorder: Recorder) throws -> T {
        for candidate: Any in ["", false, 0, Int64(0), 0.0] {
            if let value = candidate as? T { return value }
        }
        return try T(from: recorder)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { _ = recorder.nested(key.stringValue); return false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try plain(type, recorder.nested(key.stringValue)) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            recorder.nested(key.stringValue).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { Unkeyed(recorder: recorder.nested(key.stringValue)) }
        func superDecoder() throws -> any Decoder { recorder }
        func superDecoder(forKey key: Key) throws -> any Decoder { recorder.nested(key.stringValue) }
    }

    /// A list of one element.
    struct Unkeyed: UnkeyedDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex > 0 }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try plain(type, recorder)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return recorder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return Unkeyed(recorder: recorder)
        }
        mutating func superDecoder() throws -> any Decoder { recorder }
    }

    struct Single: SingleValueDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try plain(type, recorder) }
    }
}
