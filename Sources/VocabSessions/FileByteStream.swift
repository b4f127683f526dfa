import FoundationEssentials
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif
import VocabCore

/// Reads a file (or standard input) in 256 KiB chunks.
public struct FileByteStream: ByteStream {
    private let descriptor: Int32
    private let path: String
    private var buffer = [UInt8](repeating: 0, count: 262_144)

    /// Opens `path` for reading; "-" is standard input.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
            return
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError.cannotRead(path: path, reason: "no such file")
        }
        guard !isDirectory else { throw FileError.cannotRead(path: path, reason: "it is a folder") }
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError.cannotRead(path: path, reason: String(cString: strerror(errno))) }
    }

    public mutating func nextChunk() throws -> [UInt8]? {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError.cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            return count == 0 ? nil : Array(buffer[0..<count])
        }
    }

    /// Closes the file (standard input is left open).
    public func close() {
        if descriptor != STDIN_FILENO { _ = Glibc.close(descriptor) }
    }
}

/// Writes text to a file through a buffer; the file appears under its name only when
/// `commit()` is called, so a failed export never leaves half a file behind.
public final class AtomicFileWriter {
    private let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    public init(path: String) throws {
        self.path = path
        temporaryPath = FilePath.folder(of: path) + "/.vocab-export-\(UUID().uuidString).tmp"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw FileError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        unlink(temporaryPath)
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 262_144 { try flush() }
    }

    private func flush() throws {
        let error = buffer.withUnsafeBytes { writeAll(descriptor, $0) }
        if error != 0 { throw FileError.cannotWrite(path: path, reason: String(cString: strerror(error))) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs and moves the file into place.
    public func commit() throws {
        try flush()
        guard fsync(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            throw FileError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
