#if canImport(Glibc)
import Glibc
#endif

/// A file written beside its name and moved over it by `commit()`: a reader finds the old file
/// or the whole new one, and a failed or abandoned write leaves no half file behind.
public final class AtomicFile {
    public let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// Starts the file; `permissions` apply from its creation (0600 for a private file).
    public init(path: String, permissions: mode_t = 0o644) throws {
        self.path = path
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? path
        temporaryPath = folder + ".\(name).\(UInt64.random(in: 0...UInt64.max)).tmp"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw FileFailure.errno(.write, path) }
    }

    deinit {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            unlink(temporaryPath)
        }
    }

    /// Writes `path` whole as `bytes`.
    public static func replace(_ path: String, permissions: mode_t = 0o644, with bytes: [UInt8]) throws {
        let file = try AtomicFile(path: path, permissions: permissions)
        try file.write(bytes)
        try file.commit()
    }

    /// Adds `bytes` after what was written before.
    public func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 262_144 { try flush() }
    }

    /// Adds `text` in UTF-8 (an export writes a row at a time through this).
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 262_144 { try flush() }
    }

    /// Flushes, syncs and moves the file over its name.
    public func commit() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw FileFailure.errno(.write, path) }
        let closed = Glibc.close(descriptor)
        descriptor = -1
        guard closed == 0 else { unlink(temporaryPath); throw FileFailure.errno(.write, path) }
        guard rename(temporaryPath, path) == 0 else {
            let failure = FileFailure.errno(.write, path)
            unlink(temporaryPath)
            throw FileStatus.isFolder(path) == true ? FileFailure(.write, path, .folder) : failure
        }
    }

    private func flush() throws {
        guard descriptor >= 0 else { throw FileFailure.errno(.write, path, EBADF) }
        let error = buffer.withUnsafeBytes { writeAll(descriptor, $0) }
        if error != 0 { throw FileFailure.errno(.write, path, error) }
        buffer.removeAll(keepingCapacity: true)
    }
}
