/// A pull's answer on the wire, written and read here only: a record a line, kind TAB id TAB
/// seq TAB deleted ("t"/"f") TAB body (a body is compact JSON: it holds no raw tab or newline).
/// A follower's changes of several books put each row's share first, and a tab.
public enum PullLines {
    public static let contentType = "text/tab-separated-values; charset=utf-8"

    /// `rows` as lines; `shares`: each row's share, first on its line.
    public static func encode(_ rows: [PulledRow], shares: [String]? = nil) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(rows.reduce(0) { $0 + $1.body.utf8.count + 64 })
        for (index, row) in rows.enumerated() {
            if let shares {
                body += shares[index].utf8
                body.append(9)
            }
            body += row.kind.utf8
            body.append(9)
            body += row.id.utf8
            body.append(9)
            body += String(row.seq).utf8
            body.append(9)
            body.append(row.deleted ? UInt8(ascii: "t") : UInt8(ascii: "f"))
            body.append(9)
            body += row.body.utf8
            body.append(10)
        }
        return body
    }

    /// The records of a pull's answer; nil when a line is not one.
    public static func decode(_ bytes: [UInt8]) -> [PulledRow]? {
        var rows: [PulledRow] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let row = record(line) else { return nil }
            rows.append(row)
        }
        return rows
    }

    /// The records of a follower's changes, each with its share; nil when a line is not one.
    public static func decodeWithShares(_ bytes: [UInt8]) -> [(share: String, row: PulledRow)]? {
        var rows: [(share: String, row: PulledRow)] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let tab = line.firstIndex(of: 9), let row = record(line[line.index(after: tab)...]) else { return nil }
            rows.append((String(decoding: line[line.startIndex..<tab], as: UTF8.self), row))
        }
        return rows
    }

    private static func record(_ line: ArraySlice<UInt8>) -> PulledRow? {
        let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let seq = Int64(String(decoding: fields[2], as: UTF8.self)) else { return nil }
        return PulledRow(kind: String(decoding: fields[0], as: UTF8.self), id: String(decoding: fields[1], as: UTF8.self),
                         seq: seq, deleted: fields[3].first == UInt8(ascii: "t"), body: String(decoding: fields[4], as: UTF8.self))
    }
}
