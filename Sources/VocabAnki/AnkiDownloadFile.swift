import FoundationEssentials
import VocabCore
import VocabStore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// The file a full download sends, kept ready between downloads in a folder of the server's (as
/// Anki's own server keeps its collection file): `collection-TOKEN.anki2`, which the store names
/// while it holds the kept objects as they are (`Store.ankiDownloadToken`: any object written
/// unnames it), and beside it that file compressed with the stamps of the next download
/// (`collection-TOKEN.USN-MOD-SCM-CRT.zst`), which a download sends as it is. Files are written
/// under a name ending `.part` and renamed when whole, so a name without it is always whole.
public enum AnkiDownloadFile {
    /// A download's file (on the writer; `state` the stamps it sends): the one kept compressed
    /// for them, else the file kept — written now when the objects moved past it — stamped and
    /// compressed.
    public static func compressed(of store: Store, state: AnkiCollectionState, in folder: String) throws -> (bytes: [UInt8], size: Int) {
        if let token = try store.ankiDownloadToken(), let kept = readCompressed(token: token, stamps: state, in: folder) { return kept }
        let path = try kept(store, state: state, in: folder)
        try AnkiKeptFile.setStamps(state, in: path)
        return try AnkiKeptFile.compressed(path)
    }

    /// What making the next download ready leaves to do off the writer, decided on it.
    public enum Work: Equatable, Sendable {
        /// Its compressed file is there.
        case none
        /// The objects moved past the file kept: a new one to write from a reader, named
        /// `token` in the store already.
        case write(token: String, stamps: AnkiCollectionState)
        /// A copy of the file kept (`copy`), to stamp for the next download and compress.
        case compress(copy: String, token: String, stamps: AnkiCollectionState)
    }

    /// Decides, on the writer, what the download with `stamps` needs (a copy of the file kept is
    /// made now, while no download can stamp it).
    public static func plan(_ store: Store, next stamps: AnkiCollectionState, in folder: String) throws -> Work {
        guard let token = try keptToken(store, in: folder) else { return .write(token: try newToken(store), stamps: stamps) }
        if FileManager.default.fileExists(atPath: compressedPath(token, stamps, in: folder)) { return .none }
        let copy = compressedPath(token, stamps, in: folder) + ".anki2.part"
        try? FileManager.default.removeItem(atPath: copy)
        do {
            try FileManager.default.copyItem(atPath: collectionPath(token, in: folder), toPath: copy)
        } catch {
            throw AnkiPackageError.cannotWrite(reason: "the collection could not be copied (\(error))")
        }
        return .compress(copy: copy, token: token, stamps: stamps)
    }

    /// Does `work` off the writer: `reader` is a reader's snapshot of the store, and a file is
    /// written only while it still names the file's token. Returns whether a file was made.
    @discardableResult
    public static func carryOut(_ work: Work, reader: Store, in folder: String) throws -> Bool {
        switch work {
        case .none:
            return false
        case .write(let token, let stamps):
            guard try reader.ankiDownloadToken() == token else { return false }
            let path = collectionPath(token, in: folder)
            // Compressed before it is put in place: a download may stamp it from then on.
            try writeWhole(to: path) { writing in
                try AnkiKeptFile.write(reader, state: stamps, to: writing)
                try compress(writing, as: compressedPath(token, stamps, in: folder))
            }
            removeOthers(keeping: [path, compressedPath(token, stamps, in: folder)], in: folder)
            return true
        case .compress(let copy, let token, let stamps):
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try AnkiKeptFile.setStamps(stamps, in: copy)
            try compress(copy, as: compressedPath(token, stamps, in: folder))
            removeOthers(keeping: [collectionPath(token, in: folder), compressedPath(token, stamps, in: folder)], in: folder)
            return true
        }
    }

    // MARK: The files

    private static func collectionPath(_ token: String, in folder: String) -> String { "\(folder)/collection-\(token).anki2" }

    private static func compressedPath(_ token: String, _ stamps: AnkiCollectionState, in folder: String) -> String {
        "\(folder)/collection-\(token).\(stamps.usn)-\(stamps.modified)-\(stamps.schema)-\(stamps.created).zst"
    }

    /// The file kept for the store's objects as they are, written now (and named in the store)
    /// when there is none; on the writer.
    private static func kept(_ store: Store, state: AnkiCollectionState, in folder: String) throws -> String {
        if let token = try keptToken(store, in: folder) { return collectionPath(token, in: folder) }
        let path = collectionPath(try newToken(store), in: folder)
        try writeWhole(to: path) { writing in try AnkiKeptFile.write(store, state: state, to: writing) }
        removeOthers(keeping: [path], in: folder)
        return path
    }

    /// The token the store names while its file is in `folder` (nil: none holds the objects).
    private static func keptToken(_ store: Store, in folder: String) throws -> String? {
        guard let token = try store.ankiDownloadToken(), FileManager.default.fileExists(atPath: collectionPath(token, in: folder)) else {
            return nil
        }
        return token
    }

    /// A new file's token, named in the store (any object written from now on unnames it).
    private static func newToken(_ store: Store) throws -> String {
        let token = UUID().uuidString.lowercased()
        try store.setAnkiDownloadToken(token)
        return token
    }

    /// The compressed file kept for `stamps`, read, with the size of the file it holds.
    private static func readCompressed(token: String, stamps: AnkiCollectionState, in folder: String) -> (bytes: [UInt8], size: Int)? {
        guard let size = FileStatus.byteSize(of: collectionPath(token, in: folder)),
              let bytes = try? FileAccess.readBytes(compressedPath(token, stamps, in: folder), limit: size + (1 << 20)),
              bytes.count <= size + (1 << 20) else { return nil }
        return (bytes, size)
    }

    /// Writes `path` through `write` (given where to write), under the folder made private.
    private static func writeWhole(to path: String, _ write: (String) throws -> Void) throws {
        let folder = FilePath.folder(of: path)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        } catch {
            throw AnkiPackageError.cannotWrite(reason: "no folder for the collection at \(folder) (\(error))")
        }
        let writing = path + ".part"
        try? FileManager.default.removeItem(atPath: writing)
        do {
            try write(writing)
        } catch {
            try? FileManager.default.removeItem(atPath: writing)
            throw error
        }
        try putInPlace(writing, path)
    }

    /// `source` compressed into `path` (through a `.part` file), a chunk at a time.
    private static func compress(_ source: String, as path: String) throws {
        try writeWhole(to: path) { writing in
            do {
                let output = try OutputFile(path: writing)
                defer { output.close() }
                try Zstd.compress(file: source, into: output)
            } catch {
                throw AnkiPackageError.cannotWrite(reason: "the collection could not be compressed (\(error))")
            }
        }
    }

    private static func putInPlace(_ writing: String, _ path: String) throws {
        guard rename(writing, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: writing)
            throw AnkiPackageError.cannotWrite(reason: "the collection could not be put in place (\(reason))")
        }
    }

    /// Removes the folder's whole files (`.anki2`, `.zst`) but `keeping`, and any `.part` left
    /// for ten minutes (by a process that stopped): one being written now is another call's, as
    /// is a journal SQLite keeps while a download stamps its file.
    private static func removeOthers(keeping: Set<String>, in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("collection-") {
            let path = folder + "/" + name
            if name.hasSuffix(".part") {
                if (FileStatus.secondsSinceChange(of: path) ?? 0) > 600 { try? FileManager.default.removeItem(atPath: path) }
            } else if name.hasSuffix(".anki2") || name.hasSuffix(".zst"), !keeping.contains(path) {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
