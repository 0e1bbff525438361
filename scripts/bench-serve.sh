#!/usr/bin/env bash
# `stockroom serve` side by side with its peers (issue 19; figures in BENCHMARKS.md):
#   W9      reads: GET /api/items?limit=50 (first page, and a filtered search) on a 1M-item
#           file against Datasette 0.65 serving the same file's items.json?_size=50 with the
#           same filter; wrk -t2 -c16 -d20s; requests/s, p50, p99, the server's peak RSS.
#           The list page itself (`/` and `/?status=in-stock&search=0042`, the counter's
#           page, 50 rows with their forms) against Datasette's HTML table page, same filter.
#   W10     writes: POST /api/items from 16 connections (wrk, distinct bodies) against the
#           same inserts each in its own durable transaction on one raw C connection
#           (Benchmarks/Serve/floor.c: the disk's floor); acknowledged writes/s and p99;
#           every 201 checked against the rows found afterwards. Beside them, the contrast: 16
#           `stockroom items add` processes at once (Benchmarks/Serve/cli_writers.py), which
#           cannot share a commit.
#   W10b    adjustments: POST /api/items/{id}/adjustments {"by":1} on one item from 16
#           connections (wrk, Benchmarks/Serve/post-adjustments.lua) against the same relative
#           UPDATE in its own durable transaction on one raw C connection
#           (Benchmarks/Serve/floor-adjust.c); the stored quantity checked against the 200s.
#   export  GET /api/export of the 1M items against `stockroom export` (wall time, RSS).
#   pages-exports  the first page's latencies while 3, then 4, clients download /api/export
#           at 200 KB/s each (Benchmarks/Serve/slow_exports.py): do exports starve reads?
# The two sides of each comparison alternate, ROUNDS times, in one run; the load average is
# printed beside every figure (other work on the machine shows there).
#   scripts/bench-serve.sh                 1M items, 20 s per wrk run, 2 rounds
#   ITEMS=20000 DURATION=3 ROUNDS=1 scripts/bench-serve.sh     a quick check that it all runs
#   ONLY=W10 scripts/bench-serve.sh        one comparison (W9, W10, W10b, pages-exports, export; comma-separated)
# Needs `scripts/setup.sh --bench` (wrk, gcc); Datasette goes into .build/bench-venv (PyPI),
# never into the product.
set -euo pipefail
cd "$(dirname "$0")/.."

items=${ITEMS:-1000000}
duration=${DURATION:-20}
rounds=${ROUNDS:-2}
only=${ONLY:-W9,W10,W10b,pages-exports,export}   # e.g. ONLY=W10 runs that comparison alone
want() { [[ ",$only," == *",$1,"* ]]; }
work=.build/bench-serve
mkdir -p "$work"
stockroom=${STOCKROOM:-$(scripts/build-release.sh --serve)}
venv=.build/bench-venv
if ! "$venv/bin/datasette" --version 2>/dev/null | grep -q " 0\.65"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "datasette>=0.65,<0.66"
fi
cc -O2 -Wall -o "$work/floor" Benchmarks/Serve/floor.c -lsqlite3
cc -O2 -Wall -o "$work/floor-adjust" Benchmarks/Serve/floor-adjust.c -lsqlite3

load() { cut -d' ' -f1 /proc/loadavg; }
peak_rss_mib() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 200); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "bench-serve: $1 never answered" >&2; return 1; }
# wrk's summary as "req/s p50 p99" (milliseconds).
wrk_figures() {
    awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) } $1 == "Requests/sec:" { rps = $2 }
        /Non-2xx/ { bad = $NF } /Socket errors/ { errors = $0 }
        END { printf "%.0f req/s, p50 %.2f ms, p99 %.2f ms%s%s", rps, p50, p99, (bad ? ", non-2xx " bad : ""), (errors ? ", " errors : "") }'
}

# The 1M-item file, made once by `stockroom import` (kept between runs).
file="$work/items-$items.sqlite"
if [ ! -f "$file" ]; then
    python3 Benchmarks/Serve/items.py "$items" > "$work/items.jsonl"
    rm -f "$file.tmp"
    "$stockroom" import --db "$file.tmp" --format jsonl "$work/items.jsonl" >/dev/null
    "$stockroom" check --db "$file.tmp" >/dev/null
    mv "$file.tmp" "$file"
    rm -f "$work/items.jsonl"
fi
echo "# bench-serve: $items items, wrk $duration s, $rounds rounds, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# stockroom: $stockroom; datasette: $("$venv/bin/datasette" --version); $(wrk -v 2>&1 | head -1)"

# ---- W9 ----
if want W9; then
stockroom_port=$(free_port)
"$stockroom" serve --db "$file" --port "$stockroom_port" 2>"$work/serve-w9.log" >/dev/null &
stockroom_pid=$!
datasette_port=$(free_port)
"$venv/bin/datasette" serve "$file" --port "$datasette_port" -h 127.0.0.1 --setting suggest_facets off >/dev/null 2>"$work/datasette.log" &
datasette_pid=$!
trap 'kill $stockroom_pid $datasette_pid 2>/dev/null || true' EXIT
wait_http "http://127.0.0.1:$stockroom_port/api/items?limit=1"
database=$(basename "$file" .sqlite)
wait_http "http://127.0.0.1:$datasette_port/$database.json"

# Each server's own first page (Stockroom's in name order, as `items list`; Datasette's in
# rowid order, its default) and the same filter: in-stock items whose name contains "0042"
# (Datasette: LIKE, as it has no search index on this table). Datasette is given its best
# case for an API: `--setting suggest_facets off` and `_nocount=1`, else every page also
# runs facet suggestions and counts the 1M rows (0.8 s a page here), work Stockroom's page
# does not do.
# The pages: Stockroom's list page (50 rows by default, each with its counter's forms) and
# Datasette's HTML table page of 50 rows.
declare -A stockroom_paths=([first]="/api/items?limit=50" [filtered]="/api/items?limit=50&status=in-stock&search=0042"
                            [page]="/" [page-filtered]="/?status=in-stock&search=0042")
declare -A datasette_paths=([first]="/$database/items.json?_size=50&_nocount=1"
                            [filtered]="/$database/items.json?_size=50&_nocount=1&status__exact=in_stock&name__contains=0042"
                            [page]="/$database/items?_size=50&_nocount=1"
                            [page-filtered]="/$database/items?_size=50&_nocount=1&status__exact=in_stock&name__contains=0042")
for query in first filtered; do
    a=$(curl -s "http://127.0.0.1:$stockroom_port${stockroom_paths[$query]}" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')
    b=$(curl -s "http://127.0.0.1:$datasette_port${datasette_paths[$query]}" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["rows"]))')
    [ "$a" = 50 ] && [ "$b" = 50 ] || { echo "bench-serve: $query: a page of 50 expected, got $a and $b" >&2; exit 1; }
done
for query in page page-filtered; do
    a=$(curl -s "http://127.0.0.1:$stockroom_port${stockroom_paths[$query]}" | grep -c '<tr id="item-')
    b=$(curl -s "http://127.0.0.1:$datasette_port${datasette_paths[$query]}" | grep -c '<tr>')
    [ "$a" = 50 ] && [ "$b" -ge 50 ] || { echo "bench-serve: $query: a page of 50 rows expected, got $a and $b" >&2; exit 1; }
done
for round in $(seq "$rounds"); do
    for query in first filtered page page-filtered; do
        for side in stockroom datasette; do
            if [ $side = stockroom ]; then url="http://127.0.0.1:$stockroom_port${stockroom_paths[$query]}"
            else url="http://127.0.0.1:$datasette_port${datasette_paths[$query]}"; fi
            before=$(load)
            # --timeout 10s: a slow answer counts in the latencies instead of being dropped.
            figures=$(wrk -t2 -c16 -d"${duration}s" --timeout 10s --latency "$url" | wrk_figures)
            echo "W9 round $round $query $side: $figures (load $before -> $(load))"
        done
    done
done
echo "W9 peak RSS: stockroom $(peak_rss_mib $stockroom_pid) MiB, datasette $(peak_rss_mib $datasette_pid) MiB"
kill $stockroom_pid $datasette_pid; wait $stockroom_pid $datasette_pid 2>/dev/null || true
fi

# ---- W10 ----
if want W10; then
empty="$work/empty.sqlite"
rm -f "$empty"*
"$stockroom" items add --db "$empty" --name "Seed" >/dev/null
for round in $(seq "$rounds"); do
    target="$work/w10-server.sqlite"
    rm -f "$target"*; cp "$empty" "$target"
    port=$(free_port)
    "$stockroom" serve --db "$target" --port "$port" 2>"$work/serve-w10.log" >/dev/null &
    pid=$!
    wait_http "http://127.0.0.1:$port/api/items?limit=1"
    before=$(load)
    rm -f "$work/acknowledged".*
    output=$(W10_ACKNOWLEDGED="$work/acknowledged" wrk -t2 -c16 -d"${duration}s" --latency -s Benchmarks/Serve/post-items.lua "http://127.0.0.1:$port/")
    after=$(load)
    kill $pid; wait $pid || true
    created=$(echo "$output" | sed -n 's/^created=\([0-9]*\) other=.*/\1/p')
    rows=$(sqlite3 "$target" "SELECT count(*) - 1 FROM items")
    # Every 201 is in the file after the server stopped (requests cut off by wrk's end may
    # have committed without their 201 being read: more rows than 201s is expected).
    sort "$work"/acknowledged.* > "$work/acknowledged.names"
    sqlite3 "$target" "SELECT name FROM items" | sort > "$work/stored.names"
    missing=$(comm -23 "$work/acknowledged.names" "$work/stored.names" | wc -l)
    echo "W10 round $round server: $(echo "$output" | wrk_figures), 201s $created ($(echo "$created / $duration" | bc) acknowledged/s), rows $rows, acknowledged but missing $missing (load $before -> $after)"
    [ "$missing" = 0 ] && [ "$(wc -l < "$work/acknowledged.names")" = "$created" ] || { echo "bench-serve: W10: an acknowledged write is missing" >&2; exit 1; }

    target="$work/w10-floor.sqlite"
    rm -f "$target"*; cp "$empty" "$target"
    before=$(load)
    echo "W10 round $round raw C floor: $("$work/floor" "$target" "$duration") (load $before -> $(load))"

    target="$work/w10-cli.sqlite"
    rm -f "$target"*; cp "$empty" "$target"
    before=$(load)
    echo "W10 round $round 16 CLI processes: $(python3 Benchmarks/Serve/cli_writers.py "$stockroom" "$target" "$duration") (load $before -> $(load))"
done
fi

# ---- W10b ----
if want W10b; then
for round in $(seq "$rounds"); do
    target="$work/w10b-server.sqlite"
    rm -f "$target"*
    item=$("$stockroom" items add --db "$target" --name "Counter item" --quantity 1)
    cp "$target" "$work/w10b-floor.sqlite"
    port=$(free_port)
    "$stockroom" serve --db "$target" --port "$port" 2>"$work/serve-w10b.log" >/dev/null &
    pid=$!
    wait_http "http://127.0.0.1:$port/api/items?limit=1"
    before=$(load)
    output=$(ITEM=$item wrk -t2 -c16 -d"${duration}s" --latency -s Benchmarks/Serve/post-adjustments.lua "http://127.0.0.1:$port/")
    after=$(load)
    kill $pid; wait $pid || true
    adjusted=$(echo "$output" | sed -n 's/^adjusted=\([0-9]*\) other=.*/\1/p')
    other=$(echo "$output" | sed -n 's/^adjusted=[0-9]* other=\([0-9]*\)/\1/p')
    quantity=$(sqlite3 "$target" "SELECT quantity FROM items")
    events=$(sqlite3 "$target" "SELECT count(*) - 1 FROM item_events")
    echo "W10b round $round server: $(echo "$output" | wrk_figures), 200s $adjusted, other $other, stored quantity $quantity, change events $events (load $before -> $after)"
    # Every 200 counted: the quantity is one more per adjustment whose answer was read (one cut
    # off by wrk's end may have committed unanswered: more, never fewer) and each is one event.
    [ "$other" = 0 ] && [ "$quantity" -ge $((adjusted + 1)) ] && [ "$events" = $((quantity - 1)) ] \
        || { echo "bench-serve: W10b: the stored quantity does not count every adjustment" >&2; exit 1; }
    before=$(load)
    echo "W10b round $round raw C floor: $("$work/floor-adjust" "$work/w10b-floor.sqlite" "$item" "$duration") (load $before -> $(load))"
done
fi

# ---- pages-exports ----
if want pages-exports; then
port=$(free_port)
"$stockroom" serve --db "$file" --port "$port" 2>"$work/serve-pages-exports.log" >/dev/null &
pid=$!
wait_http "http://127.0.0.1:$port/api/items?limit=1"
for round in $(seq "$rounds"); do
    for exports in 0 3 4; do
        before=$(load)
        echo "pages-exports round $round, $exports exports at 200 KB/s: $(python3 Benchmarks/Serve/slow_exports.py "$port" "$duration" "$exports" 200000) (load $before -> $(load))"
    done
done
echo "pages-exports: server peak RSS $(peak_rss_mib $pid) MiB"
kill $pid; wait $pid || true
fi

# ---- export ----
if want export; then
port=$(free_port)
"$stockroom" serve --db "$file" --port "$port" 2>"$work/serve-export.log" >/dev/null &
pid=$!
wait_http "http://127.0.0.1:$port/api/items?limit=1"
cmp <("$stockroom" export --db "$file" --format jsonl) <(curl -sS "http://127.0.0.1:$port/api/export?format=jsonl") \
    || { echo "bench-serve: the export over HTTP differs from stockroom export" >&2; exit 1; }
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N); echo "$end - $start" | bc; }
for round in $(seq $((rounds + 1))); do
    before=$(load)
    cli=$(seconds "$stockroom" export --db "$file" --format jsonl)
    http=$(seconds curl -sS -o /dev/null "http://127.0.0.1:$port/api/export?format=jsonl")
    echo "export round $round: stockroom export ${cli} s, GET /api/export ${http} s, ratio $(echo "scale=2; $http / $cli" | bc) (load $before -> $(load))"
done
echo "export: server peak RSS $(peak_rss_mib $pid) MiB"
python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print("export: stockroom export peak RSS %.1f MiB" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024))' \
    "$stockroom" export --db "$file" --format jsonl
kill $pid; wait $pid || true
fi
