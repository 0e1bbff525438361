#!/usr/bin/env bash
# `stockroom copy` of N items (default 1M, each with its 'added' history event) from a SQLite file
# into PostgreSQL, beside `psql \copy` of the same rows into the same tables plus building the
# same indexes, on a throwaway server (initdb + pg_ctl on a Unix socket in a temporary folder,
# default settings). Issue 13's target: the copy within 1.5x of the baseline.
#   scripts/bench-copy.sh [N] [RUNS]
# Prints hyperfine's figures; copy them into BENCHMARKS.md with the command.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
runs=${2:-3}

stockroom=$(scripts/build-release.sh)
bindir=$(pg_config --bindir 2>/dev/null || true)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
work=$(mktemp -d)
as_server=()
if [ "$(id -u)" = 0 ]; then
    # initdb and postgres refuse to run as root.
    chown postgres "$work"
    as_server=(setpriv --reuid="$(id -u postgres)" --regid="$(id -g postgres)" --init-groups --)
fi
cleanup() {
    "${as_server[@]}" "$bindir/pg_ctl" stop -D "$work/data" -m immediate -w >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
"${as_server[@]}" "$bindir/initdb" -D "$work/data" -U bench --auth=trust >/dev/null
"${as_server[@]}" "$bindir/pg_ctl" start -w -D "$work/data" -l "$work/server.log" \
    -o "-k $work -c listen_addresses=''" >/dev/null
uri() { echo "postgresql://bench@/$1?host=$work"; }
psql_on() { local database=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -At -d "$(uri "$database")" "$@"; }

# The source: N items and their first events, written with the sqlite3 shell after the schema.
source_file=$work/source.sqlite
STOCKROOM_DB=$source_file "$stockroom" migrate up >/dev/null
sqlite3 "$source_file" <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n)
INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
SELECT printf('%08x-0000-7000-8000-%012x', i, i), 'Item ' || i,
       CASE i % 7 WHEN 0 THEN 'black' WHEN 1 THEN 'blue' WHEN 2 THEN 'green' WHEN 3 THEN 'red'
                  WHEN 4 THEN 'white' WHEN 5 THEN 'yellow' END,
       CASE WHEN i % 4 = 0 THEN 'out_of_stock' ELSE 'in_stock' END,
       CASE WHEN i % 4 = 0 THEN NULL ELSE i % 50 + 1 END,
       CASE WHEN i % 4 = 0 THEN i % 8 / 4 END,
       '2026-11-23T12:00:00.000Z', '2026-11-23T12:00:00.000Z'
FROM n;
-- (The database records each item's version 1 itself: migration 0004's triggers.)
COMMIT;
SQL

# The baseline's input: the same rows as COPY text files, and the indexes' definitions.
psql_on postgres -c "CREATE DATABASE probe"
"$stockroom" copy --from "$source_file" --to "$(uri probe)" >/dev/null
for table in items item_events drafts; do
    psql_on probe -c "\\copy $table to '$work/$table.tsv'"
done
psql_on probe -c "SELECT indexdef || ';' FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE '%\\_by\\_%' ORDER BY indexname" > "$work/indexes.sql"
{
    for table in items item_events drafts; do echo "\\copy $table from '$work/$table.tsv'"; done
    cat "$work/indexes.sql"
} > "$work/baseline.sql"
drop_indexes=$(psql_on probe -c "SELECT string_agg(indexname, ', ') FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE '%\\_by\\_%'")

# Each run starts from an empty database; the baseline's has the tables (keys and CHECKs, as
# the copy loads into) without the secondary indexes, which it then builds.
fresh() { psql_on postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"; }
hyperfine --shell=bash --runs "$runs" --export-markdown "$work/copy.md" \
    --prepare "$(declare -f psql_on uri fresh); work=$work; fresh dest" \
    -n "stockroom copy ($n items)" "$stockroom copy --from $source_file --to '$(uri dest)'" \
    --prepare "$(declare -f psql_on uri fresh); work=$work; fresh base && STOCKROOM_DB='$(uri base)' $stockroom migrate up >/dev/null && psql_on base -c 'DROP INDEX $drop_indexes'" \
    -n "psql \\copy + CREATE INDEX ($n items)" "psql -X -q -v ON_ERROR_STOP=1 -1 -d '$(uri base)' -f $work/baseline.sql"
cat "$work/copy.md"
