/// A push batch (the JSON array `[{"k","i","d","b"}, …]` a device sends) as `vocab.push_lines`
/// reads it: each record's JSON on a line of its own, so that the cloud parses record by
/// record as they go in. A newline between tokens is only whitespace and becomes a space; a
/// record is copied byte for byte otherwise (its strings untouched).
enum PushLines {
    /// The lines, or nil when `batch` is not an array of objects whose strings hold no raw
    /// control character (the caller then sends the batch as it is, and the cloud says what
    /// is wrong with it).
    static func lines(fromBatch batch: String) -> String? {
        var bytes = Array(batch.utf8)
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return nil }  // nothing to store: the usual path says so
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
            // One object, to its matching brace.
            var depth = 0, inString = false
            repeat {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                if inString {
                    if byte < 0x20 { return nil }  // a raw control character: not JSON
                    if byte == UInt8(ascii: "\\") {
                        guard index + 1 < bytes.count else { return nil }
                        output.append(byte)
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    case 0x0A, 0x0D: bytes[index] = 0x20  // whitespace between tokens
                    default: break
                    }
                }
                output.append(bytes[index])
                index += 1
            } while depth > 0 || inString
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                output.append(0x0A)
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                skipSpace()
                return index == bytes.count ? String(decoding: output, as: UTF8.self) : nil
            } else {
                return nil
            }
        }
    }
}
