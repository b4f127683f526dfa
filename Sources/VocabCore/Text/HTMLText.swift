/// Text from the HTML that Anki keeps in its fields: line breaks kept (`<br>`, and either side
/// of a `<div>`, `<p>` or `<li>`), other tags dropped, entities decoded, `[sound:…]` references
/// removed (and counted: Vocab keeps no audio), cloze markers `{{c1::answer::hint}}` reduced to
/// their answer.
public enum HTMLText {
    /// The plain text of `html`, and how many `[sound:…]` references it dropped.
    public static func plain(_ html: String) -> (text: String, droppedSounds: Int) {
        var (text, sounds) = withoutSounds(html)
        text = unwrapCloze(text)
        guard text.utf8.contains(UInt8(ascii: "<")) || text.utf8.contains(UInt8(ascii: "&")) else { return (tidy(text), sounds) }
        // Byte by byte: every marker is ASCII, and no byte of a multi-byte UTF-8 character is.
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) {
                let name = bytes[(index + 1)..<close].drop { $0 == UInt8(ascii: "/") }.prefix { isASCIILetterOrDigit($0) }
                    .map { $0 | 0x20 }[...]
                let closing = bytes[index + 1..<close].first == UInt8(ascii: "/")
                let block = blockTags.contains(name)
                // A block starts and ends a line (Anki's editor puts each new line in a <div>).
                if name.elementsEqual("br".utf8) || (block && (closing || !(out.isEmpty || out.last == UInt8(ascii: "\n")))) {
                    out.append(UInt8(ascii: "\n"))
                }
                index = close + 1
                continue
            }
            if byte == UInt8(ascii: "&"), let semicolon = bytes[index..<min(index + 12, bytes.count)].firstIndex(of: UInt8(ascii: ";")),
               let decoded = entity(String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)) {
                out += decoded.utf8
                index = semicolon + 1
                continue
            }
            out.append(byte)
            index += 1
        }
        return (tidy(String(decoding: out, as: UTF8.self)), sounds)
    }

    /// Tags that start and end a line, as lower-case bytes.
    private static let blockTags: Set<ArraySlice<UInt8>> = Set(["div", "p", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6"]
        .map { Array($0.utf8)[...] })

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `{{c1::answer}}` and `{{c1::answer::hint}}` → `answer`.
    public static func unwrapCloze(_ text: String) -> String {
        guard mayHold(text, "{{c") else { return text }
        var out = ""
        scanCloze(text, text: { out += $0 }, deletion: { answer, _ in out += answer })
        return out
    }

    /// The cloze deletions of `text` in order: each one's answer and hint (nil when it has none),
    /// as written (HTML left in).
    public static func clozeDeletions(_ text: String) -> [(answer: String, hint: String?)] {
        guard mayHold(text, "{{c") else { return [] }
        var deletions: [(answer: String, hint: String?)] = []
        scanCloze(text, text: { _ in }, deletion: { deletions.append((String($0), $1.map(String.init))) })
        return deletions
    }

    /// Walks `text`, handing plain runs to `text` and each `{{cN::answer::hint}}` to `deletion`.
    private static func scanCloze(_ whole: String, text: (Substring) -> Void, deletion: (Substring, Substring?) -> Void) {
        var rest = Substring(whole)
        while let open = rest.firstRange(of: "{{c") {
            text(rest[..<open.lowerBound])
            let afterOpen = rest[open.upperBound...]
            guard let marker = afterOpen.firstRange(of: "::"), marker.lowerBound > afterOpen.startIndex,
                  afterOpen[..<marker.lowerBound].allSatisfy(\.isNumber),
                  let end = afterOpen.firstRange(of: "}}"), marker.upperBound <= end.lowerBound else {
                text(rest[open])
                rest = rest[open.upperBound...]
                continue
            }
            let body = afterOpen[marker.upperBound..<end.lowerBound]
            if let hint = body.firstRange(of: "::") {
                deletion(body[..<hint.lowerBound], body[hint.upperBound...])
            } else {
                deletion(body, nil)
            }
            rest = afterOpen[end.upperBound...]
        }
        text(rest)
    }

    /// Whether `text` contains `marker`, looking for its first byte before searching for it
    /// (most fields hold neither markup nor markers).
    private static func mayHold(_ text: String, _ marker: String) -> Bool {
        guard let first = marker.utf8.first, text.utf8.contains(first) else { return false }
        return text.contains(marker)
    }

    private static func withoutSounds(_ text: String) -> (String, Int) {
        guard mayHold(text, "[sound:") else { return (text, 0) }
        var out = ""
        var count = 0
        var rest = Substring(text)
        while let open = rest.firstRange(of: "[sound:"), let close = rest[open.upperBound...].firstIndex(of: "]") {
            out += rest[..<open.lowerBound]
            rest = rest[rest.index(after: close)...]
            count += 1
        }
        return (out + rest, count)
    }

    private static func entity(_ name: String) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            let number: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                number = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                number = UInt32(name.dropFirst())
            } else {
                number = nil
            }
            return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }

    /// Each line trimmed of spaces and tabs (and a carriage return before its line feed),
    /// runs of empty lines made one, none at either end. On bytes: every one of these is ASCII.
    private static func tidy(_ text: String) -> String {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var lines = 0, lastWasEmpty = false
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var trimmed = line[...]
            while let last = trimmed.last, last == space || last == tab || last == carriageReturn { trimmed = trimmed.dropLast() }
            while let first = trimmed.first, first == space || first == tab { trimmed = trimmed.dropFirst() }
            if trimmed.isEmpty && (lines == 0 || lastWasEmpty) { continue }
            if lines > 0 { out.append(UInt8(ascii: "\n")) }
            out += trimmed
            lines += 1
            lastWasEmpty = trimmed.isEmpty
        }
        if lastWasEmpty, out.last == UInt8(ascii: "\n") { out.removeLast() }  // at most one empty line can end it
        return String(decoding: out, as: UTF8.self)
    }
}
