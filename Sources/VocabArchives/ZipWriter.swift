import CZip
import FoundationEssentials
import VocabCore
import VocabSystem

/// A zip file written through libzip: entries are added from files on disk (so nothing large is
/// held in memory) and the archive appears at `path` only when `commit()` succeeds (libzip
/// writes a temporary file beside it and renames it).
public final class ZipWriter {
    public let path: String
    private var handle: OpaquePointer?

    /// Starts the archive; a missing folder, or a folder where the file would go, is refused
    /// here (libzip would find it only at `commit()`, in its own words).
    public init(path: String) throws {
        self.path = path
        guard FileStatus.isFolder(FilePath.folder(of: path)) == true else { throw FileFailure(.write, path, .missing) }
        guard FileStatus.isFolder(path) != true else { throw FileFailure(.write, path, .folder) }
        var error: Int32 = 0
        guard vocab_libzip_available() == 1 else { throw ZipWriteError(path: path, reason: "libzip is not installed (Debian: libzip4)") }
        guard let opened = vocab_zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &error) else {
            var info = zip_error_t()
            vocab_zip_error_init_with_code(&info, error)
            defer { vocab_zip_error_fini(&info) }
            throw ZipWriteError(path: path, reason: String(cString: vocab_zip_error_strerror(&info)))
        }
        handle = opened
    }

    deinit { if let handle { vocab_zip_discard(handle) } }

    /// Adds the file at `source` as entry `name`; `compress` false stores it as it is (images,
    /// data compressed already).
    public func addFile(_ name: String, from source: String, compress: Bool = true) throws {
        guard let handle else { throw ZipWriteError(path: path, reason: "the archive is closed") }
        guard let data = vocab_zip_source_file(handle, source, 0, -1) else { throw failure() }
        let index = vocab_zip_file_add(handle, name, data, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE))
        guard index >= 0 else {
            vocab_zip_source_free(data)
            throw failure()
        }
        if !compress { vocab_zip_set_file_compression(handle, zip_uint64_t(index), ZIP_CM_STORE, 0) }
    }

    /// Writes the archive out; until then nothing exists at `path`.
    public func commit() throws {
        guard let handle else { return }
        guard vocab_zip_close(handle) == 0 else {
            let error = failure()
            vocab_zip_discard(handle)
            self.handle = nil
            throw error
        }
        self.handle = nil
    }

    private func failure() -> ZipWriteError {
        ZipWriteError(path: path, reason: handle.map { String(cString: vocab_zip_strerror($0)) } ?? "unknown error")
    }
}

/// A zip file could not be written; nothing was left at its path.
public struct ZipWriteError: UserFacingError, Equatable {
    public var path: String
    public var reason: String
    public var category: ErrorCategory { .userInput }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var sentence: Sentence { Sentence("Cannot write %@: %@. No file was written.", .text(path), .text(reason)) }
}
