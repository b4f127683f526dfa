import CGtk
import Foundation
import VocabCore
import VocabSessions

/// The window: a header bar (page switcher, import/export, cloud status and sync) over four
/// pages — Books (shelf and word lists), Study, Test and Progress — with toasts at the bottom.
@MainActor
final class MainWindow {
    let window: Widget
    private let toasts: Widget
    private var model: AppModel?
    private var screens: [AnyObject] = []
    private var shelf: ShelfScreen?
    private let probe: Bool

    init(application: UnsafeMutablePointer<AdwApplication>, environment: [String: String]) {
        probe = environment["VOCAB_DESKTOP_PROBE"] == "1"
        window = adw_application_window_new(vocab_gtk_application(UnsafeMutableRawPointer(application)))!
        gtk_window_set_title(vocab_window(window), tr("Vocab"))
        gtk_window_set_default_size(vocab_window(window), 1000, 720)
        toasts = adw_toast_overlay_new()!
        adw_application_window_set_content(vocab_adw_window(window), toasts)

        let header = adw_header_bar_new()!
        let content = UI.box(true, spacing: 0, [header])
        adw_toast_overlay_set_child(vocab_toast_overlay(toasts), SheetHost.install(window: window, content: content))

        do {
            let model = try AppModel(environment: environment)
            self.model = model
            model.toast = { [weak self] text in self?.showToast(text) }
            build(model: model, header: header, content: content)
            for problem in model.startupProblems { showToast(AppModel.message(problem)) }
        } catch {
            // The store cannot be opened (damaged, another program's file, no data folder): say so.
            let page = adw_status_page_new()!
            adw_status_page_set_icon_name(vocab_status_page(page), "dialog-error-symbolic")
            adw_status_page_set_title(vocab_status_page(page), tr("Vocab cannot open its data"))
            adw_status_page_set_description(vocab_status_page(page), AppModel.message(error))
            UI.expand(page)
            UI.append(content, page)
        }
    }

    private func build(model: AppModel, header: Widget, content: Widget) {
        let stack = adw_view_stack_new()!
        UI.expand(stack)
        let shelf = ShelfScreen(model: model, window: window)
        let optimize = OptimizePanel(model: model, window: window)
        let study = StudyScreen(model: model, tools: optimize.button)
        let game = GameScreen(model: model, window: window)
        let progress = ProgressScreen(model: model)
        screens = [shelf, study, game, progress, optimize]
        self.shelf = shelf
        let pages: [(Widget, String, String, String)] = [
            (shelf.root, "books", tr("Books"), "accessories-dictionary-symbolic"),
            (study.root, "study", tr("Study"), "view-refresh-symbolic"),
            (game.root, "game", tr("Test"), "input-gaming-symbolic"),
            (progress.root, "progress", tr("Progress"), "network-cellular-signal-excellent-symbolic"),
        ]
        for (child, name, title, icon) in pages {
            let page = adw_view_stack_add_titled(vocab_view_stack(stack), child, name, title)
            adw_view_stack_page_set_icon_name(page, icon)
        }
        // The study queue and the progress report are made afresh whenever their page is shown.
        on(stack, "notify::visible-child-name", pointer: { [weak study, weak progress] _ in
            switch String(cString: adw_view_stack_get_visible_child_name(vocab_view_stack(stack))) {
            case "study": study?.restart()
            case "progress": progress?.reload()
            default: break
            }
        })
        let switcher = adw_view_switcher_title_new()!
        adw_view_switcher_title_set_stack(vocab_view_switcher_title(switcher), vocab_view_stack(stack))
        adw_view_switcher_title_set_title(vocab_view_switcher_title(switcher), tr("Vocab"))
        adw_header_bar_set_title_widget(OpaquePointer(header), switcher)
        // Where the header has no room for the pages' switcher (the window's default width holds
        // four pages beside the cloud's controls only in the narrowest form), it shows the title
        // and the same switcher appears at the foot, as libadwaita's adaptive pattern does.
        let footer = adw_view_switcher_bar_new()!
        adw_view_switcher_bar_set_stack(vocab_view_switcher_bar(footer), vocab_view_stack(stack))
        let revealFooter = {
            adw_view_switcher_bar_set_reveal(vocab_view_switcher_bar(footer),
                                             adw_view_switcher_title_get_title_visible(vocab_view_switcher_title(switcher)))
        }
        on(switcher, "notify::title-visible", pointer: { _ in revealFooter() })
        revealFooter()

        let transfer = TransferFlow(model: model, window: window, currentBook: { [weak shelf] in shelf?.openBook })
        let cloud = CloudPanel(model: model, window: window)
        let backups = BackupsPanel(model: model, window: window)
        let phone = PhonePanel(model: model, window: window)
        screens += [transfer, cloud, backups, phone]
        adw_header_bar_pack_start(OpaquePointer(header), transfer.importButton)
        adw_header_bar_pack_start(OpaquePointer(header), transfer.exportButton)
        adw_header_bar_pack_start(OpaquePointer(header), backups.button)
        adw_header_bar_pack_end(OpaquePointer(header), cloud.accountButton)
        adw_header_bar_pack_end(OpaquePointer(header), cloud.devices.button)
        adw_header_bar_pack_end(OpaquePointer(header), cloud.syncButton)
        adw_header_bar_pack_end(OpaquePointer(header), cloud.status)
        adw_header_bar_pack_end(OpaquePointer(header), phone.button)
        UI.append(content, stack, transfer.progressBar, footer)

        // Keyboard: the game's number keys and Enter, wherever the focus is.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(vocab_event_controller(UnsafeMutableRawPointer(keys)), GTK_PHASE_CAPTURE)
        onKeyPressed(UnsafeMutableRawPointer(keys)) { [weak game] keyval, state in
            guard let game, String(cString: adw_view_stack_get_visible_child_name(vocab_view_stack(stack))) == "game" else { return false }
            return game.handleKey(keyval, state: state)
        }
        gtk_widget_add_controller(window, vocab_event_controller(UnsafeMutableRawPointer(keys)))
    }

    func present() {
        gtk_window_present(vocab_window(window))
        if probe, let shelf, let model { DesktopProbe.run(window: window, shelf: shelf, model: model) }
    }

    private func showToast(_ text: String) {
        let toast = adw_toast_new(text)!
        adw_toast_set_timeout(toast, 4)
        adw_toast_overlay_add_toast(vocab_toast_overlay(toasts), toast)
    }
}
