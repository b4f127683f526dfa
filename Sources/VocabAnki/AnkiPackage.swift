import FoundationEssentials
import VocabArchives
import VocabCore
import VocabStore
import VocabSystem

/// An `.apkg` or `.colpkg` opened for reading: its newest collection unpacked into a private
/// temporary folder (removed when this is dropped) and opened read-only, and its media list.
///
/// The `meta` entry names the layout (1: `collection.anki2`, 2: `collection.anki21`, 3:
/// `collection.anki21b`, zstd-compressed, schema 18). A current Anki also writes a placeholder
/// `collection.anki2` asking to update Anki: it is never read when a newer entry is present.
final class AnkiPackage {
    let path: String
    let version: Int
    let collection: Database
    private let archive: ZipArchive
    private let folder: PrivateFolder
    /// Media file name → the zip entry holding it.
    private let mediaEntries: [String: String]

    /// Unpacked bytes may reach 20 times the package, or 256 MiB for small ones.
    init(path: String) throws {
        self.path = path
        archive = try ZipArchive(path: path, kind: Sentence("an Anki package"), limitFactor: 20, minimumLimit: 256 << 20)
        version = try Self.layoutVersion(archive)
        let entry: String
        switch version {
        case 3: entry = "collection.anki21b"
        case 2: entry = "collection.anki21"
        default: entry = archive.contains("collection.anki21") ? "collection.anki21" : "collection.anki2"
        }
        guard archive.contains(entry) else { throw AnkiPackageError.noCollection(path: path) }
        mediaEntries = try Self.mediaList(archive, compressed: version == 3)
        folder = try PrivateFolder()
        let file = folder.file("collection.sqlite")
        try Self.unpack(try archive.stream(entry), compressed: version == 3, to: file, archive: archive)
        collection = try AnkiPackageError.readingCollection(of: path) {
            let collection = try Self.openCollection(at: file)
            _ = try collection.integer("SELECT count(*) FROM notes")
            return collection
        }
    }

    /// A read-only connection to an unpacked collection. (Not memory-mapped: barely faster
    /// (DESIGN.md §10), and every page read would stay in the process's memory.)
    static func openCollection(at path: String) throws -> Database {
        try Database(path: path, create: false, readOnly: true)
    }

    /// The bytes of media file `name`, if the package has it and it is at most `limit` bytes.
    func media(named name: String, limit: Int) throws -> [UInt8]? {
        guard let entry = mediaEntries[name], archive.contains(entry) else { return nil }
        var stream: any ByteStream = try archive.stream(entry)
        if version == 3 { stream = try ZstdStream(stream, count: archive.count) }
        var bytes: [UInt8] = []
        do {
            while let chunk = try stream.nextChunk() {
                bytes += chunk
                if bytes.count > limit { return nil }
            }
        } catch let error as ZstdStream.Damaged {
            throw AnkiPackageError.damaged(path: path, reason: "media file \(name): \(error.reason)")
        }
        return bytes
    }

    /// The `meta` entry's version; without one, 1 or 2 by the collection entry present.
    private static func layoutVersion(_ archive: ZipArchive) throws -> Int {
        guard archive.contains("meta") else { return archive.contains("collection.anki21") ? 2 : 1 }
        guard let fields = try? ProtobufFields(try archive.read("meta", limit: 4096)) else {
            throw AnkiPackageError.damaged(path: archive.path, reason: "its meta entry is not a package description")
        }
        let version = Int(truncatingIfNeeded: fields.varint(1) ?? 0)
        guard (1...3).contains(version) else { throw AnkiPackageError.unknownVersion(path: archive.path, version: version) }
        return version
    }

    /// Media names by zip entry: JSON `{"0": "name"}` in versions 1–2, protobuf `MediaEntries`
    /// (zstd-compressed) in version 3. A name with a folder in it is refused.
    private static func mediaList(_ archive: ZipArchive, compressed: Bool) throws -> [String: String] {
        guard archive.contains("media") else { return [:] }
        var names: [String: String] = [:]
        if compressed {
            var bytes: [UInt8] = []
            let stream = try ZstdStream(try archive.stream("media"), count: archive.count)
            do {
                while let chunk = try stream.nextChunk() {
                    bytes += chunk
                    if bytes.count > 64 << 20 { throw ArchiveError.tooBig(path: archive.path, limitMiB: 64) }
                }
            } catch let error as ZstdStream.Damaged {
                throw AnkiPackageError.damaged(path: archive.path, reason: "its media list: \(error.reason)")
            }
            guard let list = try? ProtobufFields(bytes) else {
                throw AnkiPackageError.damaged(path: archive.path, reason: "its media list cannot be read")
            }
            for (index, entry) in list.bytes(1).enumerated() {
                guard let name = (try? ProtobufFields(entry))?.string(1) else {
                    throw AnkiPackageError.damaged(path: archive.path, reason: "its media list cannot be read")
                }
                names[name] = String(index)
            }
        } else {
            let bytes = try archive.read("media")
            guard let object = (try? JSONParser.parse(bytes))?.objectValue else {
                throw AnkiPackageError.damaged(path: archive.path, reason: "its media list is not JSON")
            }
            for (entry, name) in object {
                guard let name = name.stringValue else { continue }
                names[name] = entry
            }
        }
        for name in names.keys where !isSafeMediaName(name) {
            throw AnkiPackageError.unsafeMediaName(path: archive.path, name: name)
        }
        return names
    }

    /// A plain file name: no folder, no `..`, nothing absolute.
    static func isSafeMediaName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }

    /// Writes the collection entry to `file`, decompressing it in version 3, every byte counted
    /// against the archive's bound. A file that is not SQLite is refused.
    private static func unpack(_ entry: ZipEntryStream, compressed: Bool, to file: String, archive: ZipArchive) throws {
        var stream: any ByteStream = entry
        if compressed { stream = try ZstdStream(entry, count: archive.count) }
        var first = true
        do {
            let output = try OutputFile(path: file)
            defer { output.close() }
            while var chunk = try stream.nextChunk() {
                if first {
                    first = false
                    guard chunk.starts(with: Array("SQLite format 3\0".utf8)) else {
                        throw AnkiPackageError.notACollection(path: archive.path, reason: "is not an SQLite database")
                    }
                    // A collection saved in WAL mode would need a -shm file to be opened
                    // read-only; its pages are whole, so it is read as a rollback-journal file.
                    if chunk.count > 19, chunk[18] == 2 { chunk[18] = 1; chunk[19] = 1 }
                }
                try output.write(chunk)
            }
        } catch let error as ZstdStream.Damaged {
            throw AnkiPackageError.damaged(path: archive.path, reason: "its collection: \(error.reason)")
        } catch let error as FileFailure {
            throw AnkiPackageError.cannotUnpack(reason: AnkiPackageError.temporaryFile(error))
        }
        if first { throw AnkiPackageError.notACollection(path: archive.path, reason: "is empty") }
    }
}
