import CGtk
import CVocabListModel
import Foundation
import VocabCore
import VocabSessions

/// A book's words: a lazy list (only the rows on screen are read from the store, so 100,000
/// words scroll like 100), search as you type (run off the main thread), a memorised toggle and
/// a due marker on each row; a click opens the word editor.
@MainActor
final class WordListScreen {
    let root: Widget
    var onBack: () -> Void = {}
    var onEditBook: () -> Void = {}
    /// The open book's "Share…", "Stop following" and "Copy" (a followed book's).
    var onShareBook: () -> Void = {}
    var onUnfollowBook: () -> Void = {}
    var onCopyBook: () -> Void = {}
    /// Called after a new list of keys is in the view.
    var onApplied: (() -> Void)?
    private let model: AppModel
    private let window: Widget
    private let title: Widget
    private let counts: Widget
    /// The book's own progress in a line: due this week, retention this month, the streak.
    private let progressLine: Widget
    private let search: Widget
    private let list: Widget
    private let empty: Widget
    private var book: BookSummary?
    private var keys: [Int64] = []
    /// How many words the list shows.
    var shownCount: Int { keys.count }
    private var rowKeys: [UnsafeMutableRawPointer: Int64] = [:]
    /// The list items on screen now (bound), to redraw in place when only their words changed.
    private var boundItems: Set<UnsafeMutableRawPointer> = []
    private var hasModel = false
    private var generation = 0
    private var editor: WordEditor?
    /// What the bar offers: an own book is edited and shared; a followed book is copied or
    /// no longer followed (its owner alone changes it).
    private var ownBookButtons: [Widget] = []
    private var followedBookButtons: [Widget] = []

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        title = UI.label("", style: "title-2")
        counts = UI.label("", style: "dim-label")
        progressLine = UI.label("", style: "dim-label")
        // Shortened rather than widening the window (the bar holds the search and the buttons too).
        gtk_label_set_ellipsize(vocab_label(progressLine), PANGO_ELLIPSIZE_END)
        search = gtk_search_entry_new()!
        vocab_set_accessible_label(search, tr("Search words"))
        gtk_widget_set_size_request(search, 260, -1)
        let back = UI.iconButton("go-previous-symbolic", name: tr("Back to books")) { }
        let add = UI.button(tr("Add word"), name: tr("Add word"), style: "suggested-action") { }
        let editBook = UI.button(tr("Edit book"), name: tr("Edit book")) { }
        let share = UI.button(tr("Share…"), name: tr("Share book")) { }
        let unfollow = UI.button(tr("Stop following"), name: tr("Stop following")) { }
        let copy = UI.button(tr("Copy"), name: tr("Copy to a book of your own")) { }
        ownBookButtons = [share, editBook, add]
        followedBookButtons = [unfollow, copy]
        let heading = UI.box(true, spacing: 0, [title, counts, progressLine])
        gtk_widget_set_hexpand(heading, 1)
        let bar = UI.box(false, spacing: 8, [back, heading, search, unfollow, copy, share, editBook, add])
        UI.margins(bar, 12)

        let factory = gtk_signal_list_item_factory_new()!
        list = gtk_list_view_new(nil, factory)!
        gtk_list_view_set_single_click_activate(vocab_list_view(list), 1)
        gtk_widget_add_css_class(list, "rich-list")
        vocab_set_accessible_label(list, tr("Words"))
        empty = UI.label(tr("No words here yet: add one, or import a file."), style: "dim-label", xalign: 0.5)
        UI.expand(empty)
        root = UI.box(true, spacing: 0, [bar, empty, UI.scrolled(list)])

        on(UnsafeMutableRawPointer(factory), "setup", pointer: { [weak self] item in self?.setUp(item) })
        on(UnsafeMutableRawPointer(factory), "bind", pointer: { [weak self] item in self?.bind(item) })
        on(UnsafeMutableRawPointer(factory), "unbind", pointer: { [weak self] item in
            if let item { self?.boundItems.remove(item) }
        })
        on(back, "clicked") { [weak self] in self?.onBack() }
        on(add, "clicked") { [weak self] in self?.edit(nil) }
        on(editBook, "clicked") { [weak self] in self?.onEditBook() }
        on(share, "clicked") { [weak self] in self?.onShareBook() }
        on(unfollow, "clicked") { [weak self] in self?.onUnfollowBook() }
        on(copy, "clicked") { [weak self] in self?.onCopyBook() }
        on(list, "activate", int: { [weak self] position in self?.activate(Int(position)) })
        on(search, "search-changed") { [weak self] in self?.reloadKeys() }
        model.onChange { [weak self] change in
            if change.words || change.reviews { self?.reloadKeys() }
            if change.reviews || change.words { self?.reloadProgress() }
        }
    }

    /// Shows the words of `book` (`followed`: a shared book the learner follows).
    func show(book: BookSummary, followed: Bool) {
        let changed = self.book?.book.id != book.book.id
        update(book: book)
        for button in ownBookButtons { UI.setVisible(button, !followed) }
        for button in followedBookButtons { UI.setVisible(button, followed) }
        if changed {
            UI.setText(entry: search, "")
            // A book's keys are one index walk (DESIGN.md §10): off the main thread too.
            reloadKeys()
        }
    }

    /// The book's name and counts changed.
    func update(book: BookSummary) {
        self.book = book
        UI.setText(title, book.book.name)
        UI.setText(counts, tr("%d words · %d memorised", book.wordCount, book.memorizedCount))
        reloadProgress()
    }

    /// The book's progress line, from its own report over 30 days (off the main thread).
    private func reloadProgress() {
        guard let bookId = book?.book.id else { return }
        let clock = model.clock, day = model.studyDay
        model.readInBackground({ library in
            try ProgressService.report(in: library, books: [bookId], days: 30, now: clock.now(), studyDay: day)
        }) { [weak self] result in
            guard let self, self.book?.book.id == bookId, case .success(let report) = result else { return }
            let month = report.retention.first { $0.period == .month }?.all.rate
            let line = tr("%d due this week · %@ passed this month · days in a row: %d",
                          report.dueAhead.thisWeek, ProgressScreen.percent(month), report.calendar.currentStreak)
            UI.setText(progressLine, line)
            gtk_widget_set_tooltip_text(progressLine, line)
        }
    }

    /// Reads the list's keys again (off the main thread, beside any write) for the current search.
    private func reloadKeys() {
        guard let bookId = book?.book.id else { return }
        let text = UI.text(search)
        generation += 1
        let asked = generation
        model.readInBackground({ library in try library.wordListKeys(bookId: bookId, search: text) }) { [weak self] result in
            guard let self, asked == self.generation else { return }
            switch result {
            case .success(let keys): self.apply(keys)
            case .failure(let error): self.model.toast(AppModel.message(error))
            }
        }
    }

    private func apply(_ keys: [Int64]) {
        if hasModel && keys == self.keys {
            // The same words in the same order (a star toggled, another process indexing or
            // editing): redraw the rows on screen in place, keeping the scroll position.
            for item in boundItems { bind(item) }
            onApplied?()
            return
        }
        hasModel = true
        self.keys = keys
        let rows = vocab_list_model_new()!
        vocab_list_model_reset(rows, guint(keys.count))
        let selection = gtk_no_selection_new(vocab_list_model(UnsafeMutableRawPointer(rows)))
        gtk_list_view_set_model(vocab_list_view(list), vocab_selection_model(UnsafeMutableRawPointer(selection)))
        g_object_unref(UnsafeMutableRawPointer(selection))
        UI.setVisible(empty, keys.isEmpty)
        UI.setText(empty, UI.text(search).isEmpty ? tr("No words here yet: add one, or import a file.") : tr("No word matches."))
        UI.setVisible(gtk_widget_get_parent(list), !keys.isEmpty)
        onApplied?()
    }

    private func setUp(_ item: UnsafeMutableRawPointer?) {
        guard let item else { return }
        let word = UI.label("", style: "heading")
        gtk_widget_set_size_request(word, 180, -1)
        let definition = UI.label("", style: "dim-label")
        gtk_label_set_ellipsize(vocab_label(definition), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(definition, 1)
        let due = UI.label("", style: "caption")
        let memorized = gtk_button_new()!
        gtk_widget_add_css_class(memorized, "flat")
        on(memorized, "clicked") { [weak self] in self?.toggleMemorized(UnsafeMutableRawPointer(memorized)) }
        let row = UI.box(false, spacing: 12, [word, definition, due, memorized])
        UI.margins(row, 4)
        gtk_list_item_set_child(vocab_list_item(item), row)
    }

    private func bind(_ item: UnsafeMutableRawPointer?) {
        guard let item else { return }
        boundItems.insert(item)
        guard let object = gtk_list_item_get_item(vocab_list_item(item)),
              let row = gtk_list_item_get_child(vocab_list_item(item)) else { return }
        let position = Int(vocab_row_get_position(OpaquePointer(object)))
        guard position < keys.count, let word = gtk_widget_get_first_child(row),
              let definition = gtk_widget_get_next_sibling(word), let due = gtk_widget_get_next_sibling(definition),
              let memorized = gtk_widget_get_next_sibling(due) else { return }
        rowKeys[UnsafeMutableRawPointer(memorized)] = keys[position]
        let data: WordListRow
        do {
            guard let found = try model.read({ try $0.wordListRow(key: keys[position]) }) else {
                UI.setText(word, "")  // deleted since the list was read: the list is read again at once
                return
            }
            data = found
        } catch {
            // Not a blank row: the word could not be read, and the row says so.
            UI.setText(word, tr("(cannot be read)"))
            UI.setText(definition, AppModel.message(error))
            UI.setText(due, "")
            return
        }
        UI.setText(word, data.word.word)
        UI.setText(definition, data.word.definition.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
        let now = model.clock.now()
        switch data.due {
        case nil: UI.setText(due, data.word.memorized ? "" : tr("new"))
        case let time? where time <= now: UI.setText(due, tr("due"))
        case let time?: UI.setText(due, WindowWording.button(ButtonInterval(time, from: now)))
        }
        gtk_button_set_icon_name(vocab_button(memorized), data.word.memorized ? "starred-symbolic" : "non-starred-symbolic")
        vocab_set_accessible_label(memorized, data.word.memorized ? tr("Memorised: %@", data.word.word) : tr("Not memorised: %@", data.word.word))
    }

    private func toggleMemorized(_ button: UnsafeMutableRawPointer) {
        guard let key = rowKeys[button] else { return }
        let now = model.clock.now()
        model.background({ library in
            guard let row = try library.wordListRow(key: key) else { return }
            try WordActions.toggleMemorized(row.word.id, in: library, now: now)
        }) { [weak self] result in
            if case .failure(let error) = result { self?.model.toast(AppModel.message(error)) }
        }
    }

    private func activate(_ position: Int) {
        guard position < keys.count else { return }
        do {
            if let row = try model.read({ try $0.wordListRow(key: keys[position]) }) { edit(row.word) }
        } catch {
            model.toast(AppModel.message(error))
        }
    }

    private func edit(_ word: Word?) {
        guard let book = book?.book else { return }
        let editor = WordEditor(model: model, parent: window, book: book, word: word)
        editor.onClose = { [weak self] in self?.editor = nil }
        self.editor = editor
        editor.present()
    }
}
