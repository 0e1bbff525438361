#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds `stockroom` in release mode and runs the main job:
# with arguments, `stockroom ARGS...`; without, a walk-through on a new sample database.
set -euo pipefail
cd "$(dirname "$0")/.."

# Linking Foundation statically makes glibc's linker print a notice about Foundation's own use
# of mktemp(3) ("warning: the use of `mktemp' is dangerous"). It is about the toolchain's
# library, not this project's code, and would otherwise bury real warnings; drop that one line.
drop_toolchain_link_notice() { grep -v "the use of \`mktemp' is dangerous" || true; }

scripts/setup.sh
# The Swift runtime and Foundation are linked statically: the binary starts in about half the
# time, which matters for a command that scripts run thousands of times.
swift build -c release --product stockroom --static-swift-stdlib 2>&1 | drop_toolchain_link_notice >&2
stockroom=$(swift build -c release --static-swift-stdlib --show-bin-path)/stockroom

if (($#)); then
    exec "$stockroom" "$@"
fi

db=$(mktemp -d)/walkthrough.sqlite
echo "# sample inventory in $db" >&2
export STOCKROOM_DB=$db
"$stockroom" items add --name Keyboard --color blue --quantity 100 >/dev/null
"$stockroom" items add --name Charger --color yellow --quantity 20 >/dev/null
"$stockroom" items add --name Phone --color green --out-of-stock --back-order >/dev/null
"$stockroom" items add --name Headphones --color green --out-of-stock >/dev/null
echo "\$ stockroom items list"
"$stockroom" items list
echo
echo "\$ stockroom items list --out-of-stock --format json"
"$stockroom" items list --out-of-stock --format json
echo
echo "\$ stockroom migrate status"
"$stockroom" migrate status
