#!/usr/bin/env bash
# W11 on PostgreSQL (issue 21): the statement `items list --search TEXT --limit 20` runs there,
# for the terms of Benchmarks/Sources/StockroomBenchmarks/SearchWorkload.swift, on the rows of
# an SQLite file made by the benchmark harness (`--large-db FILE`), in a throwaway server.
# Prints, per term, p50 and p99 of the server's own "Execution Time" (EXPLAIN ANALYZE, RUNS
# runs after one warm-up) and the plan's top node.
#   scripts/bench-search-postgres.sh FILE [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
file=$1 runs=${2:-30}
stockroom=$(swift build --show-bin-path)/stockroom
. scripts/lib/bench-postgres.sh
start_throwaway_postgres
psql -X -q -d "postgresql://bench@/postgres?host=$work" -c "CREATE DATABASE w11" >/dev/null
STOCKROOM_DB=$(uri w11) "$stockroom" migrate up >/dev/null
columns="id, name, color, status, quantity, is_on_back_order, created_at, updated_at"
sqlite3 -csv "$file" "SELECT $columns FROM items" | psql_on w11 -c "\\copy items ($columns) FROM STDIN WITH (FORMAT csv)"
psql_on w11 -c "ANALYZE items"
echo "| term | rows | p50 ms | p99 ms | plan |"
echo "|---|---:|---:|---:|---|"
for term in keyboard STURDY ter "Lamp 0" 00123 99999 "Hub 00042" "tiny mouse 12345" zzz "Keyboard 9999999" qwerty Lamp-; do
    query="SELECT id, name, color, status, quantity, is_on_back_order FROM items WHERE name ILIKE '%$term%' ESCAPE '\\' ORDER BY name, id LIMIT 20"
    rows=$(psql_on w11 -c "SELECT count(*) FROM ($query) page")
    plan=$(psql_on w11 -c "EXPLAIN (COSTS OFF) $query" | sed -n 2p | sed 's/^ *->  //')
    times=$(for _ in $(seq 0 "$runs"); do
        psql_on w11 -c "EXPLAIN (ANALYZE, TIMING OFF) $query" | sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p'
    done | tail -n "$runs" | sort -g)
    p50=$(echo "$times" | sed -n "$(( (runs + 1) / 2 ))p")
    p99=$(echo "$times" | sed -n "$(( (runs * 99 + 99) / 100 ))p")
    echo "| $term | $rows | $p50 | $p99 | $plan |"
done
