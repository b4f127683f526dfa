#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#endif
#endif

/// One process (and one holder in it) at a time: an exclusive `flock` on a private lock file
/// (created 0600), released by `release()` or when the process ends, however it ends.
public final class FileLock: @unchecked Sendable {  // the descriptor is released once, by its holder
    private let descriptor: Int32

    /// Takes the lock at `path`; `wait`: block until the holder lets go, else nil at once when
    /// it is held. Nil too when the file cannot be opened.
    public init?(path: String, wait: Bool = false) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0 else {
            close(descriptor)
            return nil
        }
    }

    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
