import VocabCore
import VocabStore
import VocabSystem

/// Why an Anki package cannot be imported or written; nothing was changed.
public enum AnkiPackageError: UserFacingError, Equatable {
    case unknownVersion(path: String, version: Int)
    case noCollection(path: String)
    case notACollection(path: String, reason: String)
    case damaged(path: String, reason: String)
    case unsafeMediaName(path: String, name: String)
    case cannotUnpack(reason: String)
    /// An export's package could not be made (its collection, or a temporary file).
    case cannotWrite(reason: String)
    case unknownField(name: String, known: [String])
    case nothingToExport

    public var category: ErrorCategory { .userInput }

    public var sentence: Sentence {
        switch self {
        case .unknownVersion(let path, let version):
            return Sentence("%@ is an Anki package of version %@, which this Vocab does not know (it reads versions 1 to 3). Nothing was imported.",
                            .text(path), .number(version))
        case .noCollection(let path):
            return Sentence("%@ holds no Anki collection (collection.anki21b, .anki21 or .anki2): not an Anki package? Nothing was imported.", .text(path))
        case .notACollection(let path, let reason):
            return Sentence("%@: its collection %@: not a package Anki wrote? Nothing was imported.", .text(path), .text(reason))
        case .damaged(let path, let reason):
            return Sentence("%@ is damaged (%@). Nothing was imported.", .text(path), .text(reason))
        case .unsafeMediaName(let path, let name):
            return Sentence("%@ names a media file \"%@\" outside the package's own folder: refused. Nothing was imported.", .text(path), .text(name))
        case .cannotUnpack(let reason):
            return Sentence("Cannot unpack the Anki package: %@. Nothing was imported.", .text(reason))
        case .cannotWrite(let reason):
            return Sentence("Cannot write the Anki package: %@. No file was written.", .text(reason))
        case .unknownField(let name, let known):
            return Sentence("No note type in the package has a field \"%@\" (it has %@). Nothing was imported.",
                            .text(name), .text(known.map { "\"\($0)\"" }.joined(separator: ", ")))
        case .nothingToExport:
            return Sentence("There are no words to export: an Anki package needs at least one. No file was written.")
        }
    }
}

extension AnkiPackageError {
    /// Why a temporary file of a package's could not be written, without its path (on a server
    /// it would name the server's own folder).
    static func temporaryFile(_ failure: FileFailure) -> String {
        "a temporary file cannot be written (\(failure.reason.english))"
    }

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
