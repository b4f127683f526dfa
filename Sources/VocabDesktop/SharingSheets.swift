import CGtk
import Foundation
import VocabCore
import VocabCloudAPI
import VocabSessions

/// "Share…" on one of the learner's own books: whether it is shared (its link and code, how
/// many follow it), sharing it (by link only, or listed in the server's catalogue under a name
/// the learner types), and stopping. Every request goes to the learner's Vocab server off the
/// main thread; sharing syncs first, so that the cloud shares the book as it is here.
@MainActor
final class ShareSheet {
    private let model: AppModel
    private let book: Book
    private let dialog: DialogWindow
    private let message: Widget
    private let linkLabel: Widget
    private let codeLabel: Widget
    private let followers: Widget
    private let sharedPart: Widget
    private let listing: FormField
    private let languages: FormField
    private let shareButton: Widget
    private let stopButton: Widget
    private var sharing: SharingService? { model.sync.map { SharingService(sync: $0) } }

    init(model: AppModel, parent: Widget, book: Book) {
        self.model = model
        self.book = book
        dialog = DialogWindow(parent: parent, title: tr("Share “%@”", book.name), width: 520)
        message = UI.label(tr("Asking the server…"), style: "dim-label", wrap: true)
        linkLabel = UI.label("", wrap: true)
        gtk_label_set_selectable(vocab_label(linkLabel), 1)
        codeLabel = UI.label("")
        gtk_label_set_selectable(vocab_label(codeLabel), 1)
        followers = UI.label("", style: "dim-label")
        sharedPart = UI.box(true, spacing: 4, [UI.label(tr("Link to follow it"), style: "caption-heading"), linkLabel,
                                               UI.label(tr("Code"), style: "caption-heading"), codeLabel, followers])
        UI.setVisible(sharedPart, false)
        listing = FormField(label: tr("Listed in the catalogue as (empty: by its link only)"), name: tr("Listed in the catalogue as"))
        languages = FormField(label: tr("Languages (like en-ko)"), name: tr("Languages"))
        shareButton = UI.button(tr("Share"), name: tr("Share"), style: "suggested-action") { }
        stopButton = UI.button(tr("Stop sharing"), name: tr("Stop sharing"), style: "destructive-action") { }
        UI.setVisible(stopButton, false)
        let close = UI.button(tr("Close"), name: tr("Close")) { }
        let buttons = UI.box(false, spacing: 6, [stopButton, close, shareButton])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        gtk_widget_set_margin_top(buttons, 8)
        UI.append(dialog.body, message, sharedPart, listing.row, languages.row, buttons)
        on(shareButton, "clicked") { [weak self] in self?.share() }
        on(stopButton, "clicked") { [weak self] in self?.stop() }
        on(close, "clicked") { [weak self] in self?.dialog.close() }
        load()
    }

    func present() { dialog.present() }
    var onClose: () -> Void {
        get { dialog.onClose }
        set { dialog.onClose = newValue }
    }

    /// Asks the server whether the book is shared already.
    private func load() {
        guard let sharing else { return say(tr("Cloud: no config folder")) }
        let id = book.id
        offMain({ Result { try sharing.sharedLink(of: id) } }, then: { [weak self] result in
            switch result {
            case .success(let shared):
                if let shared {
                    self?.show(shared)
                } else {
                    self?.say(tr("Anyone with its link or code can follow it: they get your changes at each sync, never your progress or your other books."))
                }
            case .failure(let error):
                self?.say(AppModel.message(error))
            }
        })
    }

    private func say(_ text: String) {
        UI.setText(message, text)
        UI.setVisible(message, true)
    }

    private func show(_ shared: SharedLink) {
        UI.setVisible(message, false)
        UI.setText(linkLabel, shared.link)
        UI.setText(codeLabel, shared.share.code)
        var detail = shared.share.followers == 1 ? tr("1 follower") : tr("%d followers", shared.share.followers)
        if shared.share.listed { detail += " · " + tr("Listed in the catalogue as shared by %@", shared.share.sharer) }
        UI.setText(followers, detail)
        UI.setVisible(sharedPart, true)
        UI.setVisible(stopButton, true)
        gtk_button_set_label(vocab_button(shareButton), tr("Change listing"))
        vocab_set_accessible_label(shareButton, tr("Change listing"))
        if shared.share.listed { UI.setText(entry: listing.entry, shared.share.sharer) }
        if !shared.share.languages.isEmpty { UI.setText(entry: languages.entry, shared.share.languages) }
    }

    private func share() {
        guard let sharing else { return }
        let shownAs = listing.text.trimmingCharacters(in: .whitespaces), langs = languages.text.trimmingCharacters(in: .whitespaces)
        let id = book.id
        say(tr("Syncing…"))
        UI.setSensitive(shareButton, false)
        model.background({ library in
            try sharing.share(id, in: library, listed: !shownAs.isEmpty, sharer: shownAs.isEmpty ? nil : shownAs,
                              languages: langs.isEmpty ? nil : langs)
        }) { [weak self] result in
            guard let self else { return }
            UI.setSensitive(shareButton, true)
            switch result {
            case .success(let shared): show(shared)
            case .failure(let error): say(AppModel.message(error))
            }
        }
    }

    private func stop() {
        guard let sharing else { return }
        let id = book.id, name = book.name
        offMain({ Result { try sharing.unshare(id) } }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                dialog.close()
                model.toast(tr("“%@” is no longer shared.", name))
            case .failure(let error):
                say(AppModel.message(error))
            }
        })
    }
}

/// "Follow…": a shared book by its link or code, or one found in the server's catalogue. A
/// follow syncs, so the book is on the shelf when the sheet closes.
@MainActor
final class FollowSheet {
    private let model: AppModel
    private let dialog: DialogWindow
    private let code: FormField
    private let search: Widget
    private let results: Widget
    private let message: Widget
    private var searching = 0
    private var sharing: SharingService? { model.sync.map { SharingService(sync: $0) } }

    init(model: AppModel, parent: Widget) {
        self.model = model
        dialog = DialogWindow(parent: parent, title: tr("Follow a shared book"), width: 520)
        code = FormField(label: tr("Its link or code"), name: tr("Its link or code"))
        let follow = UI.button(tr("Follow"), name: tr("Follow"), style: "suggested-action") { }
        gtk_widget_set_halign(follow, GTK_ALIGN_END)
        message = UI.label("", style: "error", wrap: true)
        UI.setVisible(message, false)
        search = gtk_search_entry_new()!
        vocab_set_accessible_label(search, tr("Search the catalogue"))
        results = UI.box(true, spacing: 8)
        let close = UI.button(tr("Close"), name: tr("Close")) { }
        gtk_widget_set_halign(close, GTK_ALIGN_END)
        let scroller = UI.scrolled(results)
        gtk_widget_set_size_request(scroller, -1, 220)
        UI.append(dialog.body, code.row, follow, message, UI.label(tr("Catalogue of shared books"), style: "heading"), search, scroller, close)
        on(follow, "clicked") { [weak self] in self?.follow(self?.code.text ?? "") }
        on(code.entry, "activate") { [weak self] in self?.follow(self?.code.text ?? "") }
        on(search, "search-changed") { [weak self] in self?.find() }
        on(close, "clicked") { [weak self] in self?.dialog.close() }
        find()
    }

    func present() { dialog.present() }
    var onClose: () -> Void {
        get { dialog.onClose }
        set { dialog.onClose = newValue }
    }

    private func say(_ text: String) {
        UI.setText(message, text)
        UI.setVisible(message, true)
    }

    /// The catalogue's books for what is typed (newest first), asked off the main thread; an
    /// answer to an older search is dropped.
    private func find() {
        guard let sharing else { return say(tr("Cloud: no config folder")) }
        searching += 1
        let asked = searching, text = UI.text(search)
        offMain({ Result { try sharing.catalog(CatalogQuery(text: text, limit: 20)) } }, then: { [weak self] result in
            guard let self, asked == searching else { return }
            UI.removeAll(results)
            switch result {
            case .success(let entries):
                if entries.isEmpty { UI.append(results, UI.label(tr("No shared book matches."), style: "dim-label")) }
                for entry in entries { UI.append(results, row(entry)) }
            case .failure(let error):
                UI.append(results, UI.label(AppModel.message(error), style: "dim-label", wrap: true))
            }
        })
    }

    private func row(_ entry: CatalogEntry) -> Widget {
        let languages = entry.languages.isEmpty ? "" : "[\(entry.languages)] "
        let text = UI.box(true, spacing: 2, [UI.label(entry.title, style: "heading"),
                                             UI.label(languages + [tr("by %@", entry.sharer), entry.words == 1 ? tr("1 word") : tr("%d words", entry.words),
                                                                  entry.followers == 1 ? tr("1 follower") : tr("%d followers", entry.followers)]
                                                                 .joined(separator: " · "), style: "dim-label", wrap: true)])
        UI.expand(text)
        let follow = UI.button(tr("Follow"), name: tr("Follow %@", entry.title)) { }
        gtk_widget_set_valign(follow, GTK_ALIGN_CENTER)
        let code = entry.code
        on(follow, "clicked") { [weak self] in self?.follow(code) }
        return UI.box(false, spacing: 12, [text, follow])
    }

    private func follow(_ text: String) {
        guard let sharing else { return }
        say(tr("Syncing…"))
        gtk_widget_remove_css_class(message, "error")
        model.background({ library in try sharing.follow(text, library: library).0 }) { [weak self] result in
            guard let self else { return }
            gtk_widget_add_css_class(message, "error")
            switch result {
            case .success(let followed):
                dialog.close()
                model.toast(tr("Following “%@”.", followed.title))
            case .failure(let error):
                say(AppModel.message(error))
            }
        }
    }
}
