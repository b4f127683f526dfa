import CGtk
import Foundation
import VocabCore
import VocabDictionary
import VocabSessions

/// The word editor, as the original app's form: every field, and a toolbar with Dictionary
/// (fills only the empty fields, from WordNet with IPA from espeak-ng), the web dictionary page
/// for the word being typed, Speak, and Done (saves all or nothing; a broken rule is shown next
/// to its field).
@MainActor
final class WordEditor {
    private let model: AppModel
    private let dialog: DialogWindow
    private let book: Book
    private var form: WordForm
    private var fields: [WordField: FormField] = [:]
    private let memorized: Widget
    private let message: Widget
    private let dictionaryButton: Widget
    /// After Dictionary: the word's senses, most met first, to pick another from.
    private let senses: Widget
    private var entry: DictionaryEntry?
    var onClose: () -> Void = {} {
        didSet { dialog.onClose = onClose }
    }

    static func label(_ field: WordField) -> String {
        switch field {
        case .word: return tr("Word")
        case .definition: return tr("Definition")
        case .detail: return tr("Detail")
        case .pronunciation: return tr("Pronunciation")
        case .synonym: return tr("Synonym")
        case .antonym: return tr("Antonym")
        }
    }

    init(model: AppModel, parent: Widget, book: Book, word: Word?) {
        self.model = model
        self.book = book
        form = WordForm(editing: word)
        dialog = DialogWindow(parent: parent, title: word == nil ? tr("New word in %@", book.name) : tr("Edit word"), width: 560)
        memorized = gtk_check_button_new_with_label(tr("Memorised"))!
        gtk_check_button_set_active(vocab_check_button(memorized), form.memorized ? 1 : 0)
        message = UI.label("", style: "dim-label", wrap: true)
        UI.setVisible(message, false)
        senses = UI.box(true, spacing: 2)
        UI.setVisible(senses, false)

        // The toolbar above the fields, like the original app's keyboard toolbar.
        dictionaryButton = UI.button(tr("Dictionary"), name: tr("Dictionary")) { }
        let web = UI.button(tr("Web dictionary"), name: tr("Web dictionary")) { }
        let speak = UI.iconButton("audio-volume-high-symbolic", name: tr("Speak")) { }
        let done = UI.button(tr("Done"), name: tr("Done"), style: "suggested-action") { }
        let cancel = UI.button(tr("Cancel"), name: tr("Cancel")) { }
        let spacer = UI.box(false)
        gtk_widget_set_hexpand(spacer, 1)
        let toolbar = UI.box(false, spacing: 6, [dictionaryButton, web, speak, spacer, cancel, done])
        UI.append(dialog.body, toolbar)
        on(dictionaryButton, "clicked") { [weak self] in self?.lookUp() }
        on(web, "clicked") { [weak self] in self?.openWeb() }
        on(speak, "clicked") { [weak self] in self?.speak() }
        on(done, "clicked") { [weak self] in self?.save() }
        on(cancel, "clicked") { [weak self] in self?.dialog.close() }

        for field in WordField.allCases {
            let row = FormField(label: WordEditor.label(field), name: WordEditor.label(field), value: form[field])
            fields[field] = row
            UI.append(dialog.body, row.row)
            on(row.entry, "activate") { [weak self] in self?.save() }
            if field == .definition { UI.append(dialog.body, senses) }
        }
        UI.append(dialog.body, memorized, message)
        if let word {
            let delete = UI.button(tr("Delete word"), name: tr("Delete word"), style: "destructive-action") { [weak self] in
                self?.delete(word)
            }
            gtk_widget_set_halign(delete, GTK_ALIGN_START)
            UI.append(dialog.body, delete)
        }
    }

    func present() {
        dialog.present()
        if let word = fields[.word] { gtk_widget_grab_focus(word.entry) }
    }

    /// The form as typed on screen.
    private func readForm() {
        for (field, row) in fields { form[field] = row.text }
        form.memorized = gtk_check_button_get_active(vocab_check_button(memorized)) != 0
    }

    private func say(_ text: String) {
        UI.setText(message, text)
        UI.setVisible(message, !text.isEmpty)
    }

    private func lookUp() {
        readForm()
        let word: String
        do { word = try form.wordToLookUp() } catch {
            fields[.word]?.show(error: WindowWording.message(for: error))
            return
        }
        say(tr("Looking up “%@”…", word))
        UI.setSensitive(dictionaryButton, false)
        let dictionaries = model.dictionaries
        offMain({ Result { try dictionaries.lookUp(word) } }, then: { [weak self] result in self?.filled(result) })
    }

    private func filled(_ result: Result<DictionaryEntry, Error>) {
        UI.setSensitive(dictionaryButton, true)
        switch result {
        case .success(let entry):
            readForm()
            let changed = form.fill(from: entry)
            for field in changed { if let row = fields[field] { UI.setText(entry: row.entry, form[field]) } }
            say(changed.isEmpty ? tr("The dictionary has nothing for the empty fields.")
                                : tr("Filled from the dictionary: %@.", changed.map(WordEditor.label).joined(separator: ", ")))
            showSenses(of: entry)
        case .failure(let error):
            say(AppModel.message(error))
        }
    }

    /// The entry's senses under the definition, the one filled marked; a click fills another.
    private func showSenses(of entry: DictionaryEntry) {
        self.entry = entry
        UI.removeAll(senses)
        guard entry.senses.count > 1 else { return UI.setVisible(senses, false) }
        UI.append(senses, UI.label(tr("Meanings, most used first:"), style: "caption", xalign: 0))
        for (index, sense) in entry.senses.prefix(DictionaryService.sensesOffered).enumerated() {
            let text = "\(index + 1). " + WordLookup.definition(of: sense)
            let button = UI.button(text, name: tr("Meaning %@", text)) { [weak self] in self?.choose(sense: index) }
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_add_css_class(button, "compact")
            if let label = gtk_button_get_child(vocab_button(button)) {
                gtk_label_set_ellipsize(vocab_label(label), PANGO_ELLIPSIZE_END)
                gtk_label_set_xalign(vocab_label(label), 0)
                gtk_widget_add_css_class(label, "caption")
            }
            UI.append(senses, button)
        }
        UI.setVisible(senses, true)
    }

    private func choose(sense index: Int) {
        guard let entry else { return }
        readForm()
        let changed = form.choose(sense: index, of: entry)
        for field in WordField.allCases { if let row = fields[field] { UI.setText(entry: row.entry, form[field]) } }
        say(changed.isEmpty ? "" : tr("Filled from the dictionary: %@.", changed.map(WordEditor.label).joined(separator: ", ")))
    }

    private func openWeb() {
        readForm()
        do {
            let url = try model.dictionaries.webURL(for: form[.word])
            let dictionaries = model.dictionaries
            offMain({ dictionaries.openInBrowser(url) }, then: { [weak self] opened in self?.say(opened ? tr("Opened %@", url) : url) })
        } catch {
            say(AppModel.message(error))
        }
    }

    private func speak() {
        readForm()
        let text = form[.word]
        let dictionaries = model.dictionaries
        offMain({ Result { try dictionaries.say(text) } }, then: { [weak self] result in
            if case .failure(let error) = result { self?.say(AppModel.message(error)) }
        })
    }

    private func save() {
        readForm()
        for row in fields.values { row.show(error: nil) }
        let filled = form, bookId = book.id, now = model.clock.now()
        model.background({ library in try filled.save(to: library, bookId: bookId, now: now) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let saved):
                dialog.close()
                model.toast(filled.editing == nil ? tr("Added “%@”.", saved.word) : tr("Saved “%@”.", saved.word))
            case .failure(let error as WordFormError):
                if let field = error.field, let row = fields[field] {
                    row.show(error: WindowWording.message(for: error))
                    gtk_widget_grab_focus(row.entry)
                } else {
                    say(WindowWording.message(for: error))
                }
            case .failure(let error):
                say(AppModel.message(error))
            }
        }
    }

    private func delete(_ word: Word) {
        Confirm.ask(parent: dialog.window, heading: tr("Delete “%@”?", word.word), body: tr("Its reviews go with it."),
                    action: tr("Delete")) { [weak self] in
            guard let self else { return }
            let id = word.id, now = model.clock.now()
            model.background({ library in try WordActions.delete(id, from: library, now: now) }) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success:
                    dialog.close()
                    model.toast(tr("Deleted “%@”.", word.word))
                case .failure(let error):
                    say(AppModel.message(error))
                }
            }
        }
    }
}
