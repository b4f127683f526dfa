#if canImport(Glibc)
import Glibc
#endif

/// A small file readable and writable by its user only (0600 from its creation), replaced
/// whole: written beside it and renamed over it, so a reader finds the old file or the new one,
/// never half of one.
public enum PrivateFile {
    /// Why a private file could not be written.
    public struct WriteFailed: Error {
        public let reason: String
    }

    /// Writes `bytes` as the whole of `path`.
    public static func replace(_ path: String, with bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw WriteFailed(reason: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw WriteFailed(reason: written == bytes.count ? String(cString: strerror(errno)) : reason)
        }
    }
}
