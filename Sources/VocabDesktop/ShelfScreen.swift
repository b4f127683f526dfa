import CGtk
import Foundation
import VocabCore
import VocabSessions

/// The book shelf: every book as a card with its cover, name, explain and counts; a click opens
/// its word list. New books from the button; the shelf follows the store live.
@MainActor
final class ShelfScreen {
    let root: Widget
    private let model: AppModel
    private let window: Widget
    private let cards: Widget
    private let empty: Widget
    private let pages: Widget
    private(set) var wordList: WordListScreen?
    private var editor: BookEditor?
    private var shareSheet: ShareSheet?
    private var followSheet: FollowSheet?
    /// The books followed (shared by others), by id: read-only here.
    private var followed: Set<UUID> = []
    /// The book whose words are shown, if any.
    private(set) var openBook: Book?
    /// The books the cards show now.
    private var shownBooks: [ShelfBook]?
    /// The shelf as last read, by book id (opening a book needs no second count of its words).
    private var summaries: [UUID: BookSummary] = [:]
    /// Each card's line of counts, by book id: what a sync's words landing change in place.
    private var countLines: [UUID: Widget] = [:]
    /// Whether the shelf was read once, and what waits for that.
    private var loaded = false
    private var whenLoaded: [@MainActor () -> Void] = []

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        cards = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(vocab_flow_box(cards), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(vocab_flow_box(cards), 1)
        gtk_flow_box_set_max_children_per_line(vocab_flow_box(cards), 6)
        gtk_flow_box_set_column_spacing(vocab_flow_box(cards), 12)
        gtk_flow_box_set_row_spacing(vocab_flow_box(cards), 12)
        gtk_widget_set_valign(cards, GTK_ALIGN_START)
        UI.margins(cards, 18)

        empty = adw_status_page_new()!
        adw_status_page_set_icon_name(vocab_status_page(empty), "accessories-dictionary-symbolic")
        adw_status_page_set_title(vocab_status_page(empty), tr("No books yet"))
        adw_status_page_set_description(vocab_status_page(empty), tr("A book holds the words you learn together. Make your first one."))
        UI.expand(empty)
        let starter = UI.button(tr("Add 300 common English words"), name: tr("Add the starter book"), style: "pill") { }
        gtk_widget_set_halign(starter, GTK_ALIGN_CENTER)
        adw_status_page_set_child(vocab_status_page(empty), starter)

        let shelf = UI.box(true, spacing: 0)
        pages = gtk_stack_new()!
        gtk_stack_set_transition_type(vocab_stack(pages), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        root = pages
        let newBook = UI.button(tr("New book"), name: tr("New book"), style: "suggested-action") { [weak self] in self?.editBook(nil) }
        let follow = UI.button(tr("Follow…"), name: tr("Follow a shared book")) { [weak self] in self?.showFollow() }
        let bar = UI.box(false, spacing: 6, [UI.label(tr("Your books"), style: "title-2"), follow, newBook])
        gtk_widget_set_hexpand(gtk_widget_get_first_child(bar), 1)
        UI.margins(bar, 12)
        UI.append(shelf, bar, empty, UI.scrolled(cards))
        gtk_stack_add_named(vocab_stack(pages), shelf, "shelf")

        on(starter, "clicked") { [weak self] in self?.addStarterBook() }
        model.onChange { [weak self] change in
            if change.books || change.words || change.reviews { self?.reload() }
        }
        reload()
        wordListScreen()
    }

    /// Reads the shelf again from the store, off the main thread (its counts grow with the
    /// store); the cards are made anew only when the books or their names or covers changed
    /// (new counts change in the cards; a change elsewhere, or another process indexing, leaves
    /// them and their focus be).
    func reload() {
        let now = model.clock.now()
        model.readInBackground({ library in try Shelf.books(in: library, at: now) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let books): show(books)
            case .failure(let error): model.toast(AppModel.message(error))
            }
            loaded = true
            let waiting = whenLoaded
            whenLoaded = []
            for then in waiting { then() }
        }
    }

    private func show(_ books: [ShelfBook]) {
        guard books != shownBooks else { return }
        let countsOnly = shownBooks.map { Self.differInCountsOnly($0, books) } ?? false
        shownBooks = books
        summaries = Dictionary(books.map { ($0.book.id, $0.summary) }, uniquingKeysWith: { first, _ in first })
        followed = Set(books.filter { $0.sharedBy != nil }.map(\.book.id))
        UI.setVisible(empty, books.isEmpty)
        UI.setVisible(gtk_widget_get_parent(cards), !books.isEmpty)
        if countsOnly {
            // The same books with other counts (words arriving by a sync, a review): the cards
            // stay and their counts change, so a press on a card is never lost to it being made anew.
            for item in books {
                if let line = countLines[item.book.id] { gtk_label_set_text(vocab_label(line), Self.countsText(item)) }
            }
        } else {
            while let child = gtk_widget_get_first_child(cards) { gtk_flow_box_remove(vocab_flow_box(cards), child) }
            countLines = [:]
            for item in books { gtk_flow_box_append(vocab_flow_box(cards), card(for: item)) }
        }
        if let open = openBook, !books.contains(where: { $0.book.id == open.id }) { closeBook() }
        if let open = openBook, let fresh = books.first(where: { $0.book.id == open.id }) {
            openBook = fresh.book
            wordList?.show(book: fresh.summary, followed: followed.contains(open.id))
        }
    }

    private func card(for item: ShelfBook) -> Widget {
        let book = item.book
        let cover: Widget
        if let image = book.image, let texture = Cover.texture(image) {
            cover = gtk_image_new_from_paintable(texture)!
            gtk_image_set_pixel_size(OpaquePointer(cover), 140)
            g_object_unref(UnsafeMutableRawPointer(texture))
        } else {
            cover = UI.label(String(book.name.prefix(1)).uppercased(), style: "title-1", xalign: 0.5)
            gtk_widget_add_css_class(cover, "dim-label")
        }
        gtk_widget_set_size_request(cover, 140, 140)
        let body = UI.box(true, spacing: 4, [cover, UI.label(book.name, style: "heading", xalign: 0.5)])
        if !book.explain.isEmpty { UI.append(body, UI.label(book.explain, style: "dim-label", wrap: true, xalign: 0.5)) }
        if let sharer = item.sharedBy {
            UI.append(body, UI.label(sharer.isEmpty ? tr("Shared") : tr("Shared by %@", sharer), style: "accent", xalign: 0.5))
        }
        let counts = UI.label(Self.countsText(item), style: "caption", xalign: 0.5)
        countLines[book.id] = counts
        UI.append(body, counts)
        UI.margins(body, 6)
        let button = gtk_button_new()!
        gtk_button_set_child(vocab_button(button), body)
        gtk_widget_add_css_class(button, "card")
        vocab_set_accessible_label(button, tr("Open book %@", book.name))
        let id = book.id
        on(button, "clicked") { [weak self] in self?.open(bookId: id) }
        return button
    }

    /// A card's line of counts: words, memorised, due.
    private static func countsText(_ item: ShelfBook) -> String {
        var counts = item.summary.wordCount == 1 ? tr("1 word") : tr("%d words", item.summary.wordCount)
        if item.summary.memorizedCount > 0 { counts += " · " + tr("%d memorised", item.summary.memorizedCount) }
        if item.dueCount > 0 { counts += " · " + tr("%d due", item.dueCount) }
        return counts
    }

    /// Whether the shelf holds the same books, as they were, in the same order: only their
    /// counts differ.
    static func differInCountsOnly(_ shown: [ShelfBook], _ books: [ShelfBook]) -> Bool {
        shown.count == books.count && zip(shown, books).allSatisfy { $0.book == $1.book && $0.sharedBy == $1.sharedBy }
    }

    /// The ready-made book of common words, for a first look (WordNet 3.0).
    private func addStarterBook() {
        let now = model.clock.now()
        model.background({ library in try StarterBook.add(to: library, now: now) }) { [weak self] result in
            switch result {
            case .success: self?.model.toast(tr("Added the book %@ with %d words.", StarterBook.name, StarterWords.words.count))
            case .failure(let error): self?.model.toast(AppModel.message(error))
            }
        }
    }

    /// Opens the book with the most words; `shown` is called once its list is on screen.
    func openBiggestBook(shown: @escaping @MainActor () -> Void) {
        guard loaded else { return whenLoaded.append { [weak self] in self?.openBiggestBook(shown: shown) } }
        guard let biggest = summaries.values.max(by: { $0.wordCount < $1.wordCount }) else { return shown() }
        wordListScreen().onApplied = { [weak self] in
            self?.wordList?.onApplied = nil
            shown()
        }
        open(bookId: biggest.book.id)
    }

    private func open(bookId: UUID) {
        do {
            let summary = try summaries[bookId] ?? model.read { try $0.bookSummary(id: bookId) }
            openBook = summary.book
            wordListScreen().show(book: summary, followed: followed.contains(bookId))
            showPage("words")
        } catch {
            model.toast(AppModel.message(error))
        }
    }

    /// The word list page, made once (and early: opening a book then costs only its words).
    @discardableResult
    private func wordListScreen() -> WordListScreen {
        if let wordList { return wordList }
        let list = WordListScreen(model: model, window: window)
        list.onBack = { [weak self] in self?.closeBook() }
        list.onEditBook = { [weak self] in self?.editBook(self?.openBook) }
        list.onShareBook = { [weak self] in self?.showShare() }
        list.onUnfollowBook = { [weak self] in self?.unfollowOpenBook() }
        list.onCopyBook = { [weak self] in self?.copyOpenBook() }
        wordList = list
        gtk_stack_add_named(vocab_stack(pages), list.root, "words")
        return list
    }

    private func closeBook() {
        openBook = nil
        showPage("shelf")
    }

    /// Shows one page and hides the other, so that what is not on screen is not visible to
    /// assistive technology either (GTK 4.8 reports no SHOWING state: a screen reader, or a
    /// test, could otherwise find and press a button of the page underneath).
    private func showPage(_ name: String) {
        guard let shown = gtk_stack_get_child_by_name(vocab_stack(pages), name) else { return }
        gtk_widget_set_visible(shown, 1)
        gtk_stack_set_visible_child(vocab_stack(pages), shown)
        var child = gtk_widget_get_first_child(pages)
        while let page = child {
            if page != shown { gtk_widget_set_visible(page, 0) }
            child = gtk_widget_get_next_sibling(page)
        }
    }

    private func showShare() {
        guard let book = openBook else { return }
        let sheet = ShareSheet(model: model, parent: window, book: book)
        sheet.onClose = { [weak self] in self?.shareSheet = nil }
        shareSheet = sheet
        sheet.present()
    }

    private func showFollow() {
        let sheet = FollowSheet(model: model, parent: window)
        sheet.onClose = { [weak self] in self?.followSheet = nil }
        followSheet = sheet
        sheet.present()
    }

    /// Stops following the open book (after asking): it goes from this computer now and from
    /// the learner's other devices at their next sync.
    private func unfollowOpenBook() {
        guard let book = openBook, let service = model.sync else { return }
        Confirm.ask(parent: window, heading: tr("Stop following"),
                    body: tr("Stop following “%@”? It goes from your devices; copy it first to keep its words.", book.name),
                    action: tr("Stop following")) { [weak self] in
            let sharing = SharingService(sync: service), id = book.id
            self?.model.background({ library in try sharing.unfollow(id, library: library) }) { [weak self] result in
                if case .failure(let error) = result { self?.model.toast(AppModel.message(error)) }
            }
        }
    }

    /// Copies the open book into a new one of the learner's own, with his progress on it.
    private func copyOpenBook() {
        guard let book = openBook else { return }
        let id = book.id, name = tr("%@ (copy)", book.name), now = model.clock.now()
        model.background({ library in try BookActions.copy(id, named: name, in: library, now: now) }) { [weak self] result in
            switch result {
            case .success(let (copy, count)):
                self?.model.toast(tr("Copied “%@” to “%@” (%d words): yours to change.", book.name, copy.name, count))
            case .failure(let error):
                self?.model.toast(AppModel.message(error))
            }
        }
    }

    private func editBook(_ book: Book?) {
        let editor = BookEditor(model: model, parent: window, book: book)
        editor.onSaved = { [weak self] saved in
            self?.editor = nil
            if book == nil { self?.open(bookId: saved.id) }
        }
        self.editor = editor
        editor.present()
    }
}

/// Book covers as textures.
enum Cover {
    /// A texture of the image bytes (PNG, JPEG, GIF or WebP), or nil when GDK cannot read them.
    static func texture(_ bytes: [UInt8]) -> OpaquePointer? {
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        return gdk_texture_new_from_bytes(data, nil)
    }
}
