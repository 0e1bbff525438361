#!/usr/bin/env bash
# Builds the DocC documentation of the library's modules (StockroomStore, Inventory, DraftFlow)
# with swift-docc-plugin, into .build/plugins/Swift-DocC/outputs/<Module>.doccarchive.
# Fails on any warning (a broken link, an undocumented parameter), so the documentation stays
# whole: scripts/test.sh runs it. Preview one with
#   swift package --disable-sandbox preview-documentation --target StockroomStore
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift package generate-documentation --target StockroomStore --target Inventory --target DraftFlow >"$log" 2>&1 \
    || { cat "$log" >&2; exit 1; }
if grep -q "^warning:" "$log"; then
    grep -A8 "^warning:" "$log" >&2
    echo "docs: $(grep -c '^warning:' "$log") warning(s) in the documentation" >&2
    exit 1
fi
echo "docs: StockroomStore, Inventory and DraftFlow documented without warnings" >&2
