#!/usr/bin/env bash
# `stockroom copy` of N items (default 1M, each with its 'added' history event) from a SQLite file
# into PostgreSQL, beside `psql \copy` of the same rows into the same tables plus building the
# same indexes, on a throwaway server (initdb + pg_ctl on a Unix socket in a temporary folder,
# default settings). Issue 13's target: the copy within 1.5x of the baseline.
#   scripts/bench-copy.sh [N] [RUNS]
# With STOCKROOM_BEFORE=path/to/an/older/stockroom, that binary's copy is timed in the same run
# too (before and after side by side). With PAIRS=N, N interleaved pairs (the copy, then the
# baseline) follow hyperfine's runs: hyperfine times all runs of one command before the next,
# so on a machine whose load drifts, the pairs are the fairer comparison.
# Prints hyperfine's figures; copy them into BENCHMARKS.md with the command.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
runs=${2:-3}

scripts/setup.sh --bench
stockroom=$(scripts/build-release.sh)
source scripts/lib/bench-postgres.sh
start_throwaway_postgres

# The source: N items and their first events, written with the sqlite3 shell after the schema.
source_file=$work/source.sqlite
write_bench_items "$source_file" "$n" "$stockroom"

# The baseline's input: the same rows as COPY text files, and the indexes' definitions.
psql_on postgres -c "CREATE DATABASE probe"
"$stockroom" copy --from "$source_file" --to "$(uri probe)" >/dev/null
for table in items item_events drafts; do
    psql_on probe -c "\\copy $table to '$work/$table.tsv'"
done
psql_on probe -c "SELECT indexdef || ';' FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE '%\\_by\\_%' ORDER BY indexname" > "$work/indexes.sql"
{
    # As `copy` sets the history triggers aside (DISABLE TRIGGER USER) and loads the events as
    # they are: without this the items' triggers write the events the next \copy then repeats.
    echo "SET session_replication_role = replica;"
    for table in items item_events drafts; do echo "\\copy $table from '$work/$table.tsv'"; done
    cat "$work/indexes.sql"
} > "$work/baseline.sql"
drop_indexes=$(psql_on probe -c "SELECT string_agg(indexname, ', ') FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE '%\\_by\\_%'")

# Each run starts from an empty database; the baseline's has the tables (keys and CHECKs, as
# the copy loads into) without the secondary indexes, which it then builds.
fresh() { psql_on postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"; }
before=()
if [ -n "${STOCKROOM_BEFORE:-}" ]; then
    before=(--prepare "$(declare -f psql_on uri fresh); work=$work; fresh dest"
            -n "stockroom copy, before ($n items)" "$STOCKROOM_BEFORE copy --from $source_file --to '$(uri dest)'")
fi
hyperfine --shell=bash --runs "$runs" --export-markdown "$work/copy.md" \
    "${before[@]}" \
    --prepare "$(declare -f psql_on uri fresh); work=$work; fresh dest" \
    -n "stockroom copy ($n items)" "$stockroom copy --from $source_file --to '$(uri dest)'" \
    --prepare "$(declare -f psql_on uri fresh); work=$work; fresh base && STOCKROOM_DB='$(uri base)' $stockroom migrate up >/dev/null && psql_on base -c 'DROP INDEX $drop_indexes'" \
    -n "psql \\copy + CREATE INDEX ($n items)" "psql -X -q -v ON_ERROR_STOP=1 -1 -d '$(uri base)' -f $work/baseline.sql"
cat "$work/copy.md"

for pair in $(seq 1 "${PAIRS:-0}"); do
    fresh dest >/dev/null
    start=$(date +%s.%N)
    "$stockroom" copy --from "$source_file" --to "$(uri dest)" >/dev/null
    copied=$(date +%s.%N)
    fresh base >/dev/null
    STOCKROOM_DB="$(uri base)" "$stockroom" migrate up >/dev/null
    psql_on base -c "DROP INDEX $drop_indexes"
    based=$(date +%s.%N)
    psql -X -q -v ON_ERROR_STOP=1 -1 -d "$(uri base)" -f "$work/baseline.sql"
    done_at=$(date +%s.%N)
    awk -v pair="$pair" -v a="$start" -v b="$copied" -v c="$based" -v d="$done_at" \
        'BEGIN { printf "pair %d: stockroom copy %.3f s, psql %.3f s, ratio %.2fx\n", pair, b - a, d - c, (b - a) / (d - c) }'
done
