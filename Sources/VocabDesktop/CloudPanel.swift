import CGtk
import Foundation
import VocabCore
import VocabCloudAPI
import VocabSessions

/// The cloud in the header bar: the account's status (checked at start with a spinner, never
/// blocking local use), a Sync button that shows progress and can be cancelled, an honest
/// result, and Log in / Log out.
@MainActor
final class CloudPanel {
    let status: Widget
    let syncButton: Widget
    let accountButton: Widget
    private let spinner: Widget
    private let statusLabel: Widget
    private let model: AppModel
    private let window: Widget
    private var loggedIn = false
    private var running: CancelFlag?
    private var loginDialog: LoginDialog?
    /// Shown while logged in: the account's devices.
    let devices: DevicesPanel

    init(model: AppModel, window: Widget) {
        self.model = model
        self.window = window
        devices = DevicesPanel(model: model, window: window)
        spinner = gtk_spinner_new()!
        statusLabel = UI.label(tr("Checking the cloud…"), style: "dim-label")
        vocab_set_accessible_label(statusLabel, tr("Cloud status"))
        status = UI.box(false, spacing: 6, [spinner, statusLabel])
        syncButton = UI.button(tr("Sync"), name: tr("Sync")) { }
        accountButton = UI.button(tr("Log in…"), name: tr("Log in")) { }
        on(syncButton, "clicked") { [weak self] in self?.syncOrCancel() }
        on(accountButton, "clicked") { [weak self] in self?.logInOrOut() }
        UI.setSensitive(syncButton, false)
        devices.onSignedOutHere = { [weak self] in self?.checkAccount() }
        checkAccount()
    }

    private func busy(_ text: String) {
        UI.setText(statusLabel, text)
        gtk_spinner_start(vocab_spinner(spinner))
        UI.setVisible(spinner, true)
    }

    private func idle(_ text: String) {
        UI.setText(statusLabel, text)
        gtk_spinner_stop(vocab_spinner(spinner))
        UI.setVisible(spinner, false)
    }

    /// Checks the account off the main thread.
    func checkAccount() {
        guard let service = model.sync else { return idle(tr("Cloud: no config folder")) }
        busy(tr("Checking the cloud…"))
        offMain({ service.accountStatus() }, then: { [weak self] status in self?.show(status) })
    }

    private func show(_ status: AccountStatus) {
        switch status {
        case .available(let address):
            idle(tr("Cloud: available (%@)", address.user))
            loggedIn = true
        case .notLoggedIn:
            idle(tr("Cloud: not logged in"))
            loggedIn = false
        case .cannotReachServer:
            idle(tr("Cloud: cannot reach server"))
            loggedIn = true
        case .accessDenied:
            idle(tr("Cloud: access denied"))
            loggedIn = true
        }
        if let refusal = status.refusal, status != .notLoggedIn {
            gtk_widget_set_tooltip_text(statusLabel, WindowWording.message(for: refusal))
        } else {
            gtk_widget_set_tooltip_text(statusLabel, nil)
        }
        UI.setSensitive(syncButton, status.refusal == nil)
        UI.setVisible(devices.button, status.refusal == nil)
        gtk_button_set_label(vocab_button(accountButton), loggedIn ? tr("Log out") : tr("Log in…"))
        vocab_set_accessible_label(accountButton, loggedIn ? tr("Log out") : tr("Log in"))
    }

    private func syncOrCancel() {
        if let running {
            running.cancel()
            busy(tr("Cancelling…"))
            return
        }
        guard let service = model.sync else { return }
        let flag = CancelFlag()
        running = flag
        busy(tr("Syncing…"))
        gtk_button_set_label(vocab_button(syncButton), tr("Cancel"))
        vocab_set_accessible_label(syncButton, tr("Cancel sync"))
        model.background({ library in
            try service.run(library: library, progress: { step in
                let text: String
                switch step {
                case .pulled(let count): text = "↓ \(count)"
                case .pushed(let count): text = "↑ \(count)"
                }
                onMain { [weak self] in self?.busy(tr("Syncing… %@", text)) }
            }, isCancelled: { flag.isCancelled })
        }) { [weak self] result in
            self?.finished(result)
        }
    }

    private func finished(_ result: Result<SyncOutcome, Error>) {
        running = nil
        gtk_button_set_label(vocab_button(syncButton), tr("Sync"))
        vocab_set_accessible_label(syncButton, tr("Sync"))
        switch result {
        case .success(let outcome):
            let text = tr("Synced: pulled %d, pushed %d", outcome.report.pulled, outcome.report.pushed)
            idle(text)
            var message = text + "."
            if !outcome.report.skipped.isEmpty { message += " " + tr("Skipped %d malformed records.", outcome.report.skipped.count) }
            if outcome.report.repaired { message += " " + tr("The counts disagreed, so everything was pulled again.") }
            model.toast(message)
        case .failure(let error):
            idle(tr("Sync failed"))
            gtk_widget_set_tooltip_text(statusLabel, AppModel.message(error))
            model.toast(AppModel.message(error))
        }
    }

    private func logInOrOut() {
        guard let service = model.sync else { return }
        if loggedIn {
            // Signing the device out asks the server: off the main thread.
            offMain({ Result { try service.logOut() } }, then: { [weak self] result in
                guard let self else { return }
                switch result {
                case .success:
                    model.toast(tr("Logged out. Your words stay on this computer."))
                    show(.notLoggedIn)
                case .failure(let error):
                    model.toast(AppModel.message(error))
                }
            })
            return
        }
        let dialog = LoginDialog(parent: window, service: service)
        dialog.onLoggedIn = { [weak self] in
            self?.loginDialog = nil
            self?.checkAccount()
        }
        loginDialog = dialog
        dialog.present()
    }
}

/// Asks for the server address and password, checks them against the server, and saves the
/// login (0600) only when the account is available.
@MainActor
final class LoginDialog {
    private let dialog: DialogWindow
    private let url: FormField
    private let password: Widget
    private let message: Widget
    private let service: SyncService
    var onLoggedIn: () -> Void = {}

    init(parent: Widget, service: SyncService) {
        self.service = service
        dialog = DialogWindow(parent: parent, title: tr("Log in to the cloud"))
        url = FormField(label: tr("Server"), name: tr("Server address"))
        gtk_entry_set_placeholder_text(vocab_entry(url.entry), "https://USER@HOST")
        password = gtk_password_entry_new()!
        vocab_set_accessible_label(password, tr("Password"))
        message = UI.label("", style: "error", wrap: true)
        UI.setVisible(message, false)
        let logIn = UI.button(tr("Log in"), name: tr("Log in to the server"), style: "suggested-action") { }
        let cancel = UI.button(tr("Cancel"), name: tr("Cancel")) { }
        let buttons = UI.box(false, spacing: 6, [cancel, logIn])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        UI.append(dialog.body, url.row, UI.label(tr("Password"), style: "caption-heading"), password, message, buttons)
        on(logIn, "clicked") { [weak self] in self?.submit() }
        on(password, "activate") { [weak self] in self?.submit() }
        on(cancel, "clicked") { [weak self] in self?.dialog.close() }
    }

    func present() { dialog.present() }

    private func submit() {
        let address = url.text
        let secret = UI.text(password)
        let service = service
        UI.setText(message, tr("Checking…"))
        UI.setVisible(message, true)
        offMain({ Result { try service.logIn(url: address, password: secret, label: DeviceLabel.of("window")) } }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                dialog.close()
                onLoggedIn()
            case .failure(let error):
                UI.setText(message, AppModel.message(error))
            }
        })
    }
}
