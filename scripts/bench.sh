#!/usr/bin/env bash
# Builds the benchmark package (Benchmarks/) and the stockroom binary in release mode and runs
# the side-by-side benchmarks; writes the figures into BENCHMARKS.md.
#   scripts/bench.sh            full sizes (1M items; takes several minutes)
#   scripts/bench.sh --quick    small sizes, to check that everything builds and runs
# Extra arguments go to the harness (e.g. --only W1,W3).
set -euo pipefail
cd "$(dirname "$0")/.."

# Linking Foundation statically makes glibc's linker print a notice about Foundation's own use
# of mktemp(3) ("warning: the use of `mktemp' is dangerous"). It is about the toolchain's
# library, not this project's code, and would otherwise bury real warnings; drop that one line.
drop_toolchain_link_notice() { grep -v "the use of \`mktemp' is dangerous" || true; }

scripts/setup.sh
# Measure the binary as scripts/run.sh builds it: Swift runtime linked statically.
swift build -c release --product stockroom --static-swift-stdlib 2>&1 | drop_toolchain_link_notice >&2
stockroom=$(swift build -c release --static-swift-stdlib --show-bin-path)/stockroom

output=BENCHMARKS.md
for argument in "$@"; do
    # A quick run only proves the harness works; it must not overwrite the recorded figures.
    [ "$argument" = "--quick" ] && output=$(mktemp -d)/BENCHMARKS.md
done

swift build -c release --package-path Benchmarks >&2
"$(swift build -c release --package-path Benchmarks --show-bin-path)/StockroomBenchmarks" \
    --stockroom "$stockroom" --output "$output" "$@"
