#if canImport(Glibc)
import Glibc
#endif

/// Reads a file (or standard input) in 256 KiB chunks.
public struct FileReader {
    private let descriptor: Int32
    private let path: String
    private var buffer = [UInt8](repeating: 0, count: 262_144)

    /// Opens `path` for reading; "-" is standard input.
    public init(path: String) throws {
        self.path = path
        descriptor = path == "-" ? STDIN_FILENO : try FileAccess.openForReading(path)
    }

    /// The next chunk, or nil at the end. Chunks are never empty.
    public mutating func nextChunk() throws -> [UInt8]? {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileFailure.errno(.read, path)
            }
            return count == 0 ? nil : Array(buffer[0..<count])
        }
    }

    /// Closes the file (standard input is left open).
    public func close() {
        if descriptor != STDIN_FILENO { _ = Glibc.close(descriptor) }
    }
}
