#if canImport(Glibc)
import Glibc
#endif

/// A file that could not be read or written, and why (worded by the layers above).
public struct FileFailure: Error, Equatable, Sendable {
    public enum Operation: Sendable { case read, write }

    public enum Reason: Equatable, Sendable {
        /// Reading: there is no such file. Writing: its folder does not exist.
        case missing
        case folder
        case denied
        /// Any other failure, in the system's words (`strerror`).
        case system(String)

        /// The reason in a few plain English words, for a sentence that does not name the file
        /// (a temporary one, say).
        public var english: String {
            switch self {
            case .missing: return "no such file or folder"
            case .folder: return "it is a folder"
            case .denied: return "permission denied"
            case .system(let words): return words
            }
        }

        /// The reason `errno` gives.
        public init(errno code: Int32) {
            switch code {
            case ENOENT, ENOTDIR: self = .missing
            case EISDIR: self = .folder
            case EACCES, EPERM, EROFS: self = .denied
            default: self = .system(String(cString: strerror(code)))
            }
        }
    }

    public let operation: Operation
    public let path: String
    public let reason: Reason

    public init(_ operation: Operation, _ path: String, _ reason: Reason) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// The failure `errno` gives for `operation` on `path`.
    static func errno(_ operation: Operation, _ path: String, _ code: Int32 = Glibc.errno) -> FileFailure {
        FileFailure(operation, path, Reason(errno: code))
    }
}
