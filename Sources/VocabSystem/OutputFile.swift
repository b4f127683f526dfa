import Glibc

/// A file written from the start, readable by its owner only (mode 0600), by `write(2)`.
public final class OutputFile {
    public let path: String
    private var descriptor: Int32

    /// Creates `path`, or empties it when it is there.
    public init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileFailure.errno(.write, path) }
    }

    deinit { close() }

    /// Writes all of `bytes` after what was written before.
    public func write<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        guard descriptor >= 0 else { throw FileFailure.errno(.write, path, EBADF) }
        let error = bytes.withContiguousStorageIfAvailable { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { writeAll(descriptor, $0) }
        if error != 0 { throw FileFailure.errno(.write, path, error) }
    }

    /// Makes what was written last through a crash (`fsync(2)`).
    public func sync() throws {
        guard descriptor >= 0, fsync(descriptor) == 0 else { throw FileFailure.errno(.write, path) }
    }

    /// Closes the file (also done when it goes away).
    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }
}
