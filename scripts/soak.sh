#!/usr/bin/env bash
# Reliability soak: runs every part in scripts/soak/ against the release binary and prints one
# table of what was tried and what failed. Not part of CI (it takes a long while); its last run's
# figures are kept in RELIABILITY.md with the command that produced them.
#
# Usage: scripts/soak.sh [--scale N] [--only NAME[,NAME...]] [--markdown FILE]
#   --scale N      multiply every part's size by N (default 1; 0.1 for a quick rehearsal)
#   --only NAMES   run only these parts (file names in scripts/soak/ without .sh)
#   --markdown F   also write the table as Markdown to F
#
# Each part prints `ROW<TAB>check<TAB>trials<TAB>failures<TAB>detail` lines on stdout and exits
# 0 only when all its failure counts are 0. Exit code: 0 when every part passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

scale=1 only='' markdown=''
while (($#)); do
    case $1 in
        --scale) scale=$2; shift ;;
        --only) only=$2; shift ;;
        --markdown) markdown=$2; shift ;;
        -h | --help) sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "soak: unknown argument '$1'" >&2; exit 64 ;;
    esac
    shift
done

# The parts use the sqlite3 shell, strace and a throwaway PostgreSQL server, as the tests do.
scripts/setup.sh --tests
STOCKROOM_BIN=${STOCKROOM_BIN:-$(scripts/build-release.sh)}
export STOCKROOM_BIN SOAK_SCALE=$scale

rows=() status=0
for part in scripts/soak/*.sh; do
    name=$(basename "$part" .sh)
    if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
    echo "soak: $name ..." >&2
    started=$(date +%s)
    output=$(bash "$part") || status=1
    seconds=$(($(date +%s) - started))
    while IFS=$'\t' read -r tag check trials failures detail; do
        [ "$tag" = ROW ] || continue
        rows+=("$name"$'\t'"$check"$'\t'"$trials"$'\t'"$failures"$'\t'"${seconds}s"$'\t'"$detail")
    done <<<"$output"
done

table() {
    printf '| part | check | trials | failures | part time | detail |\n|---|---|---:|---:|---:|---|\n'
    for row in "${rows[@]}"; do
        IFS=$'\t' read -r name check trials failures seconds detail <<<"$row"
        printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$check" "$trials" "$failures" "$seconds" "$detail"
    done
}
table
[ -z "$markdown" ] || table >"$markdown"
exit $status
