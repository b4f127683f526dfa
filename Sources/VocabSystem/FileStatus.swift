import Glibc

/// What the file system says of a file, by `stat(2)`.
public enum FileStatus {
    /// The size in bytes of the file at `path` (following a symbolic link); nil when there is none.
    public static func byteSize(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Whether `path` is a folder (following a symbolic link); nil when there is nothing there.
    public static func isFolder(_ path: String) -> Bool? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT == S_IFDIR : nil
    }
}
