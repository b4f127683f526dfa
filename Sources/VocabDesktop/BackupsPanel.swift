import CGtk
import Foundation
import VocabCore
import VocabSessions

/// Backups in the window (the automatic ones are the model's `StoreUpkeep`'s, as in every
/// front end): a sheet that lists them (the newest first, with their counts), takes one now, and
/// restores one after a confirmation.
@MainActor
final class BackupsPanel {
    let button: Widget
    private let model: AppModel
    private let window: Widget
    private let policy: BackupPolicy
    private var sheet: DialogWindow?

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        policy = model.paths.backupPolicy()
        button = UI.iconButton("document-revert-symbolic", name: tr("Backups")) { }
        on(button, "clicked") { [weak self] in self?.show() }
    }

    private func show() {
        let dialog = DialogWindow(parent: window, title: tr("Backups"), width: 520)
        sheet = dialog
        dialog.onClose = { [weak self] in self?.sheet = nil }
        let rows = UI.box(true, spacing: 8, [UI.label(tr("Checking…"), style: "dim-label")])
        let now = UI.button(tr("Back up now"), name: tr("Back up now"), style: "suggested-action") { [weak self] in self?.backUpNow() }
        let close = UI.button(tr("Close"), name: tr("Close")) { [weak dialog] in dialog?.close() }
        let buttons = UI.box(false, spacing: 6, [close, now])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        UI.append(dialog.body, rows, buttons)
        dialog.present()
        // Checking a backup reads all of it (and unpacks a compressed one): off the main thread.
        let folder = BackupService.folder(forStoreAt: model.storePath)
        offMain({ BackupService.list(in: folder).backups.prefix(12).map { ($0, try? BackupService.check($0.path)) } },
                then: { [weak self, weak dialog] checked in
            guard let self, let dialog, self.sheet === dialog else { return }
            self.fill(rows, with: checked)
        })
    }

    private func fill(_ rows: Widget, with checked: [(BackupInfo, StoreCounts?)]) {
        UI.removeAll(rows)
        if checked.isEmpty {
            UI.append(rows, UI.label(tr("No backups yet. One is taken by itself after your next change."), wrap: true))
        }
        for (backup, counts) in checked {
            let text = counts.map { tr("%d books · %d words · %d reviews", $0.books, $0.words, $0.reviews) } ?? tr("damaged")
            let title = UI.label(backup.takenAt.iso8601.replacingOccurrences(of: "T", with: " ").prefix(19) + " UTC · " + backup.reason, style: "heading")
            let restore = UI.button(tr("Restore…"), name: tr("Restore the backup of %@", backup.takenAt.iso8601)) { [weak self] in
                self?.confirmRestore(backup, counts: counts)
            }
            UI.setSensitive(restore, counts != nil)
            let info = UI.box(true, spacing: 2, [title, UI.label(text, style: "dim-label")])
            gtk_widget_set_hexpand(info, 1)
            UI.append(rows, UI.box(false, spacing: 12, [info, restore]))
        }
    }

    private func backUpNow() {
        let policy = policy, now = model.clock.now()
        sheet?.close()
        model.background({ library in try BackupService.take(library, reason: "manual", policy: policy, now: now) }) { [weak self] result in
            switch result {
            case .success(let taken): self?.model.toast(tr("Backed up %d words (checked).", taken.counts.words))
            case .failure(let error): self?.model.toast(AppModel.message(error))
            }
        }
    }

    private func confirmRestore(_ backup: BackupInfo, counts: StoreCounts?) {
        guard let counts else { return }
        Confirm.ask(parent: window, heading: tr("Restore the backup of %@?", backup.takenAt.iso8601),
                    body: tr("Your words become the backup's %d words. The store as it is now is backed up first.", counts.words),
                    action: tr("Restore")) { [weak self] in
            guard let self else { return }
            sheet?.close()
            let folder = (model.storePath as NSString).deletingLastPathComponent
            let now = model.clock.now()
            model.background({ _ in try BackupService.restore(backup, dataFolder: folder, now: now).safety?.path }) { [weak self] result in
                switch result {
                case .success: self?.model.toast(tr("Restored %d words from the backup.", counts.words))
                case .failure(let error): self?.model.toast(AppModel.message(error))
                }
            }
        }
    }
}
