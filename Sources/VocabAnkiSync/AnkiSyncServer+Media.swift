import FoundationEssentials
import VocabArchives
import VocabCloudAPI
import VocabCore
import VocabSessions

/// Anki's media sync (`msync/…`) over the learner's `AnkiMediaKeeper`: what changed since an
/// update number, files sent in a zip of stored entries (with a list of their names, and the
/// names deleted), files asked for in the same shape, and a count both sides must agree on.
/// Answers are wrapped as the protocol wraps them (`{"data": …, "err": ""}`); a refusal the app
/// shows is `{"err": …}`.
extension AnkiSyncServer {
    func answerMedia(_ call: AnkiSyncCall, body: [UInt8], header: AnkiSyncWire.Header, media: any AnkiMediaKeeper) throws -> AnkiSyncReply {
        func request() throws -> JSONValue { try Self.request(body) }
        switch call {
        case .mediaBegin:
            return try Self.json(AnkiSyncWire.MediaAnswer(data: AnkiSyncWire.MediaBegin(usn: try media.usn(), sk: header.k)))
        case .mediaChanges:
            guard let after = try request()["lastUsn"]?.int64Value else { throw Refusal.ankiChangesUnreadable }
            let changes = try media.changes(after: after, limit: AnkiMediaBounds.changesPerAnswer)
            let rows = JSONValue.array(changes.map { .array([.string($0.name), .int($0.usn), .string($0.sha1)]) })
            return try Self.compressed(Array(JSONValue.object([("data", rows), ("err", .string(""))]).compact.utf8))
        case .uploadChanges:
            // Files the server will not take (unreadable, too large, past the account's cap):
            // refused in words the app shows.
            do {
                let uploads = try Self.mediaUploads(body)
                let usn = try media.apply(uploads)
                return try Self.json(AnkiSyncWire.MediaAnswer(data: [Int64(uploads.count), usn]))
            } catch let refusal as Refusal where [400, 413, 507].contains(refusal.status) {
                return try Self.json(AnkiSyncWire.MediaRefusal(err: refusal.message))
            }
        case .downloadFiles:
            guard let names = try request()["files"]?.arrayValue?.compactMap(\.stringValue),
                  names.count <= AnkiMediaBounds.filesPerDownload else { throw Refusal.ankiChangesUnreadable }
            // The first files, as many as one answer holds: the app asks again for the rest.
            let files = try media.files(names, most: AnkiMediaBounds.downloadBytes)
            guard !files.isEmpty || names.isEmpty else { throw Refusal.ankiMediaGone }
            // Entries named by their place, with a map of places to names (`_meta`).
            var entries = files.enumerated().map { (name: String($0.offset), data: $0.element.data) }
            let map = JSONValue.object(files.enumerated().map { (String($0.offset), .string($0.element.name)) })
            entries.append((name: "_meta", data: Array(map.compact.utf8)))
            return try Self.compressed(StoredZip.bytes(of: entries))
        case .mediaSanity:
            guard let local = try request()["local"]?.int64Value else { throw Refusal.ankiChangesUnreadable }
            return try Self.json(AnkiSyncWire.MediaAnswer(data: Int64(try media.count()) == local ? "OK" : "mediaSanity"))
        default:
            throw Refusal.methodNotAllowed(call.rawValue)
        }
    }

    /// The files and deletions of an upload: a zip whose `_meta` lists `[name, entry]` pairs
    /// (entry null or "" for a deletion). Names must be NFC, without a separator or a dot
    /// name, at most 255 bytes; a file must not be empty.
    static func mediaUploads(_ zip: [UInt8]) throws -> [AnkiMediaUpload] {
        let entries: [(name: String, data: [UInt8])]
        do {
            entries = try StoredZip.entries(of: zip, maxEntries: AnkiMediaBounds.filesPerUpload + 1, maxEntryBytes: AnkiMediaBounds.fileBytes)
        } catch .entryTooLarge {
            throw Refusal.ankiMediaTooLarge(mebibytes: AnkiMediaBounds.fileBytes >> 20)
        } catch {
            throw Refusal.ankiMediaUnreadable
        }
        let byName = Dictionary(entries.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first })
        guard let meta = byName["_meta"], meta.count <= 50 * 1024, let listed = (try? JSONParser.parse(meta))?.arrayValue,
              listed.count <= AnkiMediaBounds.filesPerUpload else { throw Refusal.ankiMediaUnreadable }
        var seen = Set<String>()
        return try listed.map { pair in
            guard let members = pair.arrayValue, members.count == 2, let name = members[0].stringValue,
                  Self.isMediaName(name), seen.insert(name).inserted else { throw Refusal.ankiMediaUnreadable }
            guard let inZip = members[1].stringValue, !inZip.isEmpty else { return AnkiMediaUpload(name: name, data: nil) }
            guard let data = byName[inZip], inZip != "_meta", !data.isEmpty else { throw Refusal.ankiMediaUnreadable }
            return AnkiMediaUpload(name: name, data: data)
        }
    }

    /// Whether a media file's name is one Anki's apps keep: NFC, no separator, not "." or "..",
    /// no control character, at most 255 bytes.
    static func isMediaName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= AnkiMediaBounds.nameBytes && name != "." && name != ".."
            && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            && TextRules.isNFC(name)
    }
}
