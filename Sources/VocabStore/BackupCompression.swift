import FoundationEssentials
import VocabCore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// Older backups are kept gzip-compressed when that pays (a store of 100k words and 1M
/// reviews: 334 MiB → 55 MiB in ~4 s with `gzip -1`). The newest backup stays plain, so the
/// usual restore needs no unpacking; compression runs where nobody waits (the detached
/// automatic backup, the window's worker). Uses Debian's `gzip` (always installed); without
/// it backups simply stay plain.
enum BackupCompression {
    static let suffix = ".gz"

    static var gzip: String? {
        ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Compresses `path` into `path.gz` if the result is at most 80% of it; removes the plain
    /// file only once the compressed one is complete and tested. Returns the new path, if any.
    @discardableResult
    static func compress(_ path: String) -> String? {
        guard let gzip, !path.hasSuffix(suffix) else { return nil }
        let partial = FilePath.folder(of: path) + "/.partial-" + FilePath.lastComponent(of: path) + suffix
        defer { unlink(partial) }
        guard run(gzip, ["-1", "-c", path], output: partial), run(gzip, ["-t", partial], output: nil) else { return nil }
        let plain = size(path), packed = size(partial)
        guard plain > 0, packed > 0, Double(packed) <= Double(plain) * 0.8 else { return nil }
        let target = path + suffix
        guard chmod(partial, 0o600) == 0, rename(partial, target) == 0 else { return nil }
        unlink(path)
        return target
    }

    /// Unpacks a compressed backup into a private temporary file beside it; the caller removes it.
    static func unpack(_ path: String) throws -> String {
        guard let gzip else { throw BackupError.notABackup(path: path, reason: "it is compressed and gzip is not installed") }
        let target = FilePath.folder(of: path) + "/.unpacked-" + UUID().uuidString + ".sqlite"
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw BackupError.cannotWrite(folder: FilePath.folder(of: path), reason: String(cString: strerror(errno))) }
        close(descriptor)
        guard run(gzip, ["-d", "-c", path], output: target) else {
            unlink(target)
            throw BackupError.notABackup(path: path, reason: "it could not be unpacked")
        }
        return target
    }

    private static func size(_ path: String) -> Int {
        FileStatus.byteSize(of: path) ?? 0
    }

    /// Runs a program to completion, its standard output into `output`; true when it succeeded.
    private static func run(_ program: String, _ arguments: [String], output: String?) -> Bool {
        let result = try? Subprocess(program, arguments).run(output: output.map { .file($0) } ?? .discard)
        return result?.succeeded ?? false
    }
}

extension StoreBackups {
    /// Compresses every backup but the newest (when that pays); returns how many.
    @discardableResult
    public static func compressOlder(in folder: String) -> Int {
        list(in: folder).backups.dropFirst().filter { !$0.path.hasSuffix(BackupCompression.suffix) }
            .compactMap { BackupCompression.compress($0.path) }.count
    }

    /// Runs `body` with a plain SQLite file of the backup at `path` (unpacked for the while
    /// when it is compressed).
    static func withPlainFile<T>(_ path: String, _ body: (String) throws -> T) throws -> T {
        guard path.hasSuffix(BackupCompression.suffix) else { return try body(path) }
        let plain = try BackupCompression.unpack(path)
        defer { unlink(plain) }
        return try body(plain)
    }
}
