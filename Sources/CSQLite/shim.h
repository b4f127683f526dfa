#ifndef VOCAB_CSQLITE_SHIM_H
#define VOCAB_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds text that SQLite copies at once (SQLITE_TRANSIENT), so Swift's buffer may go away.
static inline int vocab_sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int byteCount) {
    return sqlite3_bind_text(stmt, index, text, byteCount, SQLITE_TRANSIENT);
}

/// Binds a blob that SQLite copies at once (SQLITE_TRANSIENT).
static inline int vocab_sqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int byteCount) {
    return sqlite3_bind_blob(stmt, index, bytes, byteCount, SQLITE_TRANSIENT);
}

/// Returns text from an SQL function that SQLite copies at once (SQLITE_TRANSIENT).
static inline void vocab_sqlite3_result_text(sqlite3_context *context, const char *text, int byteCount) {
    sqlite3_result_text(context, text, byteCount, SQLITE_TRANSIENT);
}

/// Returns a blob from an SQL function that SQLite copies at once (SQLITE_TRANSIENT).
static inline void vocab_sqlite3_result_blob(sqlite3_context *context, const void *bytes, int byteCount) {
    sqlite3_result_blob(context, bytes, byteCount, SQLITE_TRANSIENT);
}

/// Turns off SQLite's memory statistics, which take a global mutex on every allocation; must
/// run before SQLite initialises (the first connection opened). Returns SQLITE_OK, or
/// SQLITE_MISUSE when SQLite was already initialised.
static inline int vocab_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
