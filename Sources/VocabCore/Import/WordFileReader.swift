import FoundationEssentials

/// The file formats words move in and out by. `text` is a `.txt` list: Anki's plain-text
/// export (its `#key:value` lines say how to read it) or a list of terms and definitions such
/// as Quizlet exports (tab-separated unless `--separator` says otherwise).
public enum WordFileFormat: String, CaseIterable, Sendable {
    case csv, tsv, jsonl, text
    /// An Excel workbook (read only; VocabArchives reads its rows).
    case xlsx
    /// An Anki package, `.apkg` or `.colpkg` (VocabAnki reads and writes it).
    case apkg

    /// The format a file name's extension implies, if any.
    public init?(fileName: String) {
        switch FilePath.fileExtension(of: fileName).lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "jsonl", "ndjson": self = .jsonl
        case "txt": self = .text
        case "xlsx": self = .xlsx
        case "apkg", "colpkg": self = .apkg
        default: return nil
        }
    }
}

/// How to read a file whose own header does not say it all.
public struct ImportLayout: Equatable, Sendable {
    /// The columns of a file without a header row (`--columns word,definition`).
    public var columns: [ImportColumn]?
    /// Between fields and between rows, one or more characters each (`--separator`,
    /// `--row-separator`); quoting as in CSV.
    public var separator: String?
    public var rowSeparator: String?
    /// Whether an Anki deck column picks each word's book (not when the user named a book).
    public var deckPicksBook: Bool
    /// The sheet of a workbook to read (`--sheet`; default the first).
    public var sheet: String?
    /// Anki fields by name and the word field each fills (`--field NAME=target`).
    public var ankiFields: [String: WordField] = [:]

    public init(columns: [ImportColumn]? = nil, separator: String? = nil, rowSeparator: String? = nil,
                deckPicksBook: Bool = true, sheet: String? = nil) {
        self.columns = columns
        self.separator = separator
        self.rowSeparator = rowSeparator
        self.deckPicksBook = deckPicksBook
        self.sheet = sheet
    }
}

/// A source of delimited records: CSV/TSV, text with any separators, a sheet's rows.
public protocol RecordReader {
    /// The next non-blank record with the line (or sheet row) it starts on, or nil at the end.
    mutating func nextRecord() throws -> (line: Int, fields: [String])?
}

/// Reads import rows from any of the formats: a header maps columns for CSV, TSV and text (or
/// `--columns` names them, or a first row that names no column is read as word and
/// definition); Anki's text exports map theirs by their `#` lines; JSON Lines objects use the
/// field names directly.
public struct WordFileReader {
    private enum Source {
        case records(any RecordReader)
        case jsonLines(JSONLinesReader)
    }

    private var source: Source
    private var columns: [ImportColumn?] = []
    private var headerCount = 0
    /// Rows may be shorter than the header (missing fields are empty): Anki pads its rows to the
    /// note type with the most fields, lists typed by hand leave empty definitions off.
    private var shortRowsAllowed = false
    /// A first record that turned out to be data (no header).
    private var pending: (line: Int, fields: [String])?
    private var anki: AnkiTextHeader?
    /// The Anki columns that hold no note field (guid, note type, deck, tags), 1-based.
    private var ankiSpecialColumns: Set<Int> = []
    private let deckPicksBook: Bool
    /// Columns the file has that Vocab does not know (reported, not silently dropped).
    public private(set) var unknownColumns: [String] = []
    /// What the reader decided about the file that the summary should say.
    public private(set) var notes: [String] = []
    /// `[sound:…]` references dropped from Anki fields so far.
    public private(set) var droppedSounds = 0

    /// Reads the header (for CSV, TSV and text) at once; throws when the file cannot be read
    /// as a word list.
    public init(_ stream: any ByteStream, format: WordFileFormat, layout: ImportLayout = ImportLayout()) throws {
        deckPicksBook = layout.deckPicksBook
        switch format {
        case .jsonl:
            source = .jsonLines(JSONLinesReader(stream))
            return
        case .csv, .tsv:
            if layout.separator != nil || layout.rowSeparator != nil {
                source = .records(SeparatedTextReader(stream, fieldSeparator: layout.separator ?? (format == .csv ? "," : "\t"),
                                                      rowSeparator: layout.rowSeparator ?? "\n"))
            } else {
                source = .records(DelimitedReader(stream, dialect: format == .csv ? .csv : .tsv))
            }
        case .xlsx, .apkg:
            throw ImportError.unknownFormat("an .xlsx workbook or Anki package from standard input (give its file name)")
        case .text:
            let (header, rest, firstLine) = try AnkiTextHeader.read(from: stream)
            let separator = layout.separator ?? header.separator ?? Self.guessSeparator(firstLine)
            source = .records(SeparatedTextReader(rest, fieldSeparator: separator, rowSeparator: layout.rowSeparator ?? "\n"))
            shortRowsAllowed = true
            if !header.isEmpty {
                anki = header
                try readAnkiColumns(header, layout: layout)
                return
            }
        }
        try readHeader(layout: layout)
    }

    /// Reads rows from `records` (a workbook's sheet) as from a CSV file: a header row, or
    /// `--columns`, or a first row naming no column read as word and definition.
    public init(records: any RecordReader, layout: ImportLayout = ImportLayout()) throws {
        deckPicksBook = layout.deckPicksBook
        source = .records(records)
        shortRowsAllowed = true  // a sheet's rows end at their last cell with a value
        try readHeader(layout: layout)
    }

    /// Quizlet's default is a tab between term and definition; a line with no tab but a comma
    /// is comma-separated.
    private static func guessSeparator(_ line: String?) -> String {
        guard let line, !line.contains("\t"), line.contains(",") else { return "\t" }
        return ","
    }

    private mutating func nextRecord() throws -> (line: Int, fields: [String])? {
        if let first = pending {
            pending = nil
            return first
        }
        guard case .records(var reader) = source else { return nil }
        defer { source = .records(reader) }
        return try reader.nextRecord()
    }

    /// The header row, `--columns`, or no header at all.
    private mutating func readHeader(layout: ImportLayout) throws {
        if let given = layout.columns {
            try use(given.map { Optional($0) }, names: given.map(\.rawValue), line: 1)
            return
        }
        guard let header = try nextRecord() else { throw ImportError.emptyFile }
        let named = header.fields.map { ImportColumn(header: $0) }
        guard named.allSatisfy({ $0 == nil }) else {
            guard named.contains(.word) else { throw ImportError.missingHeader(found: header.fields) }
            try use(named, names: header.fields, line: header.line)
            return
        }
        // A first row that names no column: data, in the order word, definition, if that is
        // all it can be.
        guard header.fields.count <= 2 else { throw ImportError.noHeader(fields: header.fields.count) }
        let order: [ImportColumn] = header.fields.count == 1 ? [.word] : [.word, .definition]
        try use(order.map { Optional($0) }, names: order.map(\.rawValue), line: header.line)
        shortRowsAllowed = true
        pending = header
        notes.append("The file has no header row: its columns were read as \(order.map(\.rawValue).joined(separator: ", ")).")
    }

    private mutating func use(_ named: [ImportColumn?], names: [String], line: Int) throws {
        columns = named
        headerCount = named.count
        unknownColumns = zip(names, named).filter { $0.1 == nil }.map { $0.0 }
        let known = named.compactMap { $0 }
        if let repeated = known.first(where: { column in known.filter { $0 == column }.count > 1 }) {
            throw ImportError.invalidLine(line: line, reason: "the header names \"\(repeated.rawValue)\" twice")
        }
    }

    /// Anki's columns: the guid, note type, deck and tags columns its `#` lines name, and the
    /// note's fields in the others — by `#columns:` names where given, else in order as word,
    /// definition and detail (a fourth field or more goes to detail too).
    private mutating func readAnkiColumns(_ header: AnkiTextHeader, layout: ImportLayout) throws {
        let special = Set([header.guidColumn, header.notetypeColumn, header.deckColumn, header.tagsColumn].compactMap { $0 })
        ankiSpecialColumns = special
        if let given = layout.columns {
            columns = given.map { Optional($0) }
            headerCount = given.count
            return
        }
        if let names = header.columnNames {
            columns = names.enumerated().map { special.contains($0.offset + 1) ? nil : ImportColumn(header: $0.element) }
            unknownColumns = names.enumerated().filter { !special.contains($0.offset + 1) && ImportColumn(header: $0.element) == nil }.map(\.element)
            headerCount = names.count
        } else {
            headerCount = 0  // as many as each row has
        }
        if !header.ignoredKeys.isEmpty { notes.append("Anki header lines not used: \(header.ignoredKeys.map { "#\($0)" }.joined(separator: ", ")).") }
        if header.columnNames == nil { notes.append("Anki fields were read in order as word, definition, then detail.") }
    }

    /// The next row, or nil at the end. A malformed row throws `ImportError.invalidLine`;
    /// reading may go on after it.
    public mutating func nextRow() throws -> ImportRow? {
        if case .jsonLines(var reader) = source {
            defer { source = .jsonLines(reader) }
            guard let row = try reader.nextRow() else { return nil }
            for key in reader.newUnknownKeys where !unknownColumns.contains(key) { unknownColumns.append(key) }
            return row
        }
        guard let record = try nextRecord() else { return nil }
        if let anki { return try ankiRow(record, header: anki) }
        guard record.fields.count == headerCount || (shortRowsAllowed && record.fields.count < headerCount) else {
            throw ImportError.invalidLine(line: record.line,
                reason: "it has \(record.fields.count) fields but the header has \(headerCount)")
        }
        var values = ImportValues()
        for (column, field) in zip(columns, record.fields) {
            if let column { values[column] = field }
        }
        return ImportRow(line: record.line, values: values)
    }

    private mutating func ankiRow(_ record: (line: Int, fields: [String]), header: AnkiTextHeader) throws -> ImportRow {
        if headerCount > 0 && record.fields.count > headerCount {
            throw ImportError.invalidLine(line: record.line, reason: "it has \(record.fields.count) fields but #columns names \(headerCount)")
        }
        func column(_ number: Int?) -> String? {
            guard let number, number >= 1, number <= record.fields.count else { return nil }
            return record.fields[number - 1]
        }
        let special = ankiSpecialColumns
        var values = ImportValues()
        var order: [ImportColumn] = [.word, .definition, .detail]
        for (offset, raw) in record.fields.enumerated() where !special.contains(offset + 1) {
            let target: ImportColumn?
            if headerCount > 0 { target = offset < columns.count ? columns[offset] : nil } else { target = order.isEmpty ? .detail : order.removeFirst() }
            guard let target else { continue }
            // Anki fields may hold tabs; a word may not (control characters), and a tab shows as a space.
            var text = raw.contains("\t") ? raw.replacingText("\t", with: " ") : raw
            if header.html {
                let plain = HTMLText.plain(text)
                text = plain.text
                droppedSounds += plain.droppedSounds
            } else {
                text = HTMLText.unwrapCloze(text)
            }
            if text.isEmpty { continue }
            values[target] = values[target].map { $0 + "\n" + text } ?? text
        }
        if let guid = column(header.guidColumn), !guid.isEmpty {
            // Vocab's own notes.txt carries word ids as guids: they stay the ids.
            values[.id] = (UUID(text: guid) ?? UUID.derived(fromAnkiGUID: guid)).lowercaseText
        }
        if deckPicksBook, let deck = column(header.deckColumn) ?? header.deck, !deck.isEmpty { values[.book] = deck }
        let tags = header.tags + (column(header.tagsColumn).map { $0.split(separator: " ").map(String.init) } ?? [])
        if !tags.isEmpty {
            let line = "tags: " + tags.joined(separator: " ")
            values[.detail] = values[.detail].map { $0 + "\n" + line } ?? line
        }
        guard values[.word] != nil else {
            throw ImportError.invalidLine(line: record.line, reason: "the note has no text for the word (its first field is empty)")
        }
        return ImportRow(line: record.line, values: values)
    }
}

extension UUID {
    /// The word id an Anki note's guid stands for: the same guid gives the same id on every
    /// import and every device, so importing a deck again updates its words. (Two 64-bit FNV-1a
    /// hashes of the guid, marked as a version 8, variant 1 UUID.)
    public static func derived(fromAnkiGUID guid: String) -> UUID {
        hashed("anki-guid:\(guid)")
    }

    /// The review id an Anki review log entry stands for: the same note and entry give the same
    /// id on every import (so a second import adds no review twice), the id every Vocab since
    /// the first with Anki packages gave it: that of the guid "<note guid>#revlog:<entry id>".
    public static func derived(fromAnkiReview revlogId: Int64, noteGUID guid: String) -> UUID {
        var hashes = FNVPair()
        hashes.add("anki-guid:".utf8)
        hashes.add(guid.utf8)
        hashes.add("#revlog:".utf8)
        hashes.add(String(revlogId).utf8)
        return hashes.uuid
    }

    /// Two 64-bit FNV-1a hashes of `key`, marked as a version 8, variant 1 UUID.
    private static func hashed(_ key: String) -> UUID {
        var hashes = FNVPair()
        hashes.add(key.utf8)
        return hashes.uuid
    }
}

/// Two 64-bit FNV-1a hashes (differently seeded) of bytes fed in pieces, as a UUID.
private struct FNVPair {
    private var high: UInt64 = 0xcbf2_9ce4_8422_2325
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325 ^ 0x9E37_79B9_7F4A_7C15

    mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    /// Marked as a version 8, variant 1 UUID.
    var uuid: UUID {
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                           (byte(high, 6) & 0x0F) | 0x80, byte(high, 7),
                           (byte(low, 0) & 0x3F) | 0x80, byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5),
                           byte(low, 6), byte(low, 7)))
    }
}

/// JSON Lines: one object per line with the field names of DESIGN.md §9.
struct JSONLinesReader {
    private var lines: LineReader
    private(set) var newUnknownKeys: [String] = []

    init(_ stream: any ByteStream) { lines = LineReader(stream) }

    mutating func nextRow() throws -> ImportRow? {
        newUnknownKeys = []
        while let (number, bytes) = try lines.nextLine() {
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let parsed = try? JSONParser.parse(bytes), case .object(let members) = parsed else {
                throw ImportError.invalidLine(line: number, reason: "it is not a JSON object")
            }
            var values = ImportValues()
            for (key, value) in members {
                guard let column = ImportColumn(header: key) else {
                    if !["type", "imageType", "imageBytes", "wordCount", "memorizedCount"].contains(key) { newUnknownKeys.append(key) }
                    continue
                }
                switch value {
                case .string(let text): values[column] = text
                case .bool(let flag) where column == .memorized: values[column] = flag ? "true" : "false"
                case .null: continue
                case .int(let number): values[column] = String(number)
                case .double(let number):
                    values[column] = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                default:
                    throw ImportError.invalidLine(line: number, reason: "\"\(key)\" must be text")
                }
            }
            guard values[.word] != nil else {
                throw ImportError.invalidLine(line: number, reason: "the object has no \"word\"")
            }
            return ImportRow(line: number, values: values)
        }
        return nil
    }
}

/// Splits a byte stream into lines (LF or CRLF), numbering them from 1.
struct LineReader {
    private var stream: BOMSkippingStream
    private var pending: [UInt8] = []
    private var chunk: [UInt8] = []
    private var index = 0
    private var number = 0
    private var finished = false

    init(_ stream: any ByteStream) { self.stream = BOMSkippingStream(stream) }

    mutating func nextLine() throws -> (Int, [UInt8])? {
        pending.removeAll(keepingCapacity: true)
        while true {
            if index == chunk.count {
                guard !finished, let next = try stream.nextChunk() else {
                    finished = true
                    if pending.isEmpty { return nil }
                    number += 1
                    return (number, pending)
                }
                chunk = next
                index = 0
                continue
            }
            if let end = chunk[index...].firstIndex(of: 0x0A) {
                pending.append(contentsOf: chunk[index..<end])
                index = end + 1
                if pending.last == 0x0D { pending.removeLast() }
                number += 1
                return (number, pending)
            }
            pending.append(contentsOf: chunk[index...])
            index = chunk.count
            if pending.count > DelimitedReader.maxRecordBytes {
                throw ImportError.recordTooLong(line: number + 1, limit: DelimitedReader.maxRecordBytes)
            }
        }
    }
}
