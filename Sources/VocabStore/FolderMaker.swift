import FoundationEssentials
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

/// Creates the data folder (and its parents) with permissions private to the user.
enum FolderMaker {
    static func makeFolder(_ path: String) throws {
        // stat(2) rather than FileManager, whose start-up every command would pay.
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw StoreError.cannotCreateFolder(path: path, reason: "a file with that name is in the way")
            }
            return
        }
        let parent = FilePath.parentFolder(of: path)
        if !parent.isEmpty, parent != path {
            try makeFolder(parent)
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw StoreError.cannotCreateFolder(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
