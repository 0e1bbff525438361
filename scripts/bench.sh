#!/usr/bin/env bash
# Builds the benchmark package (Benchmarks/) and the stockroom binary in release mode and runs
# the side-by-side benchmarks; writes the figures into BENCHMARKS.md.
#   scripts/bench.sh            full sizes (1M items; takes several minutes)
#   scripts/bench.sh --quick    small sizes, to check that everything builds and runs
# Extra arguments go to the harness (e.g. --only W1,W3).
set -euo pipefail
cd "$(dirname "$0")/.."

# W5 and W6 run the sqlite3 shell, and --postgres starts a throwaway server as the tests do:
# the tests' packages (build-release.sh alone installs only what building needs).
scripts/setup.sh --tests
output=BENCHMARKS.md
release=()
previous=
for argument in "$@"; do
    # A quick run only proves the harness works; it must not overwrite the recorded figures.
    [ "$argument" = "--quick" ] && output=$(mktemp -d)/BENCHMARKS.md
    # W15 syncs through `stockroom serve`, which runs stockroom-serve from the same folder.
    [ "$previous" = "--only" ] && [[ ",$argument," == *,W15,* ]] && release=(--serve)
    previous=$argument
done
# Measure the binary exactly as scripts/run.sh builds it.
stockroom=$(scripts/build-release.sh "${release[@]}")

swift build -c release --package-path Benchmarks >&2
"$(swift build -c release --package-path Benchmarks --show-bin-path)/StockroomBenchmarks" \
    --stockroom "$stockroom" --output "$output" "$@"
