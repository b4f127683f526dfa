import CGtk
import Foundation

/// A modal dialog window with a title, a body and Escape to close.
@MainActor
final class DialogWindow {
    let window: Widget
    let body: Widget
    var onClose: () -> Void = {}

    init(parent: Widget, title: String, width: Int32 = 480) {
        window = gtk_window_new()!
        gtk_window_set_title(vocab_window(window), title)
        gtk_window_set_transient_for(vocab_window(window), vocab_window(parent))
        gtk_window_set_modal(vocab_window(window), 1)
        gtk_window_set_default_size(vocab_window(window), width, -1)
        gtk_window_set_destroy_with_parent(vocab_window(window), 1)
        body = UI.box(true, spacing: 8)
        UI.margins(body, 18)
        gtk_window_set_child(vocab_window(window), body)
        let keys = gtk_event_controller_key_new()!
        onKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, _ in
            guard keyval == UInt32(GDK_KEY_Escape) else { return false }
            self?.close()
            return true
        }
        gtk_widget_add_controller(window, vocab_event_controller(UnsafeMutableRawPointer(keys)))
    }

    func present() {
        gtk_window_present(vocab_window(window))
    }

    func close() {
        gtk_window_destroy(vocab_window(window))
        onClose()
    }
}

/// Asks to confirm a destructive choice (GNOME: dialogs only for those).
@MainActor
enum Confirm {
    static func ask(parent: Widget, heading: String, body: String, action: String,
                    _ confirmed: @escaping @MainActor () -> Void) {
        let dialog = vocab_message_dialog_new(vocab_window(parent), heading, body)!
        adw_message_dialog_add_response(vocab_message_dialog(dialog), "cancel", tr("Cancel"))
        adw_message_dialog_add_response(vocab_message_dialog(dialog), "confirm", action)
        adw_message_dialog_set_response_appearance(vocab_message_dialog(dialog), "confirm", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(vocab_message_dialog(dialog), "cancel")
        adw_message_dialog_set_close_response(vocab_message_dialog(dialog), "cancel")
        on(dialog, "response", pointer: { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "confirm" else { return }
            confirmed()
        })
        gtk_window_present(vocab_window(dialog))
    }
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
        on(UnsafeMutableRawPointer(dialog.chooser), "response", int: { response in
            defer { open.removeAll { $0 === dialog } }
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
    }
}
