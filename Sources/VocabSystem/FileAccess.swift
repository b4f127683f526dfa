#if canImport(Glibc)
import Glibc
#endif

/// Reading the user's files whole, failing with a `FileFailure` (`AtomicFile` writes them).
public enum FileAccess {
    /// The bytes of `path`, at most `limit + 1` of them: a longer file is not read whole, and
    /// the caller sees it is longer than `limit`.
    public static func readBytes(_ path: String, limit: Int) throws -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0 { bytes.reserveCapacity(min(Int(info.st_size), limit) + 1) }  // one allocation, not doubling
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min($0.count, limit + 1 - bytes.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileFailure.errno(.read, path) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Opens `path` read-only; a folder or a missing file is refused.
    static func openForReading(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileFailure.errno(.read, path) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw FileFailure(.read, path, .folder)
        }
        return descriptor
    }
}
