#include "LibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

LibPQLoadFailure stockroom_libpq_load(const char *library, LibPQFunctions *table, char *message, size_t capacity) {
    // RTLD_NOW: every symbol libpq needs is bound here, so a broken installation fails at the
    // first connection with dlerror()'s text, not later in the middle of a statement.
    // RTLD_LOCAL: libpq's symbols (and those of the libraries it brings) stay out of the global
    // namespace, where they could otherwise interpose on the program's own.
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(message, capacity, "%s", reason ? reason : library);
        return LibPQLoadFailureLibraryMissing;
    }
    // dlsym() can legitimately return NULL for a symbol whose value is NULL; no libpq function
    // is, so NULL means missing, and dlerror() (cleared first) says which.
#define STOCKROOM_LIBPQ_RESOLVE(name) \
    { \
        dlerror(); \
        void *symbol = dlsym(handle, #name); \
        if (symbol == NULL) { \
            const char *reason = dlerror(); \
            snprintf(message, capacity, "%s", reason ? reason : #name); \
            dlclose(handle); \
            return LibPQLoadFailureSymbolMissing; \
        } \
        memcpy(&table->name, &symbol, sizeof symbol); \
    }
    STOCKROOM_LIBPQ_FUNCTIONS(STOCKROOM_LIBPQ_RESOLVE)
#undef STOCKROOM_LIBPQ_RESOLVE
    return LibPQLoadFailureNone;
}

static pthread_once_t process_load_once = PTHREAD_ONCE_INIT;
static LibPQFunctions process_table;
static LibPQLoadFailure process_failure;
static char process_message[1024];

static void load_for_process(void) {
    process_failure = stockroom_libpq_load(STOCKROOM_LIBPQ_SONAME, &process_table, process_message,
                                           sizeof process_message);
}

const LibPQFunctions *stockroom_libpq_functions(LibPQLoadFailure *failure, const char **message) {
    pthread_once(&process_load_once, load_for_process);
    *failure = process_failure;
    if (process_failure != LibPQLoadFailureNone) {
        *message = process_message;
        return NULL;
    }
    *message = NULL;
    return &process_table;
}
