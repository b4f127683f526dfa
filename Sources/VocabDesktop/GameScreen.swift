import CGtk
import Foundation
import VocabCore
import VocabSessions

/// The test game: pick a book (or all), a mode and a count; then one question per screen with
/// clickable options (or number keys), the verdict in colour, and the score with the words to
/// review at the end. Starting reads the store as it is now, so books and words that arrived
/// after the screen was made are played (the original app's bug).
@MainActor
final class GameScreen {
    let root: Widget
    private let model: AppModel
    private let window: Widget
    private let pages: Widget
    // Setup
    private var bookChoice: Widget
    private let setupBox: Widget
    private let modeChoice: Widget
    private let countChoice: Widget
    private let setupError: Widget
    private var bookIds: [UUID?] = []
    // Play
    private let progress: Widget
    private let prompt: Widget
    private let hint: Widget
    private let options: Widget
    private let answerEntry: Widget
    private let checkButton: Widget
    private let revealButton: Widget
    private let expected: Widget
    private let grades: Widget
    private let verdictLabel: Widget
    private let nextButton: Widget
    // Summary
    private let score: Widget
    private let review: Widget
    private let memorizeBox: Widget
    private let memorizeLabel: Widget
    private var game: GameSession?
    private var candidates: [Word] = []
    /// An answer is on its way to the store.
    private var answering = false

    private static let modes: [GameMode] = [.choice, .reverse, .spelling, .flashcard]
    private static let counts = GamePlanner.questionCounts

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        pages = gtk_stack_new()!
        root = pages

        // Setup page.
        bookChoice = UI.dropDown([], name: tr("Book to play"))
        modeChoice = UI.dropDown([tr("Choice: word → meaning"), tr("Reverse: meaning → word"), tr("Spelling: type the word"),
                                  tr("Flashcard: grade yourself")], name: tr("Game mode"))
        countChoice = UI.dropDown(GameScreen.counts.map { tr("%d questions", $0) }, name: tr("Number of questions"))
        gtk_drop_down_set_selected(vocab_drop_down(countChoice), guint(GameScreen.counts.firstIndex(of: GamePlanner.defaultCount) ?? 0))
        setupError = UI.label("", style: "error", wrap: true)
        gtk_label_set_max_width_chars(vocab_label(setupError), 40)
        UI.setVisible(setupError, false)
        let start = UI.button(tr("Start"), name: tr("Start game"), style: "suggested-action") { }
        setupBox = UI.box(true, spacing: 12, [UI.label(tr("Test yourself"), style: "title-1", xalign: 0.5),
                                              bookChoice, modeChoice, countChoice, start, setupError])
        gtk_widget_set_halign(setupBox, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(setupBox, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(setupBox, 380, -1)
        gtk_stack_add_named(vocab_stack(pages), setupBox, "setup")

        // Play page.
        progress = UI.label("", style: "dim-label", xalign: 0.5)
        prompt = UI.label("", style: "title-1", wrap: true, xalign: 0.5)
        hint = UI.label("", style: "dim-label", wrap: true, xalign: 0.5)
        options = UI.box(true, spacing: 6)
        answerEntry = UI.entry(name: tr("Your answer"), placeholder: tr("Type the word"))
        checkButton = UI.button(tr("Check"), name: tr("Check answer"), style: "suggested-action") { }
        revealButton = UI.button(tr("Show answer"), name: tr("Show answer")) { }
        expected = UI.label("", style: "title-3", wrap: true, xalign: 0.5)
        grades = UI.box(false, spacing: 6)
        gtk_box_set_homogeneous(vocab_box(grades), 1)
        verdictLabel = UI.label("", style: "title-3", wrap: true, xalign: 0.5)
        for label in [prompt, hint, expected, verdictLabel] { gtk_label_set_max_width_chars(vocab_label(label), 40) }
        nextButton = UI.button(tr("Next"), name: tr("Next question"), style: "suggested-action") { }
        let quit = UI.button(tr("Stop"), name: tr("Stop game"), style: "flat") { }
        let play = UI.box(true, spacing: 12, [progress, prompt, hint, options, answerEntry, checkButton, revealButton, expected,
                                              grades, verdictLabel, nextButton, quit])
        gtk_widget_set_halign(play, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(play, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(play, 460, -1)
        gtk_stack_add_named(vocab_stack(pages), play, "play")

        // Summary page.
        score = UI.label("", style: "title-1", xalign: 0.5)
        review = UI.label("", wrap: true, xalign: 0.5)
        memorizeLabel = UI.label("", wrap: true, xalign: 0.5)
        let memorize = UI.button(tr("Mark them memorised"), name: tr("Mark them memorised")) { }
        memorizeBox = UI.box(true, spacing: 6, [memorizeLabel, memorize])
        let again = UI.button(tr("Play again"), name: tr("Play again"), style: "suggested-action") { }
        let summary = UI.box(true, spacing: 12, [score, review, memorizeBox, again])
        gtk_widget_set_halign(summary, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(summary, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(summary, 460, -1)
        gtk_stack_add_named(vocab_stack(pages), summary, "summary")

        for rating in Rating.allCases {
            let button = UI.button("\(rating.rawValue) · \(StudyScreen.name(rating))", name: StudyScreen.name(rating)) { [weak self] in
                self?.grade(rating)
            }
            UI.append(grades, button)
        }
        on(start, "clicked") { [weak self] in self?.start() }
        on(checkButton, "clicked") { [weak self] in self?.answer(.typed(UI.text(self?.answerEntry ?? start))) }
        on(answerEntry, "activate") { [weak self] in
            guard let self else { return }
            if game?.verdict != nil { next() } else { answer(.typed(UI.text(answerEntry))) }
        }
        on(revealButton, "clicked") { [weak self] in self?.reveal() }
        on(nextButton, "clicked") { [weak self] in self?.next() }
        on(quit, "clicked") { [weak self] in self?.finish() }
        on(memorize, "clicked") { [weak self] in self?.memorize() }
        on(again, "clicked") { [weak self] in self?.showSetup() }
        model.onChange { [weak self] change in
            if change.books, let self, String(cString: gtk_stack_get_visible_child_name(vocab_stack(pages))) == "setup" {
                self.reloadBooks()
            }
        }
        reloadBooks()
    }

    /// The books to choose from, read again (books that arrive later appear).
    private func reloadBooks() {
        let summaries: [BookSummary]
        do {
            summaries = try model.read { try $0.bookSummaries() }
        } catch {
            model.toast(AppModel.message(error))  // the list stays as it was
            return
        }
        let previous = bookIds.isEmpty ? nil : bookIds[min(UI.selected(bookChoice), bookIds.count - 1)]
        bookIds = summaries.count == 1 ? [summaries[0].book.id] : [nil] + summaries.map(\.book.id)
        let names = summaries.count == 1 ? [summaries[0].book.name] : [tr("All books")] + summaries.map(\.book.name)
        let replacement = UI.dropDown(names, name: tr("Book to play"))
        gtk_box_insert_child_after(vocab_box(setupBox), replacement, gtk_widget_get_first_child(setupBox))
        gtk_box_remove(vocab_box(setupBox), bookChoice)
        bookChoice = replacement
        if let previous, let index = bookIds.firstIndex(of: previous) {
            gtk_drop_down_set_selected(vocab_drop_down(bookChoice), guint(index))
        }
    }

    private func showSetup() {
        reloadBooks()
        gtk_stack_set_visible_child_name(vocab_stack(pages), "setup")
    }

    /// Plans the game on the worker (from the store as it is now; each answer is saved there
    /// too), then shows its first question.
    private func start() {
        UI.setVisible(setupError, false)
        let chosen = bookIds.isEmpty ? nil : Optional(bookIds[min(UI.selected(bookChoice), bookIds.count - 1)])
        let configuration = GameConfiguration(mode: GameScreen.modes[UI.selected(modeChoice)],
                                              count: GameScreen.counts[UI.selected(countChoice)])
        let clock = model.clock
        model.background({ library -> GameSession in
            guard let chosen else { throw GameSetupError.noBooks }
            return try GameSession(library: library, bookIds: chosen.map { [$0] }, configuration: configuration, clock: clock)
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let game):
                self.game = game
                if let note = game.note { model.toast(note) }
                gtk_stack_set_visible_child_name(vocab_stack(pages), "play")
                showQuestion()
            case .failure(let error):
                UI.setText(setupError, WindowWording.message(for: error))
                UI.setVisible(setupError, true)
            }
        }
    }

    private func showQuestion() {
        guard let game, let question = game.current else { return finish() }
        let mode = game.configuration.mode
        UI.setText(progress, tr("Question %d of %d", game.index + 1, game.questions.count))
        UI.setText(prompt, question.prompt)
        UI.setText(hint, question.hint ?? "")
        UI.setVisible(hint, question.hint != nil)
        UI.removeAll(options)
        for (index, option) in question.options.enumerated() {
            let button = UI.button("\(index + 1). \(option)", name: "\(index + 1). \(option)") { [weak self] in
                self?.answer(.choice(index))
            }
            if let label = gtk_button_get_child(vocab_button(button)) {
                gtk_label_set_wrap(vocab_label(label), 1)
                gtk_label_set_max_width_chars(vocab_label(label), 48)
                gtk_label_set_xalign(vocab_label(label), 0)
            }
            UI.append(options, button)
        }
        let typed = mode != .flashcard && question.options.isEmpty
        UI.setVisible(options, !question.options.isEmpty)
        UI.setVisible(answerEntry, typed)
        UI.setVisible(checkButton, typed)
        UI.setText(entry: answerEntry, "")
        UI.setSensitive(answerEntry, true)
        UI.setVisible(revealButton, mode == .flashcard)
        UI.setVisible(expected, false)
        UI.setVisible(grades, false)
        UI.setVisible(verdictLabel, false)
        UI.setVisible(nextButton, false)
        if typed { gtk_widget_grab_focus(answerEntry) }
    }

    /// Judges and saves the answer on the worker (one at a time), then shows the verdict.
    private func answer(_ answer: GameAnswer) {
        guard let game, game.verdict == nil, !answering else { return }
        answering = true
        model.background({ library in try game.answer(answer, in: library) }) { [weak self] result in
            guard let self else { return }
            answering = false
            switch result {
            case .success(let verdict?): show(verdict)
            case .success(nil): model.toast(WindowWording.expected(game.expectedAnswer))
            case .failure(let error): model.toast(AppModel.message(error))
            }
        }
    }

    private func reveal() {
        guard let question = game?.current else { return }
        UI.setText(expected, question.expected)
        UI.setVisible(expected, true)
        UI.setVisible(grades, true)
        UI.setVisible(revealButton, false)
    }

    private func grade(_ rating: Rating) {
        guard let game, game.verdict == nil, !answering else { return }
        answering = true
        model.background({ library in try game.grade(rating, in: library) }) { [weak self] result in
            guard let self else { return }
            answering = false
            switch result {
            case .success(let verdict): if let verdict { show(verdict) }
            case .failure(let error): model.toast(AppModel.message(error))
            }
        }
    }

    private func show(_ verdict: GameVerdict) {
        UI.setText(verdictLabel, verdict.correct ? tr("✓ Right: %@", verdict.answer) : tr("✗ Wrong — the answer is %@", verdict.answer))
        gtk_widget_remove_css_class(verdictLabel, verdict.correct ? "error" : "success")
        gtk_widget_add_css_class(verdictLabel, verdict.correct ? "success" : "error")
        UI.setVisible(verdictLabel, true)
        UI.setVisible(grades, false)
        UI.setSensitive(answerEntry, false)
        var child = gtk_widget_get_first_child(options)
        while let button = child {
            UI.setSensitive(button, false)
            child = gtk_widget_get_next_sibling(button)
        }
        UI.setVisible(nextButton, true)
        gtk_widget_grab_focus(nextButton)
    }

    private func next() {
        guard let game, game.verdict != nil else { return }
        game.advance()
        if game.current == nil { finish() } else { showQuestion() }
    }

    private func finish() {
        guard let game else { return showSetup() }
        model.background({ library in (try game.finish(in: library), try game.memorizeCandidates(in: library)) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (summary, candidates)):
                UI.setText(score, tr("Score: %d/%d (%d%%)", summary.right, summary.answered, summary.percent))
                let wrong = summary.wrongWords.map { "\($0.word) — \($0.definition.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")" }
                UI.setText(review, wrong.isEmpty ? (summary.answered > 0 ? tr("Nothing to review: all right!") : "")
                                                 : tr("To review:") + "\n" + wrong.joined(separator: "\n"))
                self.candidates = candidates
                UI.setText(memorizeLabel, tr("Right %d times in a row: %@.", game.configuration.memorizeAfter,
                                             candidates.map(\.word).joined(separator: ", ")))
                UI.setVisible(memorizeBox, !candidates.isEmpty)
            case .failure(let error):
                model.toast(AppModel.message(error))
            }
            gtk_stack_set_visible_child_name(vocab_stack(pages), "summary")
        }
    }

    private func memorize() {
        guard let game else { return }
        let chosen = candidates
        model.background({ library in try game.memorize(chosen, in: library) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                model.toast(tr("Marked %d words memorised.", chosen.count))
                UI.setVisible(memorizeBox, false)
            case .failure(let error):
                model.toast(AppModel.message(error))
            }
        }
    }

    /// Number keys answer choice questions and grade flashcards; Enter goes on.
    func handleKey(_ keyval: UInt32, state: GdkModifierType) -> Bool {
        guard let game, game.current != nil,
              String(cString: gtk_stack_get_visible_child_name(vocab_stack(pages))) == "play" else { return false }
        if game.verdict != nil {
            guard keyval == UInt32(GDK_KEY_Return) || keyval == UInt32(GDK_KEY_KP_Enter) else { return false }
            next()
            return true
        }
        let number = Int(keyval) - Int(GDK_KEY_0)
        guard (1...9).contains(number) else { return false }
        if game.configuration.mode == .flashcard {
            guard gtk_widget_get_visible(grades) != 0, let rating = Rating(rawValue: number) else { return false }
            grade(rating)
            return true
        }
        guard let question = game.current, number <= question.options.count else { return false }
        answer(.choice(number - 1))
        return true
    }
}
