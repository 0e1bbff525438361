/* The disk's floor for an adjustment over HTTP (issue 29, "W10-style"): the relative UPDATE
 * `POST /api/items/{id}/adjustments {"by": 1}` makes, each in its own durable transaction, one
 * after another on one raw SQLite connection with the PRAGMAs Stockroom sets (WAL,
 * synchronous=FULL, foreign_keys=ON). The file is a copy of a database Stockroom created, so the
 * same triggers (history) fire on every update.
 *
 *   cc -O2 -o floor-adjust floor-adjust.c -lsqlite3 && ./floor-adjust FILE ITEM-ID SECONDS
 *
 * Prints "updates=N seconds=S per_second=R p50_ms=A p99_ms=B". */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "floor-adjust: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: floor-adjust FILE ITEM-ID SECONDS\n"); return 64; }
    double seconds = atof(argv[3]);
    sqlite3 *db;
    check(sqlite3_open(argv[1], &db), db, "open");
    sqlite3_busy_timeout(db, 5000);
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;", 0, 0, 0), db, "pragmas");
    sqlite3_stmt *begin, *update, *commit;
    check(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, 0), db, "prepare begin");
    check(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, 0), db, "prepare commit");
    check(sqlite3_prepare_v2(db,
        "UPDATE items SET quantity = quantity + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ') "
        "WHERE id = ?1 AND status = 'in_stock'", -1, &update, 0), db, "prepare update");
    sqlite3_bind_text(update, 1, argv[2], -1, SQLITE_TRANSIENT);
    size_t capacity = 1 << 20, count = 0;
    double *latencies = malloc(capacity * sizeof(double));
    double start = now(), end = start + seconds;
    while (now() < end && count < capacity) {
        double t0 = now();
        check(sqlite3_step(begin), db, "begin");
        sqlite3_reset(begin);
        check(sqlite3_step(update), db, "update");
        sqlite3_reset(update);
        if (sqlite3_changes(db) != 1) { fprintf(stderr, "floor-adjust: no in-stock item %s\n", argv[2]); return 1; }
        check(sqlite3_step(commit), db, "commit");
        sqlite3_reset(commit);
        latencies[count++] = (now() - t0) * 1000;
    }
    double elapsed = now() - start;
    qsort(latencies, count, sizeof(double), compare);
    printf("updates=%zu seconds=%.2f per_second=%.1f p50_ms=%.2f p99_ms=%.2f\n", count, elapsed, count / elapsed,
           latencies[count / 2], latencies[(size_t)(count * 0.99)]);
    sqlite3_finalize(begin); sqlite3_finalize(update); sqlite3_finalize(commit);
    sqlite3_close(db);
    return 0;
}
