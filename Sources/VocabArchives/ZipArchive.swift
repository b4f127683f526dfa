import CZip
import FoundationEssentials
import VocabCore
import VocabSystem

/// Why a zip-based file (an `.xlsx` workbook, an Anki package) cannot be read; nothing is imported.
public enum ArchiveError: UserFacingError, Equatable {
    /// `kind` names what the file should have been ("an .xlsx workbook", "an Anki package").
    case notAZip(path: String, reason: String, kind: Sentence)
    case missingEntry(path: String, entry: String, kind: Sentence)
    case tooBig(path: String, limitMiB: Int)
    case unsafeXML(path: String, entry: String, reason: String)
    case malformed(path: String, reason: String)

    public var category: ErrorCategory { .userInput }

    public var sentence: Sentence {
        switch self {
        case .notAZip(let path, let reason, let kind):
            return Sentence("%@ is not a readable zip file (%@): not %@? Nothing was imported.", .text(path), .text(reason), .sentence(kind))
        case .missingEntry(let path, let entry, let kind):
            return Sentence("%@ has no %@: not %@? Nothing was imported.", .text(path), .text(entry), .sentence(kind))
        case .tooBig(let path, let limit):
            return Sentence("%@ unpacks to more than %@ MiB: refused (a zip bomb, or not a word list). Nothing was imported.",
                            .text(path), .number(limit))
        case .unsafeXML(let path, let entry, let reason):
            return Sentence("%@: %@ %@; refused. Nothing was imported.", .text(path), .text(entry), .text(reason))
        case .malformed(let path, let reason):
            return Sentence("%@: %@. Nothing was imported.", .text(path), .text(reason))
        }
    }
}

/// A zip file opened read-only through Debian's libzip, whose entries are read as streams with a
/// bound on the bytes they unpack to (shared by every entry read: a zip bomb is refused, not
/// unpacked).
public final class ZipArchive {
    public let path: String
    /// What the file should be, for messages ("an .xlsx workbook").
    public let kind: Sentence
    private let handle: OpaquePointer
    /// Bytes every entry read so far unpacked to, and the most allowed.
    public private(set) var unpacked = 0
    public let unpackLimit: Int

    /// Opens `path`; entries may unpack to `limitFactor` times the file's size in all, but at
    /// least `minimumLimit` bytes (and at most 8 GiB).
    public init(path: String, kind: Sentence, limitFactor: Int, minimumLimit: Int) throws {
        self.path = path
        self.kind = kind
        var error: Int32 = 0
        guard vocab_libzip_available() == 1 else { throw ArchiveError.notAZip(path: path, reason: "libzip is not installed (Debian: libzip4)", kind: kind) }
        guard let opened = vocab_zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            var info = zip_error_t()
            vocab_zip_error_init_with_code(&info, error)
            defer { vocab_zip_error_fini(&info) }
            throw ArchiveError.notAZip(path: path, reason: String(cString: vocab_zip_error_strerror(&info)), kind: kind)
        }
        handle = opened
        let size = FileStatus.byteSize(of: path) ?? 0
        unpackLimit = min(max(minimumLimit, size.multipliedReportingOverflow(by: limitFactor).partialValue), 8 << 30)
    }

    deinit { vocab_zip_discard(handle) }

    /// Whether the archive holds `name`.
    public func contains(_ name: String) -> Bool {
        vocab_zip_name_locate(handle, name, 0) >= 0
    }

    /// The entry `name` as a stream of chunks.
    public func stream(_ name: String) throws -> ZipEntryStream {
        guard let file = vocab_zip_fopen(handle, name, 0) else { throw ArchiveError.missingEntry(path: path, entry: name, kind: kind) }
        return ZipEntryStream(archive: self, file: file, name: name)
    }

    /// The whole entry (small ones: a workbook's parts list, a package's media list), at most
    /// `limit` bytes.
    public func read(_ name: String, limit: Int = 64 << 20) throws -> [UInt8] {
        let stream = try stream(name)
        var bytes: [UInt8] = []
        while let chunk = try stream.nextChunk() {
            bytes += chunk
            if bytes.count > limit { throw ArchiveError.tooBig(path: path, limitMiB: max(1, limit >> 20)) }
        }
        return bytes
    }

    /// Counts bytes unpacked outside libzip (an entry's own compression, such as zstd) against
    /// the same bound.
    public func count(_ bytes: Int) throws {
        unpacked += bytes
        if unpacked > unpackLimit { throw ArchiveError.tooBig(path: path, limitMiB: unpackLimit >> 20) }
    }
}

/// One entry being read, 64 KiB at a time; closed at its end, or when dropped before it.
public final class ZipEntryStream: ByteStream {
    private let archive: ZipArchive
    private let file: OpaquePointer
    public let name: String
    private var finished = false

    fileprivate init(archive: ZipArchive, file: OpaquePointer, name: String) {
        self.archive = archive
        self.file = file
        self.name = name
    }

    deinit {
        if !finished { vocab_zip_fclose(file) }
    }

    public func nextChunk() throws -> [UInt8]? {
        guard !finished else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let read = chunk.withUnsafeMutableBytes { vocab_zip_fread(file, $0.baseAddress, 65_536) }
        if read < 0 {
            finished = true
            vocab_zip_fclose(file)
            throw ArchiveError.notAZip(path: archive.path, reason: "\(name) is damaged", kind: archive.kind)
        }
        if read == 0 {
            finished = true
            vocab_zip_fclose(file)
            return nil
        }
        try archive.count(Int(read))
        chunk.removeSubrange(Int(read)...)
        return chunk
    }
}
