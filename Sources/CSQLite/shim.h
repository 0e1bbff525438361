#ifndef STOCKROOM_CSQLITE_SHIM_H
#define STOCKROOM_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros that cast integers to function
// pointers, which Swift cannot import; these inline helpers make them usable.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

// sqlite3_db_config is variadic, which Swift cannot call directly.
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif
