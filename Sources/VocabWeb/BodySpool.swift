import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// A request's body as it comes in: in memory up to `memoryBytes`, past that in a file of the
/// server's private folder (as nginx spools a large body), so that a body still arriving costs
/// a few KiB of memory whatever its size. The file is removed with the spool (unless a handler
/// took it away first, see `HTTPRequest.bodyFile`).
final class BodySpool {
    private let folder: ScratchFolder
    private let memoryBytes: Int
    private var memory: [UInt8] = []
    private var descriptor: Int32 = -1
    private var path: String?
    /// Bytes received so far.
    private(set) var count = 0

    init(folder: ScratchFolder, memoryBytes: Int) {
        self.folder = folder
        self.memoryBytes = memoryBytes
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if let path { unlink(path) }
    }

    /// Adds the next piece; false when the server's folder would not take it (the disk full).
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        count += bytes.count
        if descriptor < 0, memory.count + bytes.count <= memoryBytes {
            memory.append(contentsOf: bytes)
            return true
        }
        guard descriptor >= 0 || moveToFile() else { return false }
        return writeAll(descriptor, bytes) == 0
    }

    /// The whole body in memory (read back from its file when it was spooled); nil if it cannot be read.
    func bytes() -> [UInt8]? {
        guard let path else { return memory }
        return try? FileAccess.readBytes(path, limit: count)
    }

    /// A file holding the whole body (written now when the body stayed in memory); nil if none
    /// could be written.
    func file() -> String? {
        guard path != nil || moveToFile() else { return nil }
        return path
    }

    /// Starts the body's file with what memory holds; false if it could not be written.
    private func moveToFile() -> Bool {
        guard let file = try? folder.newFile(suffix: ".body") else { return false }
        path = file
        descriptor = open(file, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0, memory.withUnsafeBytes({ writeAll(descriptor, $0) }) == 0 else { return false }
        memory = []
        return true
    }
}
