/// Writes one compact JSON object member by member, straight to UTF-8, with no value tree in
/// between: for records made by the thousand (sync bodies). Output is what `JSONValue.compact`
/// writes for the same members in the same order.
public struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        begin(key)
        JSONValue.writeString(value, to: &bytes)
    }

    public mutating func add(_ key: String, _ value: Int64) {
        begin(key)
        bytes += String(value).utf8
    }

    public mutating func add(_ key: String, _ value: Bool) {
        begin(key)
        bytes += (value ? "true" : "false").utf8
    }

    public mutating func addNull(_ key: String) {
        begin(key)
        bytes += "null".utf8
    }

    /// A member whose value is another object.
    public mutating func add(_ key: String, _ object: JSONObjectWriter) {
        begin(key)
        bytes += object.finishedBytes
    }

    /// A member whose value is the pair `[number, "text"]`.
    public mutating func addPair(_ key: String, _ number: Int64, _ text: String) {
        addPair(key, JSONObjectWriter.pair(number, text))
    }

    /// A member whose value is a pair made once by `pair(_:_:)` (for a value repeated often).
    public mutating func addPair(_ key: String, _ pair: [UInt8]) {
        begin(key)
        bytes += pair
    }

    /// The JSON text `[number, "text"]`, for `addPair(_:_:)`.
    public static func pair(_ number: Int64, _ text: String) -> [UInt8] {
        var pair: [UInt8] = [UInt8(ascii: "[")]
        pair += String(number).utf8
        pair.append(UInt8(ascii: ","))
        JSONValue.writeString(text, to: &pair)
        pair.append(UInt8(ascii: "]"))
        return pair
    }

    /// The object's text.
    public var text: String { String(decoding: finishedBytes, as: UTF8.self) }

    private var finishedBytes: [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func begin(_ key: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSONValue.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
