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

source scripts/lib/bench-postgres.sh
start_throwaway_postgres
fresh() { psql_on postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"; }

# The file source: N items (the rows of scripts/bench-copy.sh), written with the sqlite3 shell.
source_file=$work/source.sqlite
write_bench_items "$source_file" "$n" "$AFTER"
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
