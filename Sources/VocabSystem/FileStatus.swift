import Glibc

/// What the file system says of a file, by `stat(2)`.
public enum FileStatus {
    /// The size in bytes of the file at `path` (following a symbolic link); nil when there is none.
    public static func byteSize(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
