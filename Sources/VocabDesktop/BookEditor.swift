import CGtk
import Foundation
import VocabCore
import VocabSessions

/// Making or editing a book: every field, a cover from a file, and deleting it (after a
/// confirmation that says how many words go with it).
@MainActor
final class BookEditor {
    private let model: AppModel
    private let dialog: DialogWindow
    private let book: Book?
    private let name: FormField
    private let explain: FormField
    private let meaning: FormField
    private let coverWord: FormField
    private let coverLabel: Widget
    private let formError: Widget
    private var cover: BookChanges.ImageChange?
    var onSaved: (Book) -> Void = { _ in }

    init(model: AppModel, parent: Widget, book: Book?) {
        self.model = model
        self.book = book
        dialog = DialogWindow(parent: parent, title: book == nil ? tr("New book") : tr("Edit book"))
        name = FormField(label: tr("Name"), name: tr("Book name"), value: book?.name ?? "")
        explain = FormField(label: tr("Explain"), name: tr("Explain"), value: book?.explain ?? "")
        meaning = FormField(label: tr("Meaning"), name: tr("Meaning"), value: book?.meaning ?? "")
        coverWord = FormField(label: tr("Cover word"), name: tr("Cover word"), value: book?.coverWord ?? "")
        coverLabel = UI.label(book?.image == nil ? tr("No cover image") : tr("Has a cover image"), style: "dim-label")
        formError = UI.label("", style: "error", wrap: true)
        UI.setVisible(formError, false)
        let chooseCover = UI.button(tr("Choose cover…"), name: tr("Choose cover image")) { [weak self] in self?.chooseCover() }
        let save = UI.button(tr("Save"), name: tr("Save book"), style: "suggested-action") { [weak self] in self?.save() }
        let cancel = UI.button(tr("Cancel"), name: tr("Cancel")) { [weak self] in self?.dialog.close() }
        let buttons = UI.box(false, spacing: 6, [cancel, save])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        if book != nil {
            let delete = UI.button(tr("Delete book…"), name: tr("Delete book"), style: "destructive-action") { [weak self] in self?.confirmDelete() }
            gtk_box_prepend(vocab_box(buttons), delete)
        }
        for field in [name, explain, meaning, coverWord] {
            UI.append(dialog.body, field.row)
            on(field.entry, "activate") { [weak self] in self?.save() }
        }
        UI.append(dialog.body, UI.box(false, spacing: 8, [coverLabel, chooseCover]), formError, buttons)
    }

    func present() { dialog.present() }

    private func chooseCover() {
        FileDialog.choose(parent: dialog.window, title: tr("Choose a cover image"), save: false) { [weak self] path in
            guard let self else { return }
            do {
                cover = .set(try BookForm.coverImage(at: path))
                UI.setText(coverLabel, (path as NSString).lastPathComponent)
            } catch {
                show(error)
            }
        }
    }

    private func save() {
        for field in [name, explain, meaning, coverWord] { field.show(error: nil) }
        var form = BookForm(editing: book)
        form[.name] = name.text
        form[.explain] = explain.text
        form[.meaning] = meaning.text
        form[.coverWord] = coverWord.text
        form.image = cover
        let now = model.clock.now(), isNew = book == nil, filled = form
        model.background({ library in try filled.save(to: library, now: now) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let saved):
                dialog.close()
                model.toast(isNew ? tr("Made the book %@.", saved.name) : tr("Saved %@.", saved.name))
                onSaved(saved)
            case .failure(let error):
                show(error)
            }
        }
    }

    private func show(_ error: Error) {
        let rows: [BookField: FormField] = [.name: name, .explain: explain, .meaning: meaning, .coverWord: coverWord]
        if let error = error as? BookFormError, let field = error.field, let row = rows[field] {
            row.show(error: AppModel.message(error))
        } else {
            UI.setText(formError, AppModel.message(error))
            UI.setVisible(formError, true)
        }
    }

    private func confirmDelete() {
        guard let book else { return }
        let count: Int
        do {
            count = try model.read { try $0.wordCount(WordFilter(bookId: book.id)) }
        } catch {
            return show(error)  // a count that failed is no reason to delete without a backup
        }
        Confirm.ask(parent: dialog.window, heading: tr("Delete “%@”?", book.name),
                    body: tr("Its %d words go with it. Other devices will delete them at their next sync.", count),
                    action: tr("Delete")) { [weak self] in
            guard let self else { return }
            // A backup first (on the worker: a big store takes a moment), then the delete.
            let policy = model.paths.backupPolicy(), now = model.clock.now(), id = book.id
            model.background({ library in
                try BookDeletion.delete(bookId: id, from: library, policy: policy, now: now).deleted
            }) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let deleted):
                    dialog.close()
                    model.toast(tr("Deleted %@ and its %d words. A backup was taken first.", book.name, deleted))
                case .failure(let error):
                    show(error)
                }
            }
        }
    }
}
