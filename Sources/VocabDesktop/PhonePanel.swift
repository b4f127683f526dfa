import CGtk
import Foundation
import VocabSessions

/// "Phone": where a phone opens the web app and the code that pairs it, read from the notice a
/// running web server of the same data folder keeps (the code changes after each pairing; the
/// sheet reads it again every second while it is open).
@MainActor
final class PhonePanel {
    let button: Widget
    private let folder: String?
    private let window: Widget
    private var sheet: DialogWindow?

    init(model: AppModel, window: Widget) {
        self.window = window
        folder = try? model.paths.dataFolder()  // the window opened its store there: it is known
        button = UI.iconButton("phone-symbolic", name: tr("Phone")) { }
        on(button, "clicked") { [weak self] in self?.show() }
    }

    private func show() {
        let dialog = DialogWindow(parent: window, title: tr("Study on your phone"), width: 460)
        sheet = dialog
        dialog.onClose = { [weak self] in self?.sheet = nil }
        let explain = UI.label("", wrap: true)
        let address = UI.label("", style: "heading")
        let code = UI.label("", style: "title-1")
        let close = UI.button(tr("Close"), name: tr("Close")) { [weak dialog] in dialog?.close() }
        gtk_widget_set_halign(close, GTK_ALIGN_END)
        UI.append(dialog.body, explain, address, code, close)
        var shown: ServingNotice?? = .none
        let refresh = { [folder] in
            let notice = folder.flatMap { ServingNotice.current(in: $0) }
            guard shown != .some(notice) else { return }
            shown = .some(notice)
            if let notice {
                UI.setText(explain, tr("Open this address on your phone, then type the pairing code. Each code pairs one device."))
                UI.setText(address, notice.address)
                UI.setText(code, notice.spacedCode)
                vocab_set_accessible_label(code, tr("Pairing code %@", notice.spacedCode))
            } else {
                UI.setText(explain, tr("No web server is running for your words. When one is started on this computer, its address and pairing code show here."))
                UI.setText(address, "")
                UI.setText(code, "")
            }
            UI.setVisible(address, notice != nil)
            UI.setVisible(code, notice != nil)
        }
        refresh()
        dialog.present()
        every(milliseconds: 1000) { [weak self, weak dialog] in
            guard let self, let dialog, self.sheet === dialog else { return false }
            refresh()
            return true
        }
    }
}
