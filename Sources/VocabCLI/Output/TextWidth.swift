/// Terminal column widths of text: wide (Hangul, CJK, full-width) characters take two
/// columns, combining marks none.
enum TextWidth {
    /// Columns a terminal gives `text`: East Asian wide characters take two, marks none.
    static func columns(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 {
            if byte >= 0x80 { return text.unicodeScalars.reduce(0) { $0 + columns($1) } }
            if byte >= 0x20 { count += 1 }
        }
        return count
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1 }  // before any mark
        if value >= 0xAC00 && value <= 0xD7A3 { return 2 }  // Hangul syllables, the common case
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// `text` on one line, cut to at most `width` columns with "…" when cut.
    static func fit(_ text: String, width: Int) -> String {
        let hasBreak = text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C || $0 >= 0x80 }
            && text.contains(where: \.isNewline)
        let oneLine = hasBreak ? text.split(whereSeparator: \.isNewline).joined(separator: " ") : text
        guard columns(oneLine) > width else { return oneLine }
        var result = ""
        var used = 0
        for character in oneLine {
            let size = character.unicodeScalars.reduce(0) { $0 + columns($1) }
            if used + size > width - 1 { break }
            result.append(character)
            used += size
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns.
    static func pad(_ text: String, to width: Int) -> String {
        let size = columns(text)
        return size >= width ? text : text + String(repeating: " ", count: width - size)
    }
}

/// A plain text table with aligned columns; the last column is not padded.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Column widths seen so far by `widen` (for tables printed row by row).
    private var widths: [Int] = []

    init(header: [String]) {
        self.header = header
        widths = header.map { TextWidth.columns($0) }
    }

    /// Makes the columns wide enough for `row` (without keeping it).
    mutating func widen(for row: [String]) {
        for (column, cell) in row.enumerated() where column < widths.count {
            widths[column] = max(widths[column], TextWidth.columns(cell))
        }
    }

    /// One line of a table printed row by row, after every row was given to `widen`.
    func line(_ row: [String]) -> String {
        row.indices.map { column in
            column == row.count - 1 ? row[column] : TextWidth.pad(row[column], to: widths[column])
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }

    func render() -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { TextWidth.columns($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : TextWidth.pad(row[column], to: widths[column])
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
