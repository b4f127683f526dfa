import CGtk
import Foundation

/// A modal sheet over the window's content: a title, a body, Escape to close. In-window
/// rather than a second top-level window: nothing to place without a window manager, and GTK
/// 4.8's accessibility tree went stale when dialog windows were destroyed (a closed dialog
/// lingered, a new one was missing).
@MainActor
final class DialogWindow {
    /// The main window (the parent for file dialogs).
    let window: Widget
    let body: Widget
    private let sheet: Widget
    private let backdrop: Widget
    private let host: SheetHost
    var onClose: () -> Void = {}

    init(parent: Widget, title: String, width: Int32 = 480) {
        window = parent
        host = SheetHost.host(of: parent)
        sheet = vocab_dialog_box_new(8)!
        vocab_set_accessible_label(sheet, title)
        gtk_widget_add_css_class(sheet, "vocab-sheet")
        gtk_widget_set_size_request(sheet, width, -1)
        gtk_widget_set_halign(sheet, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(sheet, GTK_ALIGN_CENTER)
        body = UI.box(true, spacing: 8)
        UI.append(sheet, UI.label(title, style: "title-3"), body)
        backdrop = UI.box(true)
        gtk_widget_add_css_class(backdrop, "vocab-backdrop")
        UI.expand(backdrop)
        UI.append(backdrop, sheet)
        let keys = gtk_event_controller_key_new()!
        onKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, _ in
            guard keyval == UInt32(GDK_KEY_Escape) else { return false }
            self?.close()
            return true
        }
        gtk_widget_add_controller(sheet, vocab_event_controller(UnsafeMutableRawPointer(keys)))
    }

    func present() {
        host.show(backdrop)
        gtk_widget_child_focus(sheet, GTK_DIR_TAB_FORWARD)
    }

    func close() {
        host.hide(backdrop)
        onClose()
    }
}

/// Where a window's sheets go: an overlay over its content, which is made insensitive while a
/// sheet is up (that is what makes a sheet modal).
@MainActor
final class SheetHost {
    private static var hosts: [UnsafeMutableRawPointer: SheetHost] = [:]
    private let overlay: Widget
    private let content: Widget
    private var shown: [Widget] = []

    /// Wraps `content` in an overlay for the sheets of `window`; returns the overlay to show.
    static func install(window: Widget, content: Widget) -> Widget {
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(vocab_overlay(overlay), content)
        hosts[UnsafeMutableRawPointer(window)] = SheetHost(overlay: overlay, content: content)
        Style.install()
        return overlay
    }

    /// The host `install` made for `window` (the main window always has one).
    static func host(of window: Widget) -> SheetHost {
        if let host = hosts[UnsafeMutableRawPointer(window)] { return host }
        // Not expected: a window without a host gets one around its current child.
        let content = gtk_window_get_child(vocab_window(window)) ?? UI.box(true)
        g_object_ref(UnsafeMutableRawPointer(content))
        gtk_window_set_child(vocab_window(window), nil)
        let host = SheetHost(overlay: gtk_overlay_new()!, content: content)
        gtk_overlay_set_child(vocab_overlay(host.overlay), content)
        g_object_unref(UnsafeMutableRawPointer(content))
        gtk_window_set_child(vocab_window(window), host.overlay)
        hosts[UnsafeMutableRawPointer(window)] = host
        Style.install()
        return host
    }

    private init(overlay: Widget, content: Widget) {
        self.overlay = overlay
        self.content = content
    }

    func show(_ sheet: Widget) {
        shown.last.map { UI.setSensitive($0, false) }
        shown.append(sheet)
        gtk_overlay_add_overlay(vocab_overlay(overlay), sheet)
        UI.setSensitive(content, false)
    }

    func hide(_ sheet: Widget) {
        guard let index = shown.firstIndex(of: sheet) else { return }
        shown.remove(at: index)
        gtk_overlay_remove_overlay(vocab_overlay(overlay), sheet)
        if let top = shown.last {
            UI.setSensitive(top, true)
        } else {
            UI.setSensitive(content, true)
        }
    }
}

/// The window's own few styles.
@MainActor
enum Style {
    private static var installed = false

    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, """
            .vocab-backdrop { background-color: alpha(black, 0.3); }
            .vocab-sheet { background-color: @window_bg_color; color: @window_fg_color; border-radius: 12px;
                           padding: 18px; box-shadow: 0 4px 16px alpha(black, 0.3); }
            """, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}

/// Asks to confirm a destructive choice (GNOME: dialogs only for those).
@MainActor
enum Confirm {
    static func ask(parent: Widget, heading: String, body: String, action: String,
                    _ confirmed: @escaping @MainActor () -> Void) {
        let dialog = DialogWindow(parent: parent, title: heading, width: 360)
        let cancel = UI.button(tr("Cancel"), name: tr("Cancel")) { [weak dialog] in dialog?.close() }
        let confirm = UI.button(action, name: action, style: "destructive-action") { [weak dialog] in
            dialog?.close()
            confirmed()
        }
        let buttons = UI.box(false, spacing: 6, [cancel, confirm])
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        UI.append(dialog.body, UI.label(body, wrap: true), buttons)
        retained.append(dialog)
        dialog.onClose = { [weak dialog] in retained.removeAll { $0 === dialog } }
        dialog.present()
        gtk_widget_grab_focus(cancel)
    }

    private static var retained: [DialogWindow] = []
}

/// A labelled entry with a line for the error that concerns it.
@MainActor
struct FormField {
    let entry: Widget
    let error: Widget
    let row: Widget

    init(label: String, name: String, value: String = "") {
        entry = UI.entry(name: name)
        UI.setText(entry: entry, value)
        error = UI.label("", style: "error")
        UI.setVisible(error, false)
        let title = UI.label(label, style: "caption-heading")
        row = UI.box(true, spacing: 2, [title, entry, error])
    }

    var text: String { UI.text(entry) }

    func show(error message: String?) {
        UI.setText(error, message ?? "")
        UI.setVisible(error, message != nil)
    }
}

/// Choosing files with the desktop's file dialog.
@MainActor
final class FileDialog {
    private static var open: [FileDialog] = []
    private let chooser: OpaquePointer

    /// Asks for a file to open (`save` false) or a place to save; calls `chosen` with its path.
    static func choose(parent: Widget, title: String, save: Bool, suggestedName: String? = nil,
                       _ chosen: @escaping @MainActor (String) -> Void) {
        let dialog = FileDialog(parent: parent, title: title, save: save)
        if let suggestedName { gtk_file_chooser_set_current_name(vocab_file_chooser(UnsafeMutableRawPointer(dialog.chooser)), suggestedName) }
        open.append(dialog)
        on(UnsafeMutableRawPointer(dialog.chooser), "response", int: { [weak dialog] response in
            guard let dialog else { return }
            defer {
                // Destroyed once the signal is over, and forgotten: a hidden file chooser left
                // behind made GTK 4.8's accessibility code crash later.
                let chooser = dialog.chooser
                open.removeAll { $0 === dialog }
                DispatchQueue.main.async {
                    gtk_native_dialog_destroy(vocab_native_dialog(UnsafeMutableRawPointer(chooser)))
                    g_object_unref(UnsafeMutableRawPointer(chooser))
                }
            }
            guard response == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(vocab_file_chooser(UnsafeMutableRawPointer(dialog.chooser))) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let path = g_file_get_path(file) else { return }
            defer { g_free(path) }
            chosen(String(cString: path))
        })
        gtk_native_dialog_show(vocab_native_dialog(UnsafeMutableRawPointer(dialog.chooser)))
    }

    private init(parent: Widget, title: String, save: Bool) {
        chooser = vocab_file_chooser_native_new(title, vocab_window(parent),
                                                save ? GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
                                                save ? tr("Save") : tr("Open"))
        if !save { addFilters() }
    }

    /// What Vocab reads first (word lists, workbooks, Anki packages), then every file.
    private func addFilters() {
        let known = gtk_file_filter_new()
        gtk_file_filter_set_name(known, tr("Word lists and Anki packages"))
        for suffix in ["csv", "tsv", "tab", "txt", "jsonl", "ndjson", "xlsx", "apkg", "colpkg"] {
            gtk_file_filter_add_suffix(known, suffix)
        }
        let all = gtk_file_filter_new()
        gtk_file_filter_set_name(all, tr("All files"))
        gtk_file_filter_add_pattern(all, "*")
        let chooser = vocab_file_chooser(UnsafeMutableRawPointer(self.chooser))
        gtk_file_chooser_add_filter(chooser, known)
        gtk_file_chooser_add_filter(chooser, all)
        g_object_unref(UnsafeMutableRawPointer(known))
        g_object_unref(UnsafeMutableRawPointer(all))
    }
}
