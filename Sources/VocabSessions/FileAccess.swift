import FoundationEssentials
import VocabCore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing the user's files with clear errors.
public enum FileAccess {
    /// The bytes of `path`; refuses files larger than `limit` without reading them whole.
    public static func readBytes(_ path: String, limit: Int) throws -> [UInt8] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError.cannotRead(path: path, reason: "no such file")
        }
        guard !isDirectory else { throw FileError.cannotRead(path: path, reason: "it is a folder") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError.cannotRead(path: path, reason: "permission denied") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min($0.count, limit + 1 - bytes.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileError.cannotRead(path: path, reason: "it could not be read") }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// The size of the file at `path` in bytes, if it can be read.
    public static func size(of path: String) -> Int? {
        FileStatus.byteSize(of: path)
    }

    /// Writes `bytes` to `path`, replacing it atomically.
    public static func writeBytes(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = FileManager.default.fileExists(atPath: FilePath.folder(of: path))
                ? "permission denied, or it is a folder" : "its folder does not exist"
            throw FileError.cannotWrite(path: path, reason: reason)
        }
    }
}

/// A file the user named that cannot be read or written.
public enum FileError: UserFacingError, Equatable {
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var category: ErrorCategory { .userInput }

    public var message: String {
        switch self {
        case .cannotRead(let path, let reason): return "Cannot read \(path): \(reason)."
        case .cannotWrite(let path, let reason): return "Cannot write \(path): \(reason)."
        }
    }
}
