import VocabCloudAPI
import FoundationEssentials
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// A folder private to the server (0700, made fresh at start, removed at the end) for the files
/// a request needs for a moment: an upload being imported, an export being made, a word spoken.
/// Every name in it is made here (no name from a request reaches the file system).
final class ScratchFolder: Sendable {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/vocab-serve-XXXXXX").utf8CString)
        guard let base = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
            throw Refusal.privateFolderUnusable(String(cString: strerror(errno)))
        }
        path = String(cString: base)
    }

    /// A name for a file that does not exist yet (for a writer that makes it whole).
    func newName(suffix: String) -> String {
        path + "/" + UUID().uuidString.lowercased() + suffix
    }

    /// A new empty file, readable by this user only; the caller removes it.
    func newFile(suffix: String) throws -> String {
        let file = newName(suffix: suffix)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw Refusal.privateFolderUnusable(String(cString: strerror(errno))) }
        close(descriptor)
        return file
    }

    /// Writes `bytes` to a new file.
    func write(_ bytes: [UInt8], suffix: String) throws -> String {
        let file = try newFile(suffix: suffix)
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            unlink(file)
            throw Refusal.privateFolderUnusable(String(cString: strerror(errno)))
        }
        return file
    }

    /// Moves `file` (the server's own: a body it received) in under a new name; the new path.
    func adopt(_ file: String, suffix: String) throws -> String {
        let moved = newName(suffix: suffix)
        guard rename(file, moved) == 0 else {
            guard let bytes = try? FileAccess.readBytes(file, limit: Int(Int32.max)) else {
                throw Refusal.privateFolderUnusable(String(cString: strerror(errno)))
            }
            return try write(bytes, suffix: suffix)
        }
        return moved
    }

    /// Whether `path` is a file with something in it.
    static func isNonEmptyFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_size > 0
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }  // at the end: nothing in it is anyone's only copy
}
