#!/usr/bin/env bash
# Sets up the machine, builds the release `stockroom` and prints its path on stdout.
#
# The Swift runtime and Foundation are linked statically: the binary starts in about half the
# time, which matters for a command that scripts run thousands of times (see BENCHMARKS.md, W6).
# Linking Foundation statically makes glibc's linker print a notice about Foundation's own use
# of mktemp(3) ("the use of `mktemp' is dangerous"); it is about the toolchain's library, not
# this project's code, and would bury real warnings, so that one line is dropped.
set -euo pipefail
cd "$(dirname "$0")/.."

# --no-export-dynamic: the static Swift runtime's link arguments export every symbol of the
# program's own objects (22k) into its dynamic symbol table, where no library looks anything
# up; each start then paid for that table in every symbol lookup of libstdc++ and libsqlite3:
# 760k instructions (9% of `items list --limit 20 --format json`; BENCHMARKS.md, "Issue 21:
# start-up").
scripts/setup.sh
swift build -c release --product stockroom --static-swift-stdlib -Xlinker --no-export-dynamic 2>&1 \
    | { grep -v "the use of \`mktemp' is dangerous" || true; } >&2
echo "$(swift build -c release --static-swift-stdlib --show-bin-path)/stockroom"
