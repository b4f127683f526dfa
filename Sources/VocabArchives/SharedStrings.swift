/// A workbook's shared strings, kept compactly (their UTF-8 one after another, and where each
/// ends) within a budget of bytes: a string costs its bytes and four more, so a table of tens
/// of millions of empty strings (a few megabytes zipped) is refused at the budget instead of
/// taking gigabytes as an array of strings would.
struct SharedStrings {
    /// The most the table may take: far more than any word list's strings.
    static let budget = 64 << 20

    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []

    var count: Int { ends.count }

    /// Adds `text`; false (and nothing added) when the table would pass its budget.
    mutating func append(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard bytes.count + utf8.count + 4 * (ends.count + 1) <= Self.budget else { return false }
        bytes.append(contentsOf: utf8)
        ends.append(UInt32(bytes.count))
        return true
    }

    /// The string at `index`, nil past the end.
    subscript(index: Int) -> String? {
        guard index >= 0, index < ends.count else { return nil }
        let start = index == 0 ? 0 : Int(ends[index - 1]), end = Int(ends[index])
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
