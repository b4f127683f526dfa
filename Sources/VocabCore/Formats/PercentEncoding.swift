/// `%XX` escapes of URLs (RFC 3986).
public enum PercentEncoding {
    /// `text` with each `%XX` turned back into its byte; nil when an escape is malformed or
    /// the bytes are not UTF-8.
    public static func decode(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else { out.append(byte); continue }
            guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else { return nil }
            out.append(high << 4 | low)
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `text` as UTF-8 with every byte but ASCII letters and digits written `%XX`.
    public static func encodeAllButAlphanumerics(_ text: String) -> String {
        encode(text, alsoKeeping: { _ in false })
    }

    /// `text` as UTF-8 with every byte outside RFC 3986's unreserved set (letters, digits,
    /// `-`, `.`, `_`, `~`) written `%XX`.
    public static func encodeAllButUnreserved(_ text: String) -> String {
        encode(text, alsoKeeping: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "~") })
    }

    /// `text` as UTF-8, ASCII letters and digits and the bytes `alsoKept` accepts as they are,
    /// every other byte written `%XX` (upper-case hex).
    private static func encode(_ text: String, alsoKeeping alsoKept: (UInt8) -> Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            let alphanumeric = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if alphanumeric || alsoKept(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
