import CGtk
import Foundation
import VocabCore
import VocabSessions

/// "Fit to my reviews…" on the Study page: a sheet that fits FSRS-6 to the learner's own log
/// on the worker (progress and Cancel), says what it found, and keeps the fit only when it
/// predicts the reviews better — what `vocab optimize` does, through the same session. The
/// recall to aim at (`vocab optimize --retention`) is set there too.
@MainActor
final class OptimizePanel {
    let button: Widget
    private let model: AppModel
    private let window: Widget
    private var running: CancelFlag?
    private var sheet: (dialog: DialogWindow, state: Widget, result: Widget, bar: Widget, fit: Widget, reset: Widget, cancel: Widget,
                        retention: Widget, apply: Widget)?

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        button = UI.button(tr("Fit to my reviews…"), name: tr("Fit to my reviews…")) { }
        on(button, "clicked") { [weak self] in self?.show() }
    }

    private func show() {
        let dialog = DialogWindow(parent: window, title: tr("Fit the scheduler to your reviews"), width: 520)
        let intro = UI.label(tr("Vocab schedules with FSRS-6. Its parameters can be fitted to your own reviews; the fit is kept only if it predicts them better than the parameters in force."), wrap: true)
        let state = UI.label("", style: "dim-label", wrap: true)
        let result = UI.label("", wrap: true)
        let bar = gtk_progress_bar_new()!
        UI.setVisible(bar, false)
        let reset = UI.button(tr("Use the defaults"), name: tr("Use the defaults")) { [weak self] in self?.useDefaults() }
        let cancel = UI.button(tr("Cancel"), name: tr("Cancel fitting")) { [weak self] in self?.running?.cancel() }
        let close = UI.button(tr("Close"), name: tr("Close")) { [weak dialog] in dialog?.close() }
        let fit = UI.button(tr("Fit"), name: tr("Fit"), style: "suggested-action") { [weak self] in self?.fit() }
        UI.setVisible(cancel, false)
        let range = LearningSettings.retentionRange
        let retention = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, 0.01)!
        gtk_spin_button_set_digits(vocab_spin_button(retention), 2)
        vocab_set_accessible_label(retention, tr("Recall to aim at"))
        let apply = UI.button(tr("Apply"), name: tr("Apply the recall")) { [weak self] in self?.applyRetention() }
        let aim = UI.box(false, spacing: 6, [UI.label(tr("Recall to aim at:")), retention, apply])
        let hint = UI.label(tr("From 0.85 to 0.97: higher means more reviews and fewer words forgotten."), style: "dim-label", wrap: true)
        for label in [intro, state, hint, result] { gtk_label_set_max_width_chars(vocab_label(label), 60) }
        let buttons = UI.box(false, spacing: 6, [reset, close, cancel, fit])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        UI.append(dialog.body, intro, state, aim, hint, bar, result, buttons)
        sheet = (dialog, state, result, bar, fit, reset, cancel, retention, apply)
        dialog.onClose = { [weak self] in
            self?.running?.cancel()
            self?.sheet = nil
        }
        showSettings()
        dialog.present()
    }

    private func showSettings() {
        guard let sheet else { return }
        let settings: LearningSettings
        do {
            settings = try model.read { try $0.learningSettings() }
        } catch {
            UI.setText(sheet.state, AppModel.message(error))
            return
        }
        let retention = String(format: "%.2f", settings.desiredRetention)
        UI.setText(sheet.state, settings.parameters == nil
                   ? tr("In force: the default parameters, aiming at a recall of %@.", retention)
                   : tr("In force: parameters fitted to your reviews, aiming at a recall of %@.", retention))
        UI.setSensitive(sheet.reset, settings.parameters != nil || settings.desiredRetention != LearningSettings.defaultRetention)
        gtk_spin_button_set_value(vocab_spin_button(sheet.retention), settings.desiredRetention)
    }

    private func setRunning(_ flag: CancelFlag?) {
        running = flag
        guard let sheet else { return }
        UI.setVisible(sheet.bar, flag != nil)
        UI.setVisible(sheet.cancel, flag != nil)
        UI.setSensitive(sheet.fit, flag == nil)
        UI.setSensitive(sheet.apply, flag == nil)
        if flag != nil { gtk_progress_bar_set_fraction(vocab_progress_bar(sheet.bar), 0) }
    }

    private func fit() {
        guard running == nil, let sheet else { return }
        let flag = CancelFlag()
        setRunning(flag)
        UI.setText(sheet.result, tr("Fitting…"))
        let now = model.clock.now()
        model.background({ library in
            try LearningOptimization.run(library: library, bookIds: nil, retention: nil, dryRun: false, now: now, progress: { share in
                onMain { [weak self] in
                    guard let bar = self?.sheet?.bar else { return }
                    gtk_progress_bar_set_fraction(vocab_progress_bar(bar), share)
                }
            }, isCancelled: { flag.isCancelled })
        }) { [weak self] result in
            guard let self else { return }
            self.setRunning(nil)
            let text: String
            switch result {
            case .success(let report): text = Self.describe(report)
            case .failure(let error as FSRSOptimizerError) where error == .cancelled: text = tr("Cancelled; nothing was changed.")
            case .failure(let error): text = AppModel.message(error)
            }
            if let sheet = self.sheet { UI.setText(sheet.result, text) } else { self.model.toast(text) }
            self.showSettings()
        }
    }

    /// Saves the recall in the spin button as the one to aim at (every schedule re-derived).
    private func applyRetention() {
        guard running == nil, let sheet else { return }
        let spin = vocab_spin_button(sheet.retention)
        gtk_spin_button_update(spin)  // takes in text typed but not yet entered
        let value = (gtk_spin_button_get_value(spin) * 100).rounded() / 100
        let now = model.clock.now()
        model.background({ library in try LearningOptimization.setRetention(value, library: library, now: now) }) { [weak self] result in
            guard let self else { return }
            let shown = String(format: "%.2f", value)
            switch result {
            case .success(nil): self.sheet.map { UI.setText($0.result, tr("Already aiming at a recall of %@.", shown)) }
            case .success(let count?): self.sheet.map { UI.setText($0.result, tr("Now aiming at a recall of %@: the schedules of %d words were re-derived.", shown, count)) }
            case .failure(let error): self.model.toast(AppModel.message(error))
            }
            self.showSettings()
        }
    }

    private func useDefaults() {
        let now = model.clock.now()
        model.background({ library in try LearningOptimization.reset(library: library, now: now) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: self.sheet.map { UI.setText($0.result, tr("Back to the default parameters and a recall of 0.90.")) }
            case .failure(let error): self.model.toast(AppModel.message(error))
            }
            self.showSettings()
        }
    }

    static func describe(_ report: OptimizationReport) -> String {
        func figure(_ value: Double) -> String { String(format: "%.4f", value) }
        let before = report.previous ?? report.defaults
        switch report.outcome {
        case .saved, .betterNotSaved:
            return tr("Fitted on %d reviews: log loss %@ against %@ before (lower is better). Kept: study uses them now.",
                      report.reviews, figure(report.fitted?.logLoss ?? 0), figure(before.logLoss))
        case .notBetter:
            return tr("Fitted on %d reviews: log loss %@, no better than %@ now. The parameters in force stay.",
                      report.reviews, figure(report.fitted?.logLoss ?? 0), figure(before.logLoss))
        case .tooFewReviews(let minimum):
            return tr("Only %d reviews to learn from: at least %d are needed (each on a later day than the word's previous one).",
                      report.reviews, minimum)
        }
    }
}
