import FoundationEssentials
import VocabCore
import VocabSystem
import VocabStore

/// The book form behind every front end: the fields as typed and the cover image chosen; Done
/// validates and saves all or nothing, a broken rule reported with the field it concerns.
public struct BookForm: Sendable {
    /// The book being edited, or nil for a new one.
    public var editing: UUID?
    public var values: [BookField: String]
    /// A new cover image, or its removal; nil leaves the cover as it is.
    public var image: BookChanges.ImageChange?

    public init(editing book: Book? = nil) {
        editing = book?.id
        values = [:]
        if let book {
            values = [.name: book.name, .explain: book.explain, .meaning: book.meaning, .coverWord: book.coverWord]
        }
    }

    public subscript(field: BookField) -> String {
        get { values[field] ?? "" }
        set { values[field] = newValue }
    }

    /// Done: validates and saves a new book, or the changes to the one being edited. Throws
    /// `BookFormError` naming the field a rule concerns; on any error nothing is saved.
    public func save(to library: Library, now: Timestamp) throws -> Book {
        let store = library.store
        do {
            if let editing {
                return try store.updateBook(id: editing, BookChanges(name: self[.name], explain: self[.explain], meaning: self[.meaning],
                                                                     image: image, coverWord: self[.coverWord]), now: now)
            }
            var draft = BookDraft(name: self[.name])
            draft.explain = self[.explain]
            draft.meaning = self[.meaning]
            draft.coverWord = self[.coverWord]
            if case .set(let bytes)? = image { draft.image = bytes }
            return try store.addBook(draft, now: now)
        } catch let error as VocabError {
            throw BookFormError(field: BookFormError.field(of: error), underlying: error)
        }
    }
}

/// A rule the book form broke, with the field to show it next to (nil: the whole form, e.g.
/// the cover image).
public struct BookFormError: UserFacingError {
    public let field: BookField?
    public let underlying: VocabError
    public var category: ErrorCategory { underlying.category }
    public var sentence: Sentence { underlying.sentence }

    static func field(of error: VocabError) -> BookField? {
        switch error {
        case .emptyField(let name), .fieldTooLong(let name, _), .invalidCharacters(let name): return BookField(rawValue: name)
        case .duplicateBookName: return .name
        default: return nil
        }
    }
}

/// Deleting a book, for every front end: a book that holds words is deleted only after a
/// backup of the store (one restore away from undoing it).
public enum BookDeletion {
    /// Deletes the book `bookId` and its words, after a backup when it holds any; returns how
    /// many words went and the backup taken. A count or a backup that fails deletes nothing.
    public static func delete(bookId: UUID, from library: Library, policy: BackupPolicy, now: Timestamp) throws
        -> (deleted: Int, backup: BackupInfo?) {
        let store = library.store
        let count = try store.wordCount(WordFilter(bookId: bookId))
        let backup = count > 0 ? try BackupService.take(library, reason: "before-delete", policy: policy, now: now).backup : nil
        return (try store.deleteBook(id: bookId, now: now), backup)
    }
}

/// Changes to a book every front end makes alike, beside the form's Done (every field at once).
public enum BookActions {
    /// Renames the book; its words stay with it.
    public static func rename(_ id: UUID, to name: String, in library: Library, now: Timestamp) throws -> Book {
        try library.store.updateBook(id: id, BookChanges(name: name), now: now)
    }

    /// Copies the book (a followed one, say) into a new book of the learner's own named
    /// `name`, with its words, their marks and their reviews; returns it and how many words.
    public static func copy(_ id: UUID, named name: String, in library: Library, now: Timestamp) throws -> (book: Book, words: Int) {
        try library.store.copyBook(id, named: name, now: now)
    }
}

extension BookForm {
    /// A cover image read from the file at `path`, refused (with its size) when it is larger
    /// than a book's cover may be; whether it is an image is checked when the book is saved.
    public static func coverImage(at path: String) throws -> [UInt8] {
        let bytes = try FileAccess.readBytes(path, limit: FieldRules.maxImageBytes)
        if bytes.count > FieldRules.maxImageBytes {
            throw VocabError.imageTooLarge(bytes: FileStatus.byteSize(of: path) ?? bytes.count, limit: FieldRules.maxImageBytes)
        }
        return bytes
    }
}
