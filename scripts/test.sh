#!/usr/bin/env bash
# Sets up a fresh Debian machine (everything the tests use: scripts/setup.sh --tests) and runs every test: unit tests per module and end-to-end
# tests that run the built `stockroom` binary and the sqlite3 shell on real files.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --tests
# The DocC documentation of the library's modules, failing on any warning. Before the build:
# the plugin compiles those modules again for their symbol graphs, in the same build folder.
scripts/docs.sh
swift build --build-tests -Xswiftc -warnings-as-errors

# The benchmark package must keep compiling and running; --quick asserts nothing about time
# and leaves BENCHMARKS.md alone. It runs before the tests so that the test runner's summary
# is the last thing printed.
scripts/bench.sh --quick >&2

# Every fuzz target (Fuzz/, libFuzzer with AddressSanitizer) for a short run from its seeds:
# a crash or a broken property fails the job. About three minutes with the sanitizer build.
# A fixed seed, so that CI replays the same mutations each run and a red build names a change,
# not a lucky draw; exploring is for long runs by hand (RELIABILITY.md, "Fuzzing").
scripts/fuzz.sh all 15 -seed=1 >&2

# The seeds' view model as a library user builds it (Examples/InventoryApp, a package that
# depends on this one by path): built without warnings and its tests run, before the main
# suite so that the main runner's summary is the last thing printed. Its tests sync through the
# `stockroom serve` built above (.build/debug), so they come after that build.
(cd Examples/InventoryApp && swift build --build-tests -Xswiftc -warnings-as-errors && swift test --skip-build) >&2

swift test --skip-build --parallel --num-workers 2 "$@"
