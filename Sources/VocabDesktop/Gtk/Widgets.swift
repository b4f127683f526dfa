import CGtk

/// Small constructors that give every control its accessible name (screen readers and the
/// end-to-end tests find controls by it).
@MainActor
enum UI {
    static func label(_ text: String, style: String? = nil, wrap: Bool = false, xalign: Float = 0) -> Widget {
        let label = gtk_label_new(text)!
        gtk_label_set_xalign(vocab_label(label), xalign)
        if wrap {
            gtk_label_set_wrap(vocab_label(label), 1)
            gtk_label_set_wrap_mode(vocab_label(label), PANGO_WRAP_WORD_CHAR)
        }
        if let style { gtk_widget_add_css_class(label, style) }
        return label
    }

    static func setText(_ label: Widget, _ text: String) {
        gtk_label_set_text(vocab_label(label), text)
    }

    static func button(_ text: String, name: String? = nil, style: String? = nil,
                       _ action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_with_label(text)!
        gtk_button_set_use_underline(vocab_button(button), 0)
        if let name { vocab_set_accessible_label(button, name) }
        if let style { gtk_widget_add_css_class(button, style) }
        on(button, "clicked", action)
        return button
    }

    static func iconButton(_ icon: String, name: String, _ action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        vocab_set_accessible_label(button, name)
        gtk_widget_set_tooltip_text(button, name)
        on(button, "clicked", action)
        return button
    }

    static func box(_ vertical: Bool, spacing: Int32 = 6, _ children: [Widget] = []) -> Widget {
        let box = gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)!
        for child in children { gtk_box_append(vocab_box(box), child) }
        return box
    }

    static func append(_ box: Widget, _ children: Widget...) {
        for child in children { gtk_box_append(vocab_box(box), child) }
    }

    static func removeAll(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(vocab_box(box), child) }
    }

    static func entry(name: String, placeholder: String = "") -> Widget {
        let entry = gtk_entry_new()!
        vocab_set_accessible_label(entry, name)
        gtk_entry_set_placeholder_text(vocab_entry(entry), placeholder)
        // As the original app's text fields: no autocorrect, no auto-capitalisation.
        gtk_entry_set_input_hints(vocab_entry(entry), GtkInputHints(rawValue: GTK_INPUT_HINT_NO_SPELLCHECK.rawValue | GTK_INPUT_HINT_LOWERCASE.rawValue))
        return entry
    }

    static func text(_ editable: Widget) -> String {
        String(cString: gtk_editable_get_text(vocab_editable(editable)))
    }

    static func setText(entry: Widget, _ text: String) {
        gtk_editable_set_text(vocab_editable(entry), text)
    }

    static func margins(_ widget: Widget, _ value: Int32) {
        gtk_widget_set_margin_top(widget, value)
        gtk_widget_set_margin_bottom(widget, value)
        gtk_widget_set_margin_start(widget, value)
        gtk_widget_set_margin_end(widget, value)
    }

    static func expand(_ widget: Widget, horizontal: Bool = true, vertical: Bool = true) {
        gtk_widget_set_hexpand(widget, horizontal ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertical ? 1 : 0)
    }

    static func scrolled(_ child: Widget) -> Widget {
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(vocab_scrolled(scrolled), child)
        gtk_scrolled_window_set_policy(vocab_scrolled(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        expand(scrolled)
        return scrolled
    }

    /// A drop-down of fixed strings.
    static func dropDown(_ items: [String], name: String) -> Widget {
        var pointers = items.map { strdup($0) } + [nil]
        let model = pointers.withUnsafeMutableBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress else { return nil }  // never empty: it ends with nil
            return base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { gtk_string_list_new($0) }
        }
        for pointer in pointers { free(pointer) }
        pointers.removeAll()
        let dropDown = gtk_drop_down_new(vocab_list_model(UnsafeMutableRawPointer(model)), nil)!
        vocab_set_accessible_label(dropDown, name)
        return dropDown
    }

    static func selected(_ dropDown: Widget) -> Int {
        Int(gtk_drop_down_get_selected(vocab_drop_down(dropDown)))
    }

    static func setVisible(_ widget: Widget, _ visible: Bool) {
        gtk_widget_set_visible(widget, visible ? 1 : 0)
    }

    static func setSensitive(_ widget: Widget, _ sensitive: Bool) {
        gtk_widget_set_sensitive(widget, sensitive ? 1 : 0)
    }
}
