#if canImport(Glibc)
import Glibc
#endif

/// The process's memory as the system sees it.
public enum ProcessMemory {
    /// Hands the memory freed since back to the system. After a bulk change the allocator keeps
    /// what it freed for later (its large blocks too, once it has raised its threshold for
    /// mapping them), so a server that mirrored 50,000 words for an Anki app stayed 18 MiB above
    /// where it began until it exited; given back, the next large answer starts from there.
    public static func giveBackFreed() {
        _ = trim?(0)
    }

    /// glibc's `malloc_trim` (its header is not one Swift imports), nil on a C library without it.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
