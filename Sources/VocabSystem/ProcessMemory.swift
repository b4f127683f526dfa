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

    /// Maps every block of `bytes` or more on its own, for as long as the process runs, so each
    /// goes back to the system as it is freed; the heaps keep up to twice that free at their top.
    /// glibc otherwise raises that bound to the largest block freed (up to 32 MiB): after an Anki
    /// app's first full download (a 7 MiB answer), the next ones' answers were carved out of the
    /// heaps of whichever threads served them, and a server that had served five downloads in a
    /// row held 29 MiB more than after the first. Called once, by a long-running server.
    public static func mapBlocksAlways(atLeast bytes: Int32) {
        _ = setOption?(trimThresholdOption, min(bytes, Int32.max / 2) * 2)
        _ = setOption?(mmapThresholdOption, bytes)
    }

    /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` in glibc's `malloc.h`.
    private static let trimThresholdOption: Int32 = -1, mmapThresholdOption: Int32 = -3

    /// glibc's `mallopt`, nil on a C library without it.
    private static let setOption: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

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
