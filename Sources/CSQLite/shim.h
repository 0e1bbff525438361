#ifndef STOCKROOM_CSQLITE_SHIM_H
#define STOCKROOM_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <malloc.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros that cast integers to function
// pointers, which Swift cannot import; these inline helpers make them usable.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

// sqlite3_db_config is variadic, which Swift cannot call directly.
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

// glibc's padding at the top of the heap (see SQLiteCore's HeapPadding.swift); mallopt and
// M_TOP_PAD come from <malloc.h>, which Swift's Glibc module does not include.
static inline int csqlite_set_heap_top_padding(int bytes) {
#ifdef M_TOP_PAD
    return mallopt(M_TOP_PAD, bytes);
#else
    return 0;
#endif
}

#endif
