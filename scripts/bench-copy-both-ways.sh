#!/usr/bin/env bash
# `stockroom copy` of N items (default 200k, each with its 'added' history event) both ways
# between a SQLite file and PostgreSQL, for two binaries side by side: BEFORE and AFTER (paths to
# release builds of `stockroom`, e.g. `scripts/build-release.sh` at two commits). A throwaway
# server (initdb + pg_ctl on a Unix socket in a temporary folder, default settings), as
# scripts/bench-copy.sh. Each run copies into an empty destination.
#   BEFORE=path AFTER=path scripts/bench-copy-both-ways.sh [N] [RUNS]
# Prints hyperfine's figures; copy them into BENCHMARKS.md with the command and the load.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200000}
runs=${2:-5}
: "${BEFORE:?BEFORE=path/to/the/older/stockroom}" "${AFTER:?AFTER=path/to/the/newer/stockroom}"

scripts/setup.sh --bench

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
fresh() { psql_on postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"; }

# The file source: N items (the rows of scripts/bench-copy.sh), written with the sqlite3 shell.
source_file=$work/source.sqlite
STOCKROOM_DB=$source_file "$AFTER" migrate up >/dev/null
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
COMMIT;
SQL
# The server source: the same rows, copied there once.
fresh src >/dev/null
"$AFTER" copy --from "$source_file" --to "$(uri src)" >/dev/null

setup="$(declare -f psql_on uri fresh); work=$work"
hyperfine --shell=bash --runs "$runs" --export-markdown "$work/to-server.md" \
    --prepare "$setup; fresh dest >/dev/null" \
    -n "before: SQLite -> PostgreSQL ($n items)" "$BEFORE copy --from $source_file --to '$(uri dest)'" \
    --prepare "$setup; fresh dest >/dev/null" \
    -n "after: SQLite -> PostgreSQL ($n items)" "$AFTER copy --from $source_file --to '$(uri dest)'"
hyperfine --shell=bash --runs "$runs" --export-markdown "$work/to-file.md" \
    --prepare "rm -f $work/out.sqlite $work/out.sqlite-wal $work/out.sqlite-shm" \
    -n "before: PostgreSQL -> SQLite ($n items)" "$BEFORE copy --from '$(uri src)' --to $work/out.sqlite" \
    --prepare "rm -f $work/out.sqlite $work/out.sqlite-wal $work/out.sqlite-shm" \
    -n "after: PostgreSQL -> SQLite ($n items)" "$AFTER copy --from '$(uri src)' --to $work/out.sqlite"
cat "$work/to-server.md" "$work/to-file.md"
