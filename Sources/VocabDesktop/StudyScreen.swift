import CGtk
import Foundation
import VocabCore
import VocabSessions

/// Study (FSRS-6): the due word, Show answer, then four rating buttons that show the interval
/// each would give, as Anki does. When nothing is due it says when the next review is, and it
/// picks up words that arrive later.
@MainActor
final class StudyScreen {
    let root: Widget
    private let model: AppModel
    private let position: Widget
    private let word: Widget
    private let pronunciation: Widget
    private let reveal: Widget
    private let answer: Widget
    private let extras: Widget
    private let ratings: Widget
    private var ratingButtons: [Rating: Widget] = [:]
    private let status: Widget
    private let card: Widget
    private var session: StudySession?
    private var names: [UUID: String] = [:]
    private var revealed = false
    /// Why there is no card, worked out with the queue (on the worker).
    private var idle: NothingToStudy?
    /// A grade is on its way to the store.
    private var grading = false

    static func name(_ rating: Rating) -> String {
        switch rating {
        case .again: return tr("Again")
        case .hard: return tr("Hard")
        case .good: return tr("Good")
        case .easy: return tr("Easy")
        }
    }

    /// `tools` sits at the top of the page (the optimiser's button).
    init(model: AppModel, tools: Widget) {
        self.model = model
        position = UI.label("", style: "dim-label", xalign: 0.5)
        word = UI.label("", style: "title-1", wrap: true, xalign: 0.5)
        pronunciation = UI.label("", style: "dim-label", xalign: 0.5)
        reveal = UI.button(tr("Show answer"), name: tr("Show answer"), style: "suggested-action") { }
        answer = UI.label("", style: "title-3", wrap: true, xalign: 0.5)
        extras = UI.label("", style: "dim-label", wrap: true, xalign: 0.5)
        for label in [word, answer, extras] { gtk_label_set_max_width_chars(vocab_label(label), 40) }
        ratings = UI.box(false, spacing: 6)
        gtk_box_set_homogeneous(vocab_box(ratings), 1)
        for rating in Rating.allCases {
            let button = UI.button(StudyScreen.name(rating), name: StudyScreen.name(rating)) { }
            ratingButtons[rating] = button
            UI.append(ratings, button)
        }
        status = adw_status_page_new()!
        adw_status_page_set_icon_name(vocab_status_page(status), "emblem-ok-symbolic")
        UI.expand(status)
        card = UI.box(true, spacing: 12, [position, word, pronunciation, reveal, answer, extras, ratings])
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(card, 460, -1)
        UI.expand(card)
        let toolbar = UI.box(false, spacing: 6, [tools])
        gtk_widget_set_halign(toolbar, GTK_ALIGN_END)
        UI.margins(toolbar, 8)
        root = UI.box(true, spacing: 0, [toolbar, status, card])

        on(reveal, "clicked") { [weak self] in self?.showAnswer() }
        for (rating, button) in ratingButtons {
            on(button, "clicked") { [weak self] in self?.grade(rating) }
        }
        model.onChange { [weak self] change in
            guard let self, change.words || change.reviews || change.books else { return }
            // A card whose answer is showing stays (the learner is rating it); otherwise the
            // queue is built again, so what arrived or was reviewed elsewhere counts.
            if !self.revealed { self.restart() }
        }
        restart()
    }

    /// Builds the queue again from the store as it is now, on the worker (up to 10,000 due
    /// words at 100,000: not the main thread's work), then shows its first card.
    func restart() {
        let clock = model.clock, day = model.studyDay
        model.background({ library -> (StudySession, [UUID: String], NothingToStudy?) in
            let session = try StudySession(library: library, bookIds: nil, day: day, clock: clock)
            let idle = session.current == nil ? try StudySession.nothingToStudy(library: library, bookIds: nil) : nil
            return (session, try library.bookNames(), idle)
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (session, names, idle)):
                self.session = session
                self.names = names
                self.idle = idle
                show()
            case .failure(let error):
                model.toast(AppModel.message(error))
            }
        }
    }

    private func show() {
        guard let session, let current = session.current else {
            let done = (session?.graded ?? 0) > 0
            adw_status_page_set_title(vocab_status_page(status), done ? tr("Studied %d words", session?.graded ?? 0) : tr("All done for now"))
            let description: String
            switch idle {
            case .noWords?: description = tr("No words yet: add some on the Books page.")
            case .nothingDue(let next)?: description = tr("Nothing to study now. %@", WindowWording.nextReview(next, from: model.clock.now()))
            case nil: description = ""
            }
            adw_status_page_set_description(vocab_status_page(status), description)
            UI.setVisible(status, true)
            UI.setVisible(card, false)
            return
        }
        UI.setVisible(status, false)
        UI.setVisible(card, true)
        UI.setText(position, "\(session.position + 1)/\(session.cards.count) · \(current.isDue ? tr("due") : tr("new")) · \(names[current.word.bookId] ?? "")")
        UI.setText(word, current.word.word)
        UI.setText(pronunciation, current.word.pronunciation.isEmpty ? "" : "[\(current.word.pronunciation)]")
        UI.setText(answer, current.word.definition.isEmpty ? tr("(no definition)") : current.word.definition)
        let lines = [(tr("Synonym"), current.word.synonym), (tr("Antonym"), current.word.antonym), (tr("Detail"), current.word.detail)]
            .filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }
        UI.setText(extras, lines.joined(separator: "\n"))
        let now = model.clock.now()
        for (rating, due) in session.nextDue() {
            guard let button = ratingButtons[rating] else { continue }
            let interval = WindowWording.button(ButtonInterval(due, from: now))
            gtk_button_set_label(vocab_button(button), "\(StudyScreen.name(rating))\n\(interval)")
            if let label = gtk_button_get_child(vocab_button(button)) {
                gtk_label_set_justify(vocab_label(label), GTK_JUSTIFY_CENTER)
                gtk_label_set_xalign(vocab_label(label), 0.5)
            }
            vocab_set_accessible_label(button, "\(StudyScreen.name(rating)) (\(interval))")
        }
        setRevealed(false)
    }

    private func setRevealed(_ shown: Bool) {
        revealed = shown
        UI.setVisible(reveal, !shown)
        UI.setVisible(answer, shown)
        UI.setVisible(extras, shown)
        UI.setVisible(ratings, shown)
        if !shown { gtk_widget_grab_focus(reveal) }
    }

    private func showAnswer() {
        setRevealed(true)
    }

    private func grade(_ rating: Rating) {
        guard let session, !grading else { return }
        grading = true  // one grade at a time: the session goes to the worker and back
        model.background({ library -> (Schedule?, NothingToStudy?) in
            let schedule = try session.grade(rating)
            let idle = session.current == nil ? try StudySession.nothingToStudy(library: library, bookIds: nil) : nil
            return (schedule, idle)
        }) { [weak self] result in
            guard let self else { return }
            grading = false
            switch result {
            case .success(let (schedule, idle)):
                if let schedule { model.toast(WindowWording.nextReview(schedule.due, from: model.clock.now())) }
                self.idle = idle
                show()
            case .failure(let error):
                model.toast(AppModel.message(error))
            }
        }
    }
}
