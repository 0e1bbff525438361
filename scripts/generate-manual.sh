#!/usr/bin/env bash
# Writes stockroom's manual page, stockroom.1 (mdoc), into a folder (default
# .build/share/man/man1) and prints its path.
#
# swift-argument-parser's GenerateManual plugin (`swift package generate-manual`) builds
# stockroom in release mode and turns its help (every command, option and discussion,
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
echo "$folder/stockroom.1"
