// GTK 4 and libadwaita for Swift: the headers, plus tiny functions for what Swift cannot
// import (type-cast macros, variadic calls, the signal-connect macro) and the libdispatch hooks
// that let the main queue run under GLib's main loop.
#ifndef VOCAB_CGTK_SHIM_H
#define VOCAB_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib-unix.h>
#include <libintl.h>
#include <locale.h>

// libdispatch's main-queue hooks (what Foundation's RunLoop uses on Linux).
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline gulong vocab_signal_connect(gpointer instance, const char *signal, GCallback handler,
                                          gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

static inline void vocab_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void vocab_set_accessible_description(GtkWidget *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

// A vertical box that screen readers (and the tests) see as a dialog.
static inline GtkWidget *vocab_dialog_box_new(int spacing) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_VERTICAL, "spacing", spacing,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_DIALOG, NULL));
}

static inline GtkOverlay *vocab_overlay(GtkWidget *widget) { return GTK_OVERLAY(widget); }
static inline GtkDrawingArea *vocab_drawing_area(GtkWidget *widget) { return GTK_DRAWING_AREA(widget); }

// A drawing area that screen readers (and the tests) see as an image: a chart.
static inline GtkWidget *vocab_chart_area_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL));
}

static inline GtkWindow *vocab_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkWidget *vocab_widget(gpointer object) { return GTK_WIDGET(object); }
static inline GtkBox *vocab_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkLabel *vocab_label(GtkWidget *widget) { return GTK_LABEL(widget); }
static inline GtkButton *vocab_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkEditable *vocab_editable(GtkWidget *widget) { return GTK_EDITABLE(widget); }
static inline GtkEntry *vocab_entry(GtkWidget *widget) { return GTK_ENTRY(widget); }
static inline GtkStack *vocab_stack(GtkWidget *widget) { return GTK_STACK(widget); }
static inline GtkGrid *vocab_grid(GtkWidget *widget) { return GTK_GRID(widget); }
static inline GtkFlowBox *vocab_flow_box(GtkWidget *widget) { return GTK_FLOW_BOX(widget); }
static inline GtkScrolledWindow *vocab_scrolled(GtkWidget *widget) { return GTK_SCROLLED_WINDOW(widget); }
static inline GtkSpinner *vocab_spinner(GtkWidget *widget) { return GTK_SPINNER(widget); }
static inline GtkDropDown *vocab_drop_down(GtkWidget *widget) { return GTK_DROP_DOWN(widget); }
static inline GtkSpinButton *vocab_spin_button(GtkWidget *widget) { return GTK_SPIN_BUTTON(widget); }
static inline GtkCheckButton *vocab_check_button(GtkWidget *widget) { return GTK_CHECK_BUTTON(widget); }
static inline GtkTextView *vocab_text_view(GtkWidget *widget) { return GTK_TEXT_VIEW(widget); }
static inline GtkPicture *vocab_picture(GtkWidget *widget) { return GTK_PICTURE(widget); }
static inline GtkProgressBar *vocab_progress_bar(GtkWidget *widget) { return GTK_PROGRESS_BAR(widget); }
static inline GtkListView *vocab_list_view(GtkWidget *widget) { return GTK_LIST_VIEW(widget); }
static inline GtkListItem *vocab_list_item(gpointer object) { return GTK_LIST_ITEM(object); }
static inline GtkSearchEntry *vocab_search_entry(GtkWidget *widget) { return GTK_SEARCH_ENTRY(widget); }
static inline GtkHeaderBar *vocab_header_bar(GtkWidget *widget) { return GTK_HEADER_BAR(widget); }
static inline GtkApplication *vocab_gtk_application(gpointer app) { return GTK_APPLICATION(app); }
static inline GApplication *vocab_g_application(gpointer app) { return G_APPLICATION(app); }
static inline GtkFileChooser *vocab_file_chooser(gpointer chooser) { return GTK_FILE_CHOOSER(chooser); }
static inline GtkNativeDialog *vocab_native_dialog(gpointer dialog) { return GTK_NATIVE_DIALOG(dialog); }
static inline GListModel *vocab_list_model(gpointer model) { return G_LIST_MODEL(model); }
static inline GtkSelectionModel *vocab_selection_model(gpointer model) { return GTK_SELECTION_MODEL(model); }
static inline GtkEventController *vocab_event_controller(gpointer controller) { return GTK_EVENT_CONTROLLER(controller); }
static inline AdwApplicationWindow *vocab_adw_window(GtkWidget *widget) { return ADW_APPLICATION_WINDOW(widget); }
static inline AdwToastOverlay *vocab_toast_overlay(GtkWidget *widget) { return ADW_TOAST_OVERLAY(widget); }
static inline AdwViewStack *vocab_view_stack(GtkWidget *widget) { return ADW_VIEW_STACK(widget); }
static inline AdwViewSwitcherTitle *vocab_view_switcher_title(GtkWidget *widget) { return ADW_VIEW_SWITCHER_TITLE(widget); }
static inline AdwViewSwitcherBar *vocab_view_switcher_bar(GtkWidget *widget) { return ADW_VIEW_SWITCHER_BAR(widget); }
static inline AdwStatusPage *vocab_status_page(GtkWidget *widget) { return ADW_STATUS_PAGE(widget); }
static inline AdwMessageDialog *vocab_message_dialog(GtkWidget *widget) { return ADW_MESSAGE_DIALOG(widget); }

static inline GtkFileChooserNative *vocab_file_chooser_native_new(const char *title, GtkWindow *parent,
                                                                  GtkFileChooserAction action, const char *accept) {
    return gtk_file_chooser_native_new(title, parent, action, accept, NULL);
}

static inline GtkWidget *vocab_message_dialog_new(GtkWindow *parent, const char *heading, const char *body) {
    return adw_message_dialog_new(parent, heading, body);
}

#endif
