import FoundationEssentials
import VocabCloudAPI
import VocabCore
import VocabSessions

/// The shelf: books with their counts; new, edit, delete (a book with words after a backup).
extension WebApp {
    func books() throws -> [BookRow] {
        let now = clock.now()
        return try pool.read { library in try Shelf.books(in: library, at: now) }.map { shelf in
            let id = shelf.book.id.lowercaseText
            return BookRow(id: id, name: shelf.book.name, explain: shelf.book.explain, coverWord: shelf.book.coverWord,
                           cover: shelf.book.image == nil ? nil : "/api/books/\(id)/cover?v=\(shelf.book.modifiedAt.milliseconds)",
                           wordCount: shelf.summary.wordCount, memorizedCount: shelf.summary.memorizedCount, dueCount: shelf.dueCount,
                           sharedBy: shelf.sharedBy)
        }
    }

    /// A book's cover image, as it was stored (PNG, JPEG, GIF or WebP).
    func cover(_ id: UUID) throws -> HTTPResponse {
        guard let book = try pool.read({ library in try library.book(id: id) }) else { throw VocabError.bookNotFound(id.lowercaseText) }
        guard let image = book.image, let kind = ImageKind(sniffing: image) else {
            throw Refusal.noCover
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/" + kind.rawValue), ("Cache-Control", "private, max-age=31536000, immutable")],
                            body: image)
    }

    func addBook(_ input: BookInput) throws -> SavedBook {
        try saveBook(BookForm(), input)
    }

    func editBook(_ id: UUID, _ input: BookInput) throws -> SavedBook {
        guard let book = try pool.read({ library in try library.book(id: id) }) else { throw VocabError.bookNotFound(id.lowercaseText) }
        return try saveBook(BookForm(editing: book), input)
    }

    /// Deletes a book and its words, after a backup when it holds any (one restore undoes it).
    func deleteBook(_ id: UUID) throws -> BookDeletedAnswer {
        let now = clock.now(), policy = backups
        let result = try pool.write { library in try BookDeletion.delete(bookId: id, from: library, policy: policy, now: now) }
        return BookDeletedAnswer(deleted: result.deleted, backup: result.backup != nil)
    }

    /// Validates and saves through the book form (what the input leaves out stays as it is;
    /// a new book's name is needed); a broken rule comes back with its field.
    private func saveBook(_ start: BookForm, _ input: BookInput) throws -> SavedBook {
        var form = start
        if start.editing == nil, input.name == nil { throw Refusal.missingField("name") }
        for (field, value) in [(BookField.name, input.name), (.explain, input.explain), (.meaning, input.meaning)] {
            if let value { form[field] = value }
        }
        let now = clock.now()
        do {
            let book = try pool.write { library in try form.save(to: library, now: now) }
            return SavedBook(id: book.id.lowercaseText, name: book.name, explain: book.explain)
        } catch let error as BookFormError {
            throw WebProblem(status: 422, cause: error, field: error.field.map { Self.fieldName($0) })
        }
    }

    static func fieldName(_ field: BookField) -> String {
        switch field {
        case .name: return "name"
        case .explain: return "explain"
        case .meaning: return "meaning"
        case .coverWord: return "coverWord"
        }
    }
}
