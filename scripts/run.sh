#!/usr/bin/env bash
# Sets up a fresh Debian machine with what building needs (scripts/setup.sh; the tests' packages
# are scripts/test.sh's), builds `stockroom` in release mode and runs the main job: with
# arguments, `stockroom ARGS...`; without, a walk-through on a new sample database.
# `scripts/run.sh serve ...` also builds the web server, `stockroom-serve`, which only `serve` runs.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = serve ]; then
    stockroom=$(scripts/build-release.sh --serve)
else
    stockroom=$(scripts/build-release.sh)
fi

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
echo "\$ stockroom items list --status out-of-stock --format json"
"$stockroom" items list --status out-of-stock --format json
echo
echo "\$ stockroom migrate status"
"$stockroom" migrate status
