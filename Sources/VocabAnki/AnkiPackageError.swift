import VocabCore
import VocabStore

/// Why an Anki package cannot be imported or written; nothing was changed.
public enum AnkiPackageError: UserFacingError, Equatable {
    case unknownVersion(path: String, version: Int)
    case noCollection(path: String)
    case notACollection(path: String, reason: String)
    case damaged(path: String, reason: String)
    case unsafeMediaName(path: String, name: String)
    case cannotUnpack(reason: String)
    case unknownField(name: String, known: [String])
    case nothingToExport

    public var category: ErrorCategory { .userInput }

    public var message: String {
        switch self {
        case .unknownVersion(let path, let version):
            return "\(path) is an Anki package of version \(version), which this Vocab does not know (it reads versions 1 to 3). Nothing was imported."
        case .noCollection(let path):
            return "\(path) holds no Anki collection (collection.anki21b, .anki21 or .anki2): not an Anki package? Nothing was imported."
        case .notACollection(let path, let reason):
            return "\(path): its collection \(reason): not a package Anki wrote? Nothing was imported."
        case .damaged(let path, let reason):
            return "\(path) is damaged (\(reason)). Nothing was imported."
        case .unsafeMediaName(let path, let name):
            return "\(path) names a media file \"\(name)\" outside the package's own folder: refused. Nothing was imported."
        case .cannotUnpack(let reason):
            return "Cannot unpack the Anki package: \(reason). Nothing was imported."
        case .unknownField(let name, let known):
            return "--field names the Anki field \"\(name)\", which no note type in the package has (it has \(known.map { "\"\($0)\"" }.joined(separator: ", ")))."
        case .nothingToExport:
            return "There are no words to export: an Anki package needs at least one. No file was written."
        }
    }
}

extension AnkiPackageError {
    /// Runs `body`, a read of the collection unpacked from the package at `path`: an SQLite
    /// error there (a table or column missing, a damaged page) says the collection is not one.
    static func readingCollection<T>(of path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw AnkiPackageError.notACollection(path: path, reason: "cannot be read (\(error.message))")
        }
    }
}
