/// Trimming text at both ends, by characters (Swift's own Unicode properties).
extension StringProtocol {
    /// Without the leading and trailing characters `drop` accepts.
    public func trimming(while drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }

    /// Without leading and trailing spaces and tabs (any Unicode space); line breaks stay.
    public func trimmingSpaces() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// `camelCase` as `camel_case` (a name as metrics count it).
    public var snakeCased: String {
        var text = ""
        for character in self {
            if character.isUppercase, !text.isEmpty { text.append("_") }
            text.append(Character(character.lowercased()))
        }
        return text
    }
}

extension String {
    /// `self` with every occurrence of `target` replaced by `replacement`, matched on UTF-8
    /// bytes (so "\n" is found inside "\r\n", which is one Swift character).
    public func replacingText(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return self }
        var out: [UInt8] = []
        var replaced = false
        var copy = self
        copy.withUTF8 { bytes in
            var index = 0, plainStart = 0
            while index + needle.count <= bytes.count {
                if bytes[index] == first, needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) {
                    out += UnsafeBufferPointer(rebasing: bytes[plainStart..<index])
                    out += replacement.utf8
                    index += needle.count
                    plainStart = index
                    replaced = true
                } else {
                    index += 1
                }
            }
            if replaced { out += UnsafeBufferPointer(rebasing: bytes[plainStart...]) }
        }
        return replaced ? String(decoding: out, as: UTF8.self) : self
    }
}
