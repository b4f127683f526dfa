// A lazy GListModel for long lists: it holds only a count; each item is a tiny VocabRow that
// knows its position. The view asks Swift for a row's text when it binds the row, so a list of
// 100,000 words costs a count, not 100,000 objects.
#ifndef VOCAB_LIST_MODEL_H
#define VOCAB_LIST_MODEL_H

#include <gio/gio.h>

G_BEGIN_DECLS

#define VOCAB_TYPE_ROW (vocab_row_get_type())
G_DECLARE_FINAL_TYPE(VocabRow, vocab_row, VOCAB, ROW, GObject)

/// The position of the row in its model when it was made.
guint vocab_row_get_position(VocabRow *row);

#define VOCAB_TYPE_LIST_MODEL (vocab_list_model_get_type())
G_DECLARE_FINAL_TYPE(VocabListModel, vocab_list_model, VOCAB, LIST_MODEL, GObject)

VocabListModel *vocab_list_model_new(void);
guint vocab_list_model_get_count(VocabListModel *model);
/// Replaces the whole content: `removed` old rows at 0 become `count` rows.
void vocab_list_model_reset(VocabListModel *model, guint count);
/// One row removed at `position`.
void vocab_list_model_remove(VocabListModel *model, guint position);
/// One row inserted at `position`.
void vocab_list_model_insert(VocabListModel *model, guint position);
/// Rows changed in place (re-bind them).
void vocab_list_model_changed(VocabListModel *model, guint position, guint count);

G_END_DECLS

#endif
