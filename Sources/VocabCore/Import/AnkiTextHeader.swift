import FoundationEssentials

/// The `#key:value` lines at the top of a text file Anki exported ("Notes in Plain Text" or
/// "Cards in Plain Text"): the separator, whether fields hold HTML, the column names, and which
/// columns hold each note's guid, note type, deck and tags (1-based, as Anki writes them).
public struct AnkiTextHeader: Equatable, Sendable {
    public var separator: String?
    public var html = false
    public var columnNames: [String]?
    public var guidColumn: Int?
    public var notetypeColumn: Int?
    public var deckColumn: Int?
    public var tagsColumn: Int?
    /// `#deck:NAME` / `#notetype:NAME`: one for every row.
    public var deck: String?
    public var notetype: String?
    /// `#tags:a b`: tags for every note.
    public var tags: [String] = []
    /// Keys Vocab does not use, as written (reported, not silently dropped).
    public var ignoredKeys: [String] = []

    public init() {}

    /// Whether any header line was read.
    public var isEmpty: Bool { self == AnkiTextHeader() }

    /// Reads the header lines at the start of `stream` (lines of the form `#key:value`, at most
    /// 64 KiB of them); returns the header, a stream that starts after it, and the first line
    /// after it (to guess a separator from).
    public static func read(from stream: any ByteStream) throws -> (AnkiTextHeader, any ByteStream, String?) {
        var source = BOMSkippingStream(stream)
        var bytes: [UInt8] = []
        var header = AnkiTextHeader()
        var offset = 0
        while true {
            if let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: bytes[offset..<newline], as: UTF8.self)
                guard header.apply(line) else { break }
                offset = newline + 1
                continue
            }
            guard bytes.count - offset < 65_536, let chunk = try source.nextChunk() else {
                if offset < bytes.count, header.apply(String(decoding: bytes[offset...], as: UTF8.self)) { offset = bytes.count }
                break
            }
            bytes += chunk
        }
        let rest = bytes[offset...]
        let firstLine = rest.isEmpty ? nil : String(decoding: rest.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return (header, PrefixedStream(prefix: Array(rest), rest: source), firstLine)
    }

    /// Takes one header line; false when the line is not one (the data starts there).
    mutating func apply(_ rawLine: String) -> Bool {
        var line = Substring(rawLine)
        if line.last == "\r" { line = line.dropLast() }
        guard line.first == "#", let colon = line.firstIndex(of: ":") else { return false }
        let key = line[line.index(after: line.startIndex)..<colon].lowercased()
        let value = String(line[line.index(after: colon)...])
        guard key.allSatisfy({ $0.isLetter || $0 == " " }), !key.isEmpty else { return false }
        switch key {
        case "separator": separator = Self.separator(named: value)
        case "html": html = value.lowercased() == "true"
        case "columns": columnNames = value.isEmpty ? [] : value.components(separatedBy: separator ?? "\t")
        case "guid column": guidColumn = Int(value)
        case "notetype column": notetypeColumn = Int(value)
        case "deck column": deckColumn = Int(value)
        case "tags column": tagsColumn = Int(value)
        case "deck": deck = value
        case "notetype": notetype = value
        case "tags": tags = value.split(separator: " ").map(String.init)
        default: ignoredKeys.append(key)
        }
        return true
    }

    /// Anki's names for separators, or the character itself.
    static func separator(named name: String) -> String {
        switch name.lowercased() {
        case "tab", "\t": return "\t"
        case "comma": return ","
        case "semicolon": return ";"
        case "space": return " "
        case "pipe": return "|"
        case "colon": return ":"
        default: return name
        }
    }
}

/// Bytes already read, then the rest of a stream.
struct PrefixedStream: ByteStream {
    private var prefix: [UInt8]?
    private var rest: any ByteStream

    init(prefix: [UInt8], rest: any ByteStream) {
        self.prefix = prefix.isEmpty ? nil : prefix
        self.rest = rest
    }

    mutating func nextChunk() throws -> [UInt8]? {
        if let prefix {
            self.prefix = nil
            return prefix
        }
        return try rest.nextChunk()
    }
}
