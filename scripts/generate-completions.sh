#!/usr/bin/env bash
# Writes stockroom's shell completion scripts for bash, zsh and fish into a folder (default
# .build/share/completions) and prints where to install them.
#
# The scripts come from the binary itself (`stockroom --generate-completion-script SHELL`,
# ArgumentParser), so they always match its commands and options: nothing generated is
# committed. STOCKROOM=PATH uses that binary instead of building the release one.
#
#   scripts/generate-completions.sh [FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."

folder=${1:-.build/share/completions}
stockroom=${STOCKROOM:-$(scripts/build-release.sh)}
mkdir -p "$folder"
"$stockroom" --generate-completion-script bash >"$folder/stockroom.bash"
"$stockroom" --generate-completion-script zsh >"$folder/_stockroom"
"$stockroom" --generate-completion-script fish >"$folder/stockroom.fish"
cat <<DONE
Wrote $folder/stockroom.bash, $folder/_stockroom and $folder/stockroom.fish. Install:
  bash: cp $folder/stockroom.bash ~/.local/share/bash-completion/completions/stockroom
  zsh:  cp $folder/_stockroom into a folder on \$fpath (e.g. ~/.zfunc), then compinit
  fish: cp $folder/stockroom.fish ~/.config/fish/completions/
DONE
