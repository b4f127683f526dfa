import CXML2
import VocabCore

/// A pull parser over one XML entry of an archive (libxml2's xmlTextReader fed chunk by chunk,
/// so a sheet of any size is never in memory at once). Safe by construction: no network, no
/// DTD loading, entities never substituted, and a document that declares a DTD or uses an
/// entity is refused (what "billion laughs" and external-entity attacks need).
final class XMLStream {
    private final class Feed {
        var stream: any ByteStream
        var pending: [UInt8] = []
        var offset = 0
        var error: Error?
        var isFirstChunk = true
        let path: String
        let entry: String
        init(_ stream: any ByteStream, path: String, entry: String) {
            self.stream = stream
            self.path = path
            self.entry = entry
        }
    }

    /// Whether `bytes` hold `<!DOCTYPE` (an Office part never declares one).
    static func declaresDTD(_ bytes: [UInt8]) -> Bool {
        let marker = Array("<!DOCTYPE".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }

    private let reader: OpaquePointer
    private let feed: Feed
    private let retained: Unmanaged<Feed>
    private let path: String
    private let entry: String

    init(_ stream: any ByteStream, path: String, entry: String) throws {
        self.path = path
        self.entry = entry
        feed = Feed(stream, path: path, entry: entry)
        retained = Unmanaged.passRetained(feed)
        let read: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            let feed = Unmanaged<Feed>.fromOpaque(context).takeUnretainedValue()
            if feed.offset == feed.pending.count {
                do {
                    guard let chunk = try feed.stream.nextChunk() else { return 0 }
                    // A DTD can only come before the root element, so in the first chunk.
                    if feed.isFirstChunk, XMLStream.declaresDTD(chunk) {
                        feed.error = ArchiveError.unsafeXML(path: feed.path, entry: feed.entry,
                                                            reason: "declares a DTD (entities can expand without bound)")
                        return -1
                    }
                    feed.isFirstChunk = false
                    feed.pending = chunk
                    feed.offset = 0
                } catch {
                    feed.error = error
                    return -1
                }
            }
            let count = min(Int(length), feed.pending.count - feed.offset)
            feed.pending.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(buffer).copyMemory(from: base + feed.offset, byteCount: count)
            }
            feed.offset += count
            return Int32(count)
        }
        guard vocab_libxml2_available() == 1 else {
            retained.release()
            throw ArchiveError.malformed(path: path, reason: "\(entry) cannot be read: libxml2 is not installed (Debian: libxml2)")
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        guard let made = vocab_xmlReaderForIO(read, nil, retained.toOpaque(), entry, nil, options) else {
            retained.release()
            throw ArchiveError.malformed(path: path, reason: "\(entry) cannot be read as XML")
        }
        reader = made
        // libxml2 would print its parse errors on standard error: Vocab says one line itself.
        vocab_xmlTextReaderSetErrorHandler(reader, { _, _, _, _ in }, nil)
    }

    deinit {
        vocab_xmlFreeTextReader(reader)
        retained.release()
    }

    /// Moves to the next node; false at the end of the document.
    func next() throws -> Bool {
        let result = vocab_xmlTextReaderRead(reader)
        if result == 1 {
            switch Int32(vocab_xmlTextReaderNodeType(reader)) {
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                throw ArchiveError.unsafeXML(path: path, entry: entry, reason: "declares a DTD (entities can expand without bound)")
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
                throw ArchiveError.unsafeXML(path: path, entry: entry, reason: "uses an entity")
            default:
                return true
            }
        }
        if let error = feed.error { throw error }
        if result == 0 { return false }
        throw ArchiveError.malformed(path: path, reason: "\(entry) is not well-formed XML")
    }

    var isStart: Bool { vocab_xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) }
    var isEnd: Bool { vocab_xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_END_ELEMENT.rawValue) }
    var isEmptyElement: Bool { vocab_xmlTextReaderIsEmptyElement(reader) == 1 }
    var isText: Bool {
        let type = vocab_xmlTextReaderNodeType(reader)
        return type == Int32(XML_READER_TYPE_TEXT.rawValue) || type == Int32(XML_READER_TYPE_CDATA.rawValue)
            || type == Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue) || type == Int32(XML_READER_TYPE_WHITESPACE.rawValue)
    }

    /// The element's name without its namespace prefix.
    var name: String {
        guard let name = vocab_xmlTextReaderConstLocalName(reader) else { return "" }
        return String(cString: name)
    }

    /// A text node's text.
    var text: String {
        guard let value = vocab_xmlTextReaderConstValue(reader) else { return "" }
        return String(cString: value)
    }

    /// The attribute with this (qualified) name on the current element.
    func attribute(_ name: String) -> String? {
        // Moving to the attribute reads it in place (nothing to free); then back to the element.
        guard vocab_xmlTextReaderMoveToAttribute(reader, name) == 1 else { return nil }
        defer { vocab_xmlTextReaderMoveToElement(reader) }
        guard let value = vocab_xmlTextReaderConstValue(reader) else { return "" }
        return String(cString: value)
    }
}
