import Glibc

/// What the file system says of a file, by `stat(2)`.
public enum FileStatus {
    /// The size in bytes of the file at `path` (following a symbolic link); nil when there is none.
    public static func byteSize(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// How many seconds ago the file at `path` was last written; nil when there is none.
    public static func secondsSinceChange(of path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec - info.st_mtim.tv_sec) + Double(now.tv_nsec - info.st_mtim.tv_nsec) / 1e9
    }

    /// Whether `path` is a folder (following a symbolic link); nil when there is nothing there.
    public static func isFolder(_ path: String) -> Bool? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT == S_IFDIR : nil
    }
}
