import FoundationEssentials
import VocabCore

/// The rows of one sheet of an Office Open XML workbook (`.xlsx`), read-only and streamed: the
/// workbook's list of sheets, the shared strings and the date formats are read first (small);
/// the sheet's XML is then read row by row. Cells come out as text: shared and inline strings
/// as they are, numbers without a needless ".0", dates (by their cell style) as ISO dates,
/// booleans as true/false; empty and merged-away cells are empty fields.
public final class XLSXSheet: RecordReader {
    /// The sheet's name in the workbook.
    public let name: String
    /// The workbook's sheet names, in order.
    public let sheetNames: [String]
    private let archive: ZipArchive
    private let xml: XMLStream
    private let sharedStrings: SharedStrings
    private let dateStyles: Set<Int>
    private let dateBase: Double
    private var finished = false

    /// Opens `path` and its first sheet, or the one named `sheet`.
    public init(path: String, sheet: String? = nil) throws {
        // XML compresses well (a sheet about 15 to 1): allow 100 times the file, at least 128 MiB.
        archive = try ZipArchive(path: path, kind: Sentence("an .xlsx workbook"), limitFactor: 100, minimumLimit: 128 << 20)
        guard archive.contains("xl/workbook.xml") else { throw ArchiveError.missingEntry(path: path, entry: "xl/workbook.xml", kind: archive.kind) }
        let workbook = try Workbook(archive)
        sheetNames = workbook.sheets.map(\.name)
        let chosen: (name: String, target: String)
        if let sheet {
            guard let found = workbook.sheets.first(where: { $0.name == sheet })
                    ?? workbook.sheets.first(where: { $0.name.lowercased() == sheet.lowercased() }) else {
                throw ArchiveError.malformed(path: path, reason: "it has no sheet named \"\(sheet)\" (it has \(sheetNames.map { "\"\($0)\"" }.joined(separator: ", ")))")
            }
            chosen = found
        } else {
            guard let first = workbook.sheets.first else { throw ArchiveError.malformed(path: path, reason: "the workbook has no sheets") }
            chosen = first
        }
        name = chosen.name
        dateBase = workbook.uses1904 ? 24_107 : 25_569
        sharedStrings = archive.contains("xl/sharedStrings.xml") ? try Self.readSharedStrings(archive) : SharedStrings()
        dateStyles = archive.contains("xl/styles.xml") ? try Self.readDateStyles(archive) : []
        xml = try XMLStream(try archive.stream(chosen.target), path: path, entry: chosen.target)
    }

    public func nextRecord() throws -> (line: Int, fields: [String])? {
        while !finished {
            guard try xml.next() else { finished = true; return nil }
            guard xml.isStart, xml.name == "row" else { continue }
            let number = xml.attribute("r").flatMap(Int.init) ?? 0
            let fields = xml.isEmptyElement ? [] : try readRow()
            if fields.allSatisfy(\.isEmpty) { continue }
            return (number, fields)
        }
        return nil
    }

    /// The most text one cell may hold (a word is at most 512 KiB in all).
    static let largestCell = 1 << 20

    /// The cells of the row just opened, by column (gaps filled with empty fields).
    private func readRow() throws -> [String] {
        var fields: [String] = []
        var cell: (column: Int, type: String, style: Int)?
        var value = ""
        var inValue = false, inInline = false, inPhonetic = false
        var rowBytes = 0
        while try xml.next() {
            if xml.isStart {
                switch xml.name {
                case "c":
                    cell = (Self.column(of: xml.attribute("r")) ?? fields.count, xml.attribute("t") ?? "n",
                            xml.attribute("s").flatMap(Int.init) ?? 0)
                    value = ""
                    if xml.isEmptyElement { store(cell, "", into: &fields); cell = nil }
                case "v": inValue = !xml.isEmptyElement
                case "is": inInline = !xml.isEmptyElement
                case "rPh": inPhonetic = !xml.isEmptyElement
                default: break
                }
            } else if xml.isEnd {
                switch xml.name {
                case "row": return Array(fields.reversed().drop { $0.isEmpty }.reversed())
                case "c":
                    let text = try text(of: value, cell: cell)
                    rowBytes += text.utf8.count
                    guard rowBytes <= Self.largestCell * 4 else {
                        throw ArchiveError.malformed(path: archive.path, reason: "a row holds more than \(Self.largestCell * 4 >> 20) MiB of text, far more than a word's")
                    }
                    store(cell, text, into: &fields)
                    cell = nil
                case "v": inValue = false
                case "is": inInline = false
                case "rPh": inPhonetic = false
                default: break
                }
            } else if xml.isText, (inValue || inInline) && !inPhonetic {
                value += xml.text
                if value.utf8.count > Self.largestCell {
                    throw ArchiveError.malformed(path: archive.path, reason: "a cell holds more than \(Self.largestCell >> 20) MiB of text, far more than a word's")
                }
            }
        }
        return fields
    }

    private func store(_ cell: (column: Int, type: String, style: Int)?, _ text: String, into fields: inout [String]) {
        guard let cell, cell.column < 16_384 else { return }
        while fields.count <= cell.column { fields.append("") }
        fields[cell.column] = text
    }

    private func text(of raw: String, cell: (column: Int, type: String, style: Int)?) throws -> String {
        guard let cell else { return raw }
        switch cell.type {
        case "s":
            guard let index = Int(raw), let shared = sharedStrings[index] else {
                throw ArchiveError.malformed(path: archive.path, reason: "a cell names shared string \(raw), which the workbook lacks")
            }
            return shared
        case "b": return raw == "1" ? "true" : "false"
        case "inlineStr", "str", "e", "d": return raw
        default:
            guard let number = Double(raw) else { return raw }
            // Dates run to 9999-12-31 (serial 2,958,465); anything else in a date cell is a number.
            if dateStyles.contains(cell.style), number >= 0, number < 2_958_466 { return date(serial: number) }
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        }
    }

    /// An Excel date serial as an ISO 8601 date (with the time when there is one).
    private func date(serial: Double) -> String {
        let milliseconds = Int64(((serial - dateBase) * 86_400_000).rounded())
        let stamp = Timestamp(milliseconds: milliseconds).iso8601
        return milliseconds % 86_400_000 == 0 ? String(stamp.prefix(10)) : stamp
    }

    /// "B7" → 1 (columns counted from 0).
    static func column(of reference: String?) -> Int? {
        guard let reference else { return nil }
        var column = 0
        var letters = 0
        for scalar in reference.unicodeScalars {
            guard scalar.value >= 65 && scalar.value <= 90 else { break }
            column = column * 26 + Int(scalar.value - 64)
            letters += 1
            if letters > 3 { return nil }  // past XFD, the last column a sheet can have
        }
        return letters == 0 ? nil : column - 1
    }

    /// The workbook's shared strings, within `SharedStrings.budget` (past it the workbook is refused).
    private static func readSharedStrings(_ archive: ZipArchive) throws -> SharedStrings {
        let xml = try XMLStream(try archive.stream("xl/sharedStrings.xml"), path: archive.path, entry: "xl/sharedStrings.xml")
        var strings = SharedStrings()
        func keep(_ text: String) throws {
            guard strings.append(text) else {
                throw ArchiveError.malformed(path: archive.path, reason: "its shared strings take more than \(SharedStrings.budget >> 20) MiB (\(strings.count) of them read), far more than a word list's")
            }
        }
        var current = ""
        var inItem = false, inText = false, inPhonetic = false
        while try xml.next() {
            if xml.isStart {
                switch xml.name {
                case "si": inItem = true; current = ""; if xml.isEmptyElement { try keep(""); inItem = false }
                case "t": inText = !xml.isEmptyElement
                case "rPh": inPhonetic = !xml.isEmptyElement
                default: break
                }
            } else if xml.isEnd {
                switch xml.name {
                case "si": try keep(current); inItem = false
                case "t": inText = false
                case "rPh": inPhonetic = false
                default: break
                }
            } else if xml.isText, inItem, inText, !inPhonetic {
                current += xml.text
                if current.utf8.count > SharedStrings.budget { try keep(current) }  // refused: one string past the whole budget
            }
        }
        return strings
    }

    /// The cell styles (indexes into cellXfs) whose number format shows a date.
    private static func readDateStyles(_ archive: ZipArchive) throws -> Set<Int> {
        let xml = try XMLStream(try archive.stream("xl/styles.xml"), path: archive.path, entry: "xl/styles.xml")
        var custom: [Int: String] = [:]
        var formats: [Int] = []
        var inCellFormats = false
        while try xml.next() {
            if xml.isStart {
                switch xml.name {
                case "numFmt":
                    if let id = xml.attribute("numFmtId").flatMap(Int.init) { custom[id] = xml.attribute("formatCode") ?? "" }
                case "cellXfs": inCellFormats = !xml.isEmptyElement
                case "xf" where inCellFormats: formats.append(xml.attribute("numFmtId").flatMap(Int.init) ?? 0)
                default: break
                }
            } else if xml.isEnd, xml.name == "cellXfs" {
                inCellFormats = false
            }
        }
        return Set(formats.enumerated().filter { isDateFormat($0.element, code: custom[$0.element]) }.map(\.offset))
    }

    /// Built-in date formats 14–22 and 45–47, or a custom code with day, month or year parts
    /// outside quotes and brackets.
    static func isDateFormat(_ id: Int, code: String?) -> Bool {
        if (14...22).contains(id) || (45...47).contains(id) { return true }
        guard let code else { return false }
        var quoted = false, bracketed = false
        for character in code.lowercased() {
            switch character {
            case "\"": quoted.toggle()
            case "[": bracketed = true
            case "]": bracketed = false
            case "d", "m", "y": if !quoted && !bracketed { return true }
            default: continue
            }
        }
        return false
    }
}

/// The workbook part: its sheets (name and the entry holding each) and its date system.
private struct Workbook {
    var sheets: [(name: String, target: String)] = []
    var uses1904 = false

    init(_ archive: ZipArchive) throws {
        var relations: [String: String] = [:]
        if archive.contains("xl/_rels/workbook.xml.rels") {
            let xml = try XMLStream(try archive.stream("xl/_rels/workbook.xml.rels"), path: archive.path, entry: "xl/_rels/workbook.xml.rels")
            while try xml.next() {
                guard xml.isStart, xml.name == "Relationship" else { continue }
                if let id = xml.attribute("Id"), let target = xml.attribute("Target") {
                    relations[id] = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
                }
            }
        }
        let xml = try XMLStream(try archive.stream("xl/workbook.xml"), path: archive.path, entry: "xl/workbook.xml")
        var index = 0
        while try xml.next() {
            guard xml.isStart else { continue }
            if xml.name == "workbookPr" { uses1904 = ["1", "true"].contains(xml.attribute("date1904") ?? "") }
            guard xml.name == "sheet", let name = xml.attribute("name") else { continue }
            index += 1
            let target = xml.attribute("r:id").flatMap { relations[$0] } ?? "xl/worksheets/sheet\(index).xml"
            sheets.append((name, target))
        }
    }
}
