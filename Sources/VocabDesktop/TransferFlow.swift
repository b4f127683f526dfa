import CGtk
import Foundation
import VocabCore
import VocabSessions

/// Import and export from the header bar: a file dialog, then the work on the worker thread
/// with a progress bar and a Cancel button; the result (or what went wrong, with nothing
/// changed) as a toast.
@MainActor
final class TransferFlow {
    let importButton: Widget
    let exportButton: Widget
    let progressBar: Widget
    private let bar: Widget
    private let label: Widget
    private let model: AppModel
    private let window: Widget
    private let currentBook: () -> Book?
    private var running: CancelFlag?

    init(model: AppModel, window: Widget, currentBook: @escaping () -> Book?) {
        self.model = model
        self.window = window
        self.currentBook = currentBook
        importButton = UI.iconButton("document-open-symbolic", name: tr("Import words")) { }
        exportButton = UI.iconButton("document-save-as-symbolic", name: tr("Export words")) { }
        bar = gtk_progress_bar_new()!
        gtk_widget_set_hexpand(bar, 1)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        label = UI.label("")
        let cancel = UI.button(tr("Cancel"), name: tr("Cancel transfer")) { }
        progressBar = UI.box(false, spacing: 12, [label, bar, cancel])
        UI.margins(progressBar, 8)
        UI.setVisible(progressBar, false)
        on(importButton, "clicked") { [weak self] in self?.chooseImport() }
        on(exportButton, "clicked") { [weak self] in self?.chooseExport() }
        on(cancel, "clicked") { [weak self] in self?.running?.cancel() }
    }

    private func begin(_ text: String) -> CancelFlag {
        let flag = CancelFlag()
        running = flag
        UI.setText(label, text)
        gtk_progress_bar_pulse(vocab_progress_bar(bar))
        UI.setVisible(progressBar, true)
        UI.setSensitive(importButton, false)
        UI.setSensitive(exportButton, false)
        return flag
    }

    private func end(_ message: String) {
        running = nil
        UI.setVisible(progressBar, false)
        UI.setSensitive(importButton, true)
        UI.setSensitive(exportButton, true)
        model.toast(message)
    }

    private func progressed(_ count: Int) {
        UI.setText(label, tr("%d words…", count))
        gtk_progress_bar_pulse(vocab_progress_bar(bar))
    }

    /// An import's step: words read (a pulse: how many there are is not known), then an Anki
    /// package's review log (its share carried).
    private func progressed(_ step: ImportProgress) {
        switch step {
        case .rows(let count):
            progressed(count)
        case .reviews(let done, let total):
            UI.setText(label, tr("Carrying the review log: %d of %d reviews…", done, total))
            gtk_progress_bar_set_fraction(vocab_progress_bar(bar), step.share ?? 1)
        }
    }

    private func chooseImport() {
        FileDialog.choose(parent: window, title: tr("Import words"), save: false) { [weak self] path in self?.importFile(path) }
    }

    /// Imports `path` into the open book (rows that name their own book go there); an Anki
    /// package's decks always become books of their own.
    func importFile(_ path: String) {
        let format: WordFileFormat
        do {
            guard let chosen = try TransferService.format(named: nil, fileName: path) else { return }
            format = chosen
        } catch {
            return model.toast(AppModel.message(error))
        }
        let book = format == .apkg ? nil : currentBook().map { ImportBook.id($0.id) }
        let now = model.clock.now(), policy = model.paths.backupPolicy()
        let flag = begin(tr("Importing %@…", (path as NSString).lastPathComponent))
        model.background({ library in
            try TransferService.importFile(path, format: format, into: library, defaultBook: book, backups: policy,
                                           skipInvalid: false, now: now,
                                           progress: { step in
                onMain { [weak self] in self?.progressed(step) }
            }, isCancelled: { flag.isCancelled })
        }) { [weak self] result in
            switch result {
            case .success(let outcome):
                let summary = outcome.summary
                var message = tr("Imported: %d added, %d updated, %d unchanged.", summary.added, summary.updated, summary.unchanged)
                if outcome.reviewsAdded > 0 { message += " " + tr("%d reviews carried from Anki.", outcome.reviewsAdded) }
                self?.end(message)
            case .failure(let error):
                self?.end(AppModel.message(error))
            }
        }
    }

    private func chooseExport() {
        let book = currentBook()
        FileDialog.choose(parent: window, title: tr("Export words"), save: true,
                          suggestedName: (book?.name ?? "vocab") + ".csv") { [weak self] path in self?.exportFile(path, bookId: book?.id) }
    }

    func exportFile(_ path: String, bookId: UUID?) {
        let format = WordFileFormat(fileName: path) ?? .csv
        let flag = begin(tr("Exporting to %@…", (path as NSString).lastPathComponent))
        model.background({ library in
            try TransferService.exportFile(path, from: library, bookId: bookId, format: format, progress: { count in
                onMain { [weak self] in self?.progressed(count) }
            }, isCancelled: { flag.isCancelled })
        }) { [weak self] result in
            switch result {
            case .success(let count): self?.end(tr("Exported %d words to %@.", count, path))
            case .failure(let error): self?.end(AppModel.message(error))
            }
        }
    }
}
