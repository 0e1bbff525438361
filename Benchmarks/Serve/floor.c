/* The disk's floor for W10 (BENCHMARKS.md): the inserts `POST /api/items` makes, each in its
 * own durable transaction, one after another on one raw SQLite connection with the PRAGMAs
 * Stockroom sets (WAL, synchronous=FULL, foreign_keys=ON). The file is a copy of a database
 * Stockroom created, so the same triggers (history, search index) fire on every insert.
 *
 *   cc -O2 -o floor floor.c -lsqlite3 && ./floor FILE SECONDS
 *
 * Prints "inserts=N seconds=S per_second=R p50_ms=A p99_ms=B". */
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
        fprintf(stderr, "floor: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor FILE SECONDS\n"); return 64; }
    double seconds = atof(argv[2]);
    sqlite3 *db;
    check(sqlite3_open(argv[1], &db), db, "open");
    sqlite3_busy_timeout(db, 5000);
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;", 0, 0, 0), db, "pragmas");
    sqlite3_stmt *begin, *insert, *commit;
    check(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, 0), db, "prepare begin");
    check(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, 0), db, "prepare commit");
    check(sqlite3_prepare_v2(db,
        "INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) "
        "VALUES (?1, ?2, NULL, 'in_stock', 1, NULL, strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ'))",
        -1, &insert, 0), db, "prepare insert");
    size_t capacity = 1 << 20, count = 0;
    double *latencies = malloc(capacity * sizeof(double));
    double start = now(), end = start + seconds;
    char id[37], name[64];
    srand((unsigned)time(0));
    unsigned long long seed = ((unsigned long long)rand() << 32) ^ (unsigned long long)rand();
    while (now() < end && count < capacity) {
        double t0 = now();
        /* A UUIDv7-shaped id: time-ordered like the product's, lowercase, unique per insert. */
        unsigned long long ms = (unsigned long long)(t0 * 1000) + 1790000000000ULL;
        snprintf(id, sizeof id, "%08llx-%04llx-7%03llx-8%03llx-%012llx", (ms >> 16) & 0xffffffffULL, ms & 0xffffULL,
                 (unsigned long long)(count >> 12) & 0xfffULL, (unsigned long long)count & 0xfffULL, seed & 0xffffffffffffULL);
        snprintf(name, sizeof name, "Floor item %zu", count);
        check(sqlite3_step(begin), db, "begin");
        sqlite3_reset(begin);
        sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, name, -1, SQLITE_TRANSIENT);
        check(sqlite3_step(insert), db, "insert");
        sqlite3_reset(insert);
        check(sqlite3_step(commit), db, "commit");
        sqlite3_reset(commit);
        latencies[count++] = (now() - t0) * 1000;
    }
    double elapsed = now() - start;
    qsort(latencies, count, sizeof(double), compare);
    printf("inserts=%zu seconds=%.2f per_second=%.1f p50_ms=%.2f p99_ms=%.2f\n", count, elapsed, count / elapsed,
           latencies[count / 2], latencies[(size_t)(count * 0.99)]);
    sqlite3_finalize(begin); sqlite3_finalize(insert); sqlite3_finalize(commit);
    sqlite3_close(db);
    return 0;
}
