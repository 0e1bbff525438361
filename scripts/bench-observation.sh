#!/usr/bin/env bash
# W12 (issue 27): commit-to-notification latency from another process, and idle cost.
# A Python writer commits one item at a time (sqlite3 module on a file; a kept-open psql on
# PostgreSQL) and times each commit's return; `stockroom events --follow` and one
# `GET /api/events` stream of `stockroom serve` are read as lines arrive
# (Benchmarks/Observation/latency.py). Prints p50/p90/p99/max in ms per observer, and the
# CPU time each observer used over IDLE seconds with nothing written, and that of a server
# holding 100 open event streams (Benchmarks/Observation/idle_streams.py).
#   scripts/bench-observation.sh                       SQLite, 300 commits, debug binaries
#   STOCKROOM=.build/release/stockroom scripts/bench-observation.sh   release binaries
#   POSTGRES=1 scripts/bench-observation.sh            also PostgreSQL, on a throwaway server
#   BEFORE=/work/main/.build/debug/stockroom scripts/bench-observation.sh
#                                                      first GET /api/events of a binary without
#                                                      observation (its 250 ms poll), same run
#   LIBRARY=$(swift build -c release --package-path Benchmarks --show-bin-path)/ObserveEvents scripts/bench-observation.sh
#                                                      also the library's HistoryEvents (W12 c)
set -euo pipefail
cd "$(dirname "$0")/.."
stockroom=${STOCKROOM:-$(swift build --show-bin-path)/stockroom}
commits=${COMMITS:-300}
idle=${IDLE:-10}
work=.build/bench-observation
mkdir -p "$work"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
run() { python3 Benchmarks/Observation/latency.py "$@" --commits "$commits" --idle-seconds "$idle"; }
library=()
[[ -n "${LIBRARY:-}" ]] && library=(--library "$LIBRARY")
[[ -n "${BEFORE:-}" ]] && run "$BEFORE" "$work" --sse-only
run "$stockroom" "$work" "${library[@]}"
[[ -n "${BEFORE:-}" ]] && python3 Benchmarks/Observation/idle_streams.py "$BEFORE" "$work" --idle-seconds "$idle"
python3 Benchmarks/Observation/idle_streams.py "$stockroom" "$work" --idle-seconds "$idle"
if [[ -n "${POSTGRES:-}" ]]; then
    source scripts/lib/bench-postgres.sh
    start_throwaway_postgres
    [[ -n "${BEFORE:-}" ]] && run "$BEFORE" "$work" --sse-only --engine postgres --uri "$(uri postgres)"
    run "$stockroom" "$work" --engine postgres --uri "$(uri postgres)" "${library[@]}"
fi
