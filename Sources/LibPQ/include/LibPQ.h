#ifndef STOCKROOM_LIBPQ_H
#define STOCKROOM_LIBPQ_H

// libpq, loaded on demand.
//
// Linking libpq (-lpq) makes every start of every program that links PostgresCore load libpq and
// the ~25 libraries it needs (Kerberos, LDAP, OpenSSL, ...): 4.5 ms before main() on this
// machine, for a CLI that mostly opens a SQLite file. So nothing links it: the first PostgreSQL
// connection dlopen()s libpq.so.5 and resolves the functions PostgresCore calls into one table.
// A program that never connects never loads it, and a machine without libpq5 still runs
// everything else.
//
// Each member has the name and, through __typeof__, exactly the type that libpq-fe.h declares,
// so a changed signature cannot go unnoticed; _Nonnull because a table is only ever handed out
// complete, so Swift sees plain (non-optional) functions. The only way to call libpq is through
// the table: calling a function directly compiles (the header declares it) but fails to link.

// Debian's libpq-dev puts the header in /usr/include/postgresql. Not through pkg-config: its
// `--libs` would put -lpq on every link line, which is what this target exists to avoid.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#include <stddef.h>

// Nullability is clang's; other compilers (gcc building a benchmark peer, say) ignore it.
#if !defined(__clang__)
#define _Nonnull
#define _Nullable
#endif

// Every libpq function PostgresCore uses, once: the table's members and the loader's list of
// symbols both come from this list.
#define STOCKROOM_LIBPQ_FUNCTIONS(F) \
    F(PQbackendPID) \
    F(PQcancel) \
    F(PQclear) \
    F(PQcmdStatus) \
    F(PQcmdTuples) \
    F(PQconnectPoll) \
    F(PQconsumeInput) \
    F(PQconnectStart) \
    F(PQconnectStartParams) \
    F(PQconninfo) \
    F(PQdescribePrepared) \
    F(PQconninfoFree) \
    F(PQconninfoParse) \
    F(PQerrorMessage) \
    F(PQexec) \
    F(PQexecParams) \
    F(PQexecPrepared) \
    F(PQfinish) \
    F(PQfname) \
    F(PQfnumber) \
    F(PQfreeCancel) \
    F(PQfreemem) \
    F(PQftype) \
    F(PQgetCancel) \
    F(PQgetCopyData) \
    F(PQgetResult) \
    F(PQgetisnull) \
    F(PQgetlength) \
    F(PQgetvalue) \
    F(PQhost) \
    F(PQlibVersion) \
    F(PQnparams) \
    F(PQnfields) \
    F(PQnotifies) \
    F(PQntuples) \
    F(PQport) \
    F(PQprepare) \
    F(PQputCopyData) \
    F(PQputCopyEnd) \
    F(PQresultErrorField) \
    F(PQresultErrorMessage) \
    F(PQresultStatus) \
    F(PQsendQueryPrepared) \
    F(PQserverVersion) \
    F(PQsetClientEncoding) \
    F(PQsetNoticeProcessor) \
    F(PQsetSingleRowMode) \
    F(PQsocket) \
    F(PQstatus) \
    F(PQtransactionStatus)

/// The libpq functions PostgresCore calls, each resolved from the loaded library.
typedef struct LibPQFunctions {
#define STOCKROOM_LIBPQ_MEMBER(name) __typeof__(name) *_Nonnull name;
    STOCKROOM_LIBPQ_FUNCTIONS(STOCKROOM_LIBPQ_MEMBER)
#undef STOCKROOM_LIBPQ_MEMBER
} LibPQFunctions;

/// Why a load failed.
typedef enum LibPQLoadFailure {
    /// Loaded: the table is complete.
    LibPQLoadFailureNone = 0,
    /// dlopen() failed: the library is not installed (or one of its own dependencies is not).
    LibPQLoadFailureLibraryMissing = 1,
    /// The library loaded but lacks a function: not libpq, or one too old.
    LibPQLoadFailureSymbolMissing = 2,
} LibPQLoadFailure;

/// The soname loaded in production.
#define STOCKROOM_LIBPQ_SONAME "libpq.so.5"

/// libpq's functions, loading libpq.so.5 (RTLD_NOW | RTLD_LOCAL) on the first call of the
/// process; later calls, from any thread, return the same answer without loading again
/// (pthread_once). The library is never unloaded.
///
/// Returns NULL when it could not be loaded; then `*failure` says why and `*message` points to
/// dlerror()'s text (static storage, valid for the life of the process).
const LibPQFunctions *_Nullable stockroom_libpq_functions(LibPQLoadFailure *_Nonnull failure,
                                                          const char *_Nullable *_Nonnull message);

/// Loads `library` into `table`, apart from the process-wide table: what
/// stockroom_libpq_functions does once, exposed so tests can load a library that is missing or
/// is not libpq. On failure the library is closed again, `message` receives dlerror()'s text
/// (truncated to `capacity`), and `table` is left incomplete: do not use it.
LibPQLoadFailure stockroom_libpq_load(const char *_Nonnull library, LibPQFunctions *_Nonnull table,
                                      char *_Nonnull message, size_t capacity);

// The PG_DIAG_* field codes are character-literal macros ('C', 'n', ...), which Swift does not
// import; these constants make them usable with PQresultErrorField.
static const int clibpq_diag_severity = PG_DIAG_SEVERITY_NONLOCALIZED;
static const int clibpq_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int clibpq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int clibpq_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
static const int clibpq_diag_message_hint = PG_DIAG_MESSAGE_HINT;
static const int clibpq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
static const int clibpq_diag_table_name = PG_DIAG_TABLE_NAME;
static const int clibpq_diag_column_name = PG_DIAG_COLUMN_NAME;

#endif
