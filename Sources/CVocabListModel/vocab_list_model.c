#include "vocab_list_model.h"

struct _VocabRow {
    GObject parent_instance;
    guint position;
};

G_DEFINE_FINAL_TYPE(VocabRow, vocab_row, G_TYPE_OBJECT)

static void vocab_row_class_init(VocabRowClass *klass) { (void)klass; }
static void vocab_row_init(VocabRow *row) { row->position = 0; }

guint vocab_row_get_position(VocabRow *row) { return row->position; }

struct _VocabListModel {
    GObject parent_instance;
    guint count;
};

static GType vocab_list_model_get_item_type(GListModel *list) {
    (void)list;
    return VOCAB_TYPE_ROW;
}

static guint vocab_list_model_get_n_items(GListModel *list) {
    return VOCAB_LIST_MODEL(list)->count;
}

static gpointer vocab_list_model_get_item(GListModel *list, guint position) {
    VocabListModel *model = VOCAB_LIST_MODEL(list);
    if (position >= model->count) return NULL;
    VocabRow *row = g_object_new(VOCAB_TYPE_ROW, NULL);
    row->position = position;
    return row;
}

static void vocab_list_model_list_init(GListModelInterface *iface) {
    iface->get_item_type = vocab_list_model_get_item_type;
    iface->get_n_items = vocab_list_model_get_n_items;
    iface->get_item = vocab_list_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE(VocabListModel, vocab_list_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, vocab_list_model_list_init))

static void vocab_list_model_class_init(VocabListModelClass *klass) { (void)klass; }
static void vocab_list_model_init(VocabListModel *model) { model->count = 0; }

VocabListModel *vocab_list_model_new(void) { return g_object_new(VOCAB_TYPE_LIST_MODEL, NULL); }

guint vocab_list_model_get_count(VocabListModel *model) { return model->count; }

void vocab_list_model_reset(VocabListModel *model, guint count) {
    guint removed = model->count;
    model->count = count;
    if (removed > 0 || count > 0) g_list_model_items_changed(G_LIST_MODEL(model), 0, removed, count);
}

void vocab_list_model_remove(VocabListModel *model, guint position) {
    if (position >= model->count) return;
    model->count -= 1;
    g_list_model_items_changed(G_LIST_MODEL(model), position, 1, 0);
}

void vocab_list_model_insert(VocabListModel *model, guint position) {
    if (position > model->count) position = model->count;
    model->count += 1;
    g_list_model_items_changed(G_LIST_MODEL(model), position, 0, 1);
}

void vocab_list_model_changed(VocabListModel *model, guint position, guint count) {
    if (count == 0) return;
    g_list_model_items_changed(G_LIST_MODEL(model), position, count, count);
}
