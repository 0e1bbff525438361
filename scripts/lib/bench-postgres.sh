# Shared by the PostgreSQL benchmark scripts (bench-copy.sh, bench-copy-both-ways.sh,
# bench-import-postgres.sh); sourced, not run. A throwaway server and the benchmark's rows,
# written once here so the scripts compare the same things.

# Starts a throwaway server (initdb + pg_ctl on a Unix socket in a new temporary folder, default
# settings, trust for the `bench` user) and stops it and removes the folder when the script exits.
# Sets `work` (the folder) and defines `uri DATABASE` and `psql_on DATABASE [psql arguments]`.
start_throwaway_postgres() {
    bindir=$(pg_config --bindir 2>/dev/null || true)
    [ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    work=$(mktemp -d)
    chmod 755 "$work"
    as_server=()
    if [ "$(id -u)" = 0 ]; then
        # initdb and postgres refuse to run as root.
        chown postgres "$work"
        as_server=(setpriv --reuid="$(id -u postgres)" --regid="$(id -g postgres)" --init-groups --)
    fi
    trap stop_throwaway_postgres EXIT
    "${as_server[@]}" "$bindir/initdb" -D "$work/data" -U bench --auth=trust >/dev/null
    "${as_server[@]}" "$bindir/pg_ctl" start -w -D "$work/data" -l "$work/server.log" \
        -o "-k $work -c listen_addresses=''" >/dev/null
}

stop_throwaway_postgres() {
    "${as_server[@]}" "$bindir/pg_ctl" stop -D "$work/data" -m immediate -w >/dev/null 2>&1 || true
    rm -rf "$work"
}

uri() { echo "postgresql://bench@/$1?host=$work"; }
psql_on() { local database=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -At -d "$(uri "$database")" "$@"; }

# Writes N items into a new file FILE with the sqlite3 shell, after STOCKROOM's schema: ids,
# names, colours and statuses in fixed patterns (both statuses, back orders, no colour).
# The database records each item's version 1 itself (migration 0004's triggers).
write_bench_items() {
    local file=$1 count=$2 stockroom=$3
    STOCKROOM_DB=$file "$stockroom" migrate up >/dev/null
    sqlite3 "$file" <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count)
INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
SELECT printf('%08x-0000-7000-8000-%012x', i, i), 'Item ' || i,
       CASE i % 7 WHEN 0 THEN 'black' WHEN 1 THEN 'blue' WHEN 2 THEN 'green' WHEN 3 THEN 'red'
                  WHEN 4 THEN 'white' WHEN 5 THEN 'yellow' END,
       CASE WHEN i % 4 = 0 THEN 'out_of_stock' ELSE 'in_stock' END,
       CASE WHEN i % 4 = 0 THEN NULL ELSE i % 50 + 1 END,
       CASE WHEN i % 4 = 0 THEN i % 8 / 4 END,
       '2026-11-23T12:00:00.000Z', '2026-11-23T12:00:00.000Z'
FROM n;
COMMIT;
SQL
}
