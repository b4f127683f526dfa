import CGtk
import Foundation
import VocabCloudAPI
import VocabSessions

/// "Devices": the devices signed in to the cloud account (this computer marked), each one
/// signed out with a button, or all of them at once. Asks the server off the main thread.
@MainActor
final class DevicesPanel {
    let button: Widget
    private let model: AppModel
    private let window: Widget
    private var sheet: DialogWindow?
    /// Told when this computer was signed out too (everywhere): the cloud panel checks again.
    var onSignedOutHere: () -> Void = {}

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        button = UI.button(tr("Devices…"), name: tr("Devices of your account")) { }
        on(button, "clicked") { [weak self] in self?.show() }
        UI.setVisible(button, false)
    }

    private func show() {
        let dialog = DialogWindow(parent: window, title: tr("Devices of your account"), width: 520)
        sheet = dialog
        dialog.onClose = { [weak self] in self?.sheet = nil }
        let list = UI.box(true, spacing: 8)
        let message = UI.label(tr("Asking the server…"), style: "dim-label", wrap: true)
        let everywhere = UI.button(tr("Sign out everywhere"), name: tr("Sign out everywhere"), style: "destructive-action") { }
        let close = UI.button(tr("Close"), name: tr("Close")) { [weak dialog] in dialog?.close() }
        let buttons = UI.box(false, spacing: 6, [everywhere, close])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        gtk_widget_set_margin_top(buttons, 8)
        UI.append(dialog.body, list, message, buttons)
        on(everywhere, "clicked") { [weak self] in self?.signOutEverywhere(dialog) }
        load(list: list, message: message)
        dialog.present()
    }

    private func load(list: Widget, message: Widget) {
        guard let service = model.sync else { return }
        offMain({ Result { try service.devices() } }, then: { [weak self] result in
            guard let self else { return }
            UI.removeAll(list)
            switch result {
            case .success(let devices):
                UI.setVisible(message, false)
                for device in devices { UI.append(list, row(device, list: list, message: message)) }
            case .failure(let error):
                UI.setText(message, AppModel.message(error))
                UI.setVisible(message, true)
            }
        })
    }

    private func row(_ device: CloudDevice, list: Widget, message: Widget) -> Widget {
        let dates = DateFormatter()
        dates.dateStyle = .medium
        dates.timeStyle = .short
        var detail = tr("Signed in %@", dates.string(from: Date(timeIntervalSince1970: TimeInterval(device.created))))
        if let seen = device.seen { detail += " · " + tr("last seen %@", dates.string(from: Date(timeIntervalSince1970: TimeInterval(seen)))) }
        if device.isThis { detail += " · " + tr("this device") }
        let text = UI.box(true, spacing: 2, [UI.label(device.label, style: "heading"), UI.label(detail, style: "dim-label", wrap: true)])
        UI.expand(text)
        let row = UI.box(false, spacing: 12, [text])
        vocab_set_accessible_label(row, device.label)
        if !device.isThis {
            let signOut = UI.button(tr("Sign out"), name: tr("Sign out %@", device.label)) { }
            gtk_widget_set_valign(signOut, GTK_ALIGN_CENTER)
            UI.append(row, signOut)
            on(signOut, "clicked") { [weak self] in
                guard let service = self?.model.sync else { return }
                offMain({ Result { try service.signOut(device: device.id) } }, then: { [weak self] result in
                    if case .failure(let error) = result { self?.model.toast(AppModel.message(error)) }
                    self?.load(list: list, message: message)
                })
            }
        }
        return row
    }

    private func signOutEverywhere(_ dialog: DialogWindow) {
        guard let service = model.sync else { return }
        offMain({ Result { try service.logOut(everywhere: true) } }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let outcome):
                dialog.close()
                if let problem = outcome?.serverError {
                    model.toast(AppModel.message(problem))
                } else {
                    model.toast(tr("Every device of your account was signed out. Your words stay on this computer."))
                }
                onSignedOutHere()
            case .failure(let error):
                model.toast(AppModel.message(error))
            }
        })
    }
}
