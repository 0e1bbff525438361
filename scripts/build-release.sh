#!/usr/bin/env bash
# Installs what building needs (scripts/setup.sh), builds the release `stockroom` and prints its
# path on stdout. With --serve it builds `stockroom-serve` too, the web server that
# `stockroom serve` runs from the same folder (README, "Install"): a program of its own that
# the walk-through never runs, and whose release build (Hummingbird, SwiftNIO) takes longer
# than stockroom's, so a first run does not pay for it. Both programs are linked the same way.
#
# The Swift runtime and Foundation are linked statically: the binary starts in about half the
# time, which matters for a command that scripts run thousands of times (see BENCHMARKS.md, W6).
# Linking Foundation statically makes glibc's linker print a notice about Foundation's own use
# of mktemp(3) ("the use of `mktemp' is dangerous"); it is about the toolchain's library, not
# this project's code, and would bury real warnings, so that one line is dropped.
set -euo pipefail
cd "$(dirname "$0")/.."

products=(stockroom)
for argument in "$@"; do
    case $argument in
        --serve) products+=(stockroom-serve) ;;
        *) echo "build-release: unknown option $argument (expected --serve)" >&2; exit 64 ;;
    esac
done

# --no-export-dynamic: the static Swift runtime's link arguments export every symbol of the
# program's own objects (22k) into its dynamic symbol table, where no library looks anything
# up; each start then paid for that table in every symbol lookup of libstdc++ and libsqlite3:
# 760k instructions (9% of `items list --limit 20 --format json`; BENCHMARKS.md, "Issue 21:
# start-up").
#
# libstdc++ linked statically as well (the Swift runtime is its only user): loaded as a shared
# library it cost every start 1.7k symbol lookups and 1.7M instructions (a bare Swift program
# linked the usual way spends 1.6M of its 2.1M on it). The static Swift runtime's link arguments ask for `-lstdc++`, so a folder
# holding only the static archive is searched first (swiftc's -L comes before the compiler's
# own folders); without one (no libstdc++.a installed) the shared library is used as before.
scripts/setup.sh
static_cxx=.build/static-libstdc++
archive=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
link_flags=(-Xlinker --no-export-dynamic)
if [ -f "$archive" ]; then
    mkdir -p "$static_cxx"
    ln -sfn "$archive" "$static_cxx/libstdc++.a"
    link_flags+=(-Xswiftc -L -Xswiftc "$PWD/$static_cxx")
fi
for product in "${products[@]}"; do
    swift build -c release --product "$product" --static-swift-stdlib "${link_flags[@]}" 2>&1 \
        | { grep -v "the use of \`mktemp' is dangerous" || true; } >&2
done
echo "$(swift build -c release --static-swift-stdlib --show-bin-path)/stockroom"
