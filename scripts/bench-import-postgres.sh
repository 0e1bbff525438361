#!/usr/bin/env bash
# W7 on PostgreSQL: `stockroom import items.csv` of N items (default 1M, with their ids, as
# `stockroom export` writes them) into an empty, migrated PostgreSQL database, beside `psql -1`
# running `\copy` of the same rows into `items` (whose triggers write the same 'added' events,
# as for any client) followed by `CREATE INDEX` of the same secondary indexes of `items`, on a
# throwaway server (initdb + pg_ctl on a Unix socket in a temporary folder, default settings).
# Issue 21's target: the import within 1.5x of the baseline.
#   scripts/bench-import-postgres.sh [N] [RUNS]
# With STOCKROOM_BEFORE=path/to/an/older/stockroom, that binary's import is timed in the same
# run too (before and after side by side). With PAIRS=N, N interleaved pairs (the import, then
# the baseline) follow hyperfine's runs, the fairer comparison on a machine whose load drifts.
# Prints hyperfine's figures; copy them into BENCHMARKS.md with the command.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
runs=${2:-3}

scripts/setup.sh --bench
stockroom=$(scripts/build-release.sh)
source scripts/lib/bench-postgres.sh
start_throwaway_postgres

# The input: N items made with the sqlite3 shell, exported as CSV by stockroom (ids included).
source_file=$work/source.sqlite
write_bench_items "$source_file" "$n" "$stockroom"
csv=$work/items.csv
"$stockroom" export --output "$csv" --format csv --db "$source_file" >/dev/null

# The baseline's input: the same rows as `items` holds them after an import, as COPY text.
psql_on postgres -c "CREATE DATABASE probe"
"$stockroom" import "$csv" --db "$(uri probe)" >/dev/null
columns=$(psql_on probe -c "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'items'")
psql_on probe -c "\\copy items ($columns) to '$work/items.tsv'"
index_filter="schemaname = 'public' AND tablename = 'items' AND indexname LIKE '%\\_by\\_%'"
{
    echo "\\copy items ($columns) from '$work/items.tsv'"
    psql_on probe -c "SELECT indexdef || ';' FROM pg_indexes WHERE $index_filter ORDER BY indexname"
} > "$work/baseline.sql"
drop_indexes=$(psql_on probe -c "SELECT string_agg(indexname, ', ') FROM pg_indexes WHERE $index_filter")

# Each run starts from an empty, migrated database; the baseline's without the secondary
# indexes of `items`, which it then builds.
fresh() { psql_on postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"; }
migrated() { fresh "$1" && STOCKROOM_DB="$(uri "$1")" "$2" migrate up >/dev/null; }
prepare="$(declare -f psql_on uri fresh migrated); work=$work"
before=()
if [ -n "${STOCKROOM_BEFORE:-}" ]; then
    before=(--prepare "$prepare; migrated dest $STOCKROOM_BEFORE"
            -n "stockroom import, before ($n items)" "$STOCKROOM_BEFORE import $csv --db '$(uri dest)'")
fi
hyperfine --shell=bash --runs "$runs" --export-markdown "$work/import.md" \
    "${before[@]}" \
    --prepare "$prepare; migrated dest $stockroom" \
    -n "stockroom import ($n items)" "$stockroom import $csv --db '$(uri dest)'" \
    --prepare "$prepare; migrated base $stockroom && psql_on base -c 'DROP INDEX $drop_indexes'" \
    -n "psql \\copy + CREATE INDEX ($n items)" "psql -X -q -v ON_ERROR_STOP=1 -1 -d '$(uri base)' -f $work/baseline.sql"
cat "$work/import.md"

for pair in $(seq 1 "${PAIRS:-0}"); do
    migrated dest "$stockroom"
    start=$(date +%s.%N)
    "$stockroom" import "$csv" --db "$(uri dest)" >/dev/null
    imported=$(date +%s.%N)
    migrated base "$stockroom"
    psql_on base -c "DROP INDEX $drop_indexes"
    based=$(date +%s.%N)
    psql -X -q -v ON_ERROR_STOP=1 -1 -d "$(uri base)" -f "$work/baseline.sql"
    done_at=$(date +%s.%N)
    awk -v pair="$pair" -v a="$start" -v b="$imported" -v c="$based" -v d="$done_at" \
        'BEGIN { printf "pair %d: stockroom import %.3f s, psql %.3f s, ratio %.2fx\n", pair, b - a, d - c, (b - a) / (d - c) }'
done
