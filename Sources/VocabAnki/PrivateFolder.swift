import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A folder only this user can enter (mode 0700), made under the system's temporary folder (or
/// a folder of the caller's) and removed with everything in it when dropped: where a package's collection is unpacked or
/// written, never beside the user's files.
final class PrivateFolder {
    let path: String

    /// `base`: the folder it is made in (nil: the system's temporary folder).
    init(in base: String? = nil) throws {
        let base = base ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/vocab-anki-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw AnkiPackageError.cannotUnpack(reason: "no private temporary folder could be made in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
