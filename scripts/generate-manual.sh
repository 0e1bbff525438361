#!/usr/bin/env bash
# Writes the manual pages (mdoc) into a folder (default .build/share/man/man1) and prints their
# paths: stockroom.1, and stockroom-serve.1 for `stockroom serve` (its own program: `stockroom
# serve`'s entry in stockroom.1 only passes arguments through, and this page lists its options).
#
# swift-argument-parser's GenerateManual plugin (`swift package generate-manual`) builds
# both programs in release mode and turns their help (every command, option and discussion,
# including the exit codes) into the page. Works offline once the package's dependencies are
# resolved. Read it with `man -l FOLDER/stockroom.1`.
#
#   scripts/generate-manual.sh [FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."

folder=${1:-.build/share/man/man1}
swift package generate-manual --section 1 >&2
mkdir -p "$folder"
cp .build/plugins/GenerateManual/outputs/stockroom/stockroom.1 "$folder/stockroom.1"
# The page is named after the command as users type it: "stockroom serve.1".
cp ".build/plugins/GenerateManual/outputs/stockroom-serve/stockroom serve.1" "$folder/stockroom-serve.1"
echo "$folder/stockroom.1"
echo "$folder/stockroom-serve.1"
