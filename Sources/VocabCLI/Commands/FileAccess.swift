import Foundation
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing the user's files with clear errors.
enum FileAccess {
    /// The bytes of `path`; refuses files larger than `limit` without reading them whole.
    static func readBytes(_ path: String, limit: Int) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.cannotReadFile(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw CLIError.cannotReadFile(path: path, reason: "it is a folder") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError.cannotReadFile(path: path, reason: "permission denied")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            return [UInt8](data)
        } catch {
            throw CLIError.cannotReadFile(path: path, reason: "it could not be read")
        }
    }

    /// The size of the file at `path` in bytes, if it can be read.
    static func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    /// Writes `bytes` to `path`, replacing it atomically.
    static func writeBytes(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = FileManager.default.fileExists(atPath: FilePath.folder(of: path))
                ? "permission denied, or it is a folder" : "its folder does not exist"
            throw CLIError.cannotWriteFile(path: path, reason: reason)
        }
    }
}
