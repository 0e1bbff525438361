#!/usr/bin/env bash
# W7 before and after a change, in one run (BENCHMARKS.md, "Import: the trigram positions"):
# two `stockroom` binaries (each with its own migrations), each side's import of one CSV into a
# fresh file that side's binary migrated, against W7's peer on a copy of the same file: the
# sqlite3 shell's `.import` into a staging table, the items table's indexes dropped, one
# INSERT ... SELECT (the schema's triggers fire as for Stockroom), the indexes built again.
#   scripts/bench-import-pair.sh BEFORE AFTER FILE.csv [PASSES]
# Prints wall, user and system seconds per run; sides alternate, PASSES times (default 2).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: bench-import-pair.sh BEFORE AFTER FILE.csv [PASSES]" >&2; exit 64; }
declare -A binary=([before]=$1 [after]=$2)
csv=$(readlink -f "$3")
passes=${4:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in before after; do
    "${binary[$side]}" migrate up --db "$work/template-$side.sqlite" >/dev/null
    indexes="SELECT %s FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL"
    {
        echo "CREATE TEMP TABLE staging (id TEXT, name TEXT, color TEXT, status TEXT, quantity TEXT, is_on_back_order TEXT, location TEXT, created_at TEXT, updated_at TEXT);"
        echo ".import --csv --skip 1 '$csv' staging"
        echo "BEGIN;"
        sqlite3 "$work/template-$side.sqlite" "$(printf "$indexes" "'DROP INDEX ' || name || ';'")"
        echo "INSERT INTO items (id, name, color, status, quantity, is_on_back_order, location, created_at, updated_at)"
        echo "SELECT id, name, nullif(color, ''), status, CAST(nullif(quantity, '') AS INTEGER), CAST(nullif(is_on_back_order, '') AS INTEGER), nullif(location, ''), created_at, updated_at FROM staging;"
        sqlite3 "$work/template-$side.sqlite" "$(printf "$indexes" "sql || ';'")"
        echo "COMMIT;"
    } > "$work/shell-$side.sql"
done
rows=$(($(wc -l < "$csv") - 1))
for pass in $(seq "$passes"); do
    for side in before after; do
        for who in shell stockroom; do
            rm -f "$work/run.sqlite"*
            cp "$work/template-$side.sqlite" "$work/run.sqlite"
            load=$(cut -d' ' -f1 /proc/loadavg)
            format="$side pass $pass $who: wall %e s, user %U s, sys %S s (load $load)"
            if [ "$who" = shell ]; then
                /usr/bin/time -f "$format" sqlite3 "$work/run.sqlite" < "$work/shell-$side.sql" 2>&1 | tail -1
            else
                /usr/bin/time -f "$format" "${binary[$side]}" import --db "$work/run.sqlite" --format csv "$csv" 2>&1 >/dev/null | tail -1
            fi
            [ "$(sqlite3 "$work/run.sqlite" 'SELECT count(*) FROM items')" = "$rows" ] \
                || { echo "bench-import-pair: $side $who did not load $rows rows" >&2; exit 1; }
        done
    done
done
