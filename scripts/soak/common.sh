# Shared by the soak part scripts (sourced, not run). Contract of every part:
#   binary in $STOCKROOM_BIN; optional $SOAK_SCALE (1 = full, 0.1 = a tenth of the trials);
#   progress on stderr; stdout lines `ROW<TAB>check name<TAB>trials<TAB>failures<TAB>detail`;
#   exit 0 only when every failures count is 0.
set -uo pipefail
export LC_ALL=C

bin=${STOCKROOM_BIN:?set STOCKROOM_BIN to the stockroom binary}
[ -x "$bin" ] || { echo "soak: $bin is not executable" >&2; exit 2; }
scale=${SOAK_SCALE:-1}
part=$(basename "$0" .sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/stockroom-soak-$part.XXXXXX")
any_failure=0
children=()

cleanup() {
    local pid
    for pid in "${children[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf -- "$work"
}
trap cleanup EXIT

progress() { printf '%s: %s\n' "$part" "$*" >&2; }

# trials N: N scaled by $SOAK_SCALE, at least 1.
trials() { awk -v n="$1" -v s="$scale" 'BEGIN { t = int(n * s + 0.5); print (t < 1 ? 1 : t) }'; }

# row NAME TRIALS FAILURES DETAIL
row() {
    printf 'ROW\t%s\t%d\t%d\t%s\n' "$1" "$2" "$3" "$4"
    (($3 == 0)) || any_failure=1
}

finish() { exit "$any_failure"; }

# Exit codes docs/exit-codes.md documents.
is_documented_code() { case $1 in 0 | 1 | 64 | 65 | 66 | 70 | 73 | 74 | 75) return 0 ;; *) return 1 ;; esac; }

# one_error_line FILE: exactly one line, starting with "error: ".
one_error_line() { [ "$(wc -l <"$1")" -eq 1 ] && head -c 7 "$1" | grep -qx 'error: '; }

# A Stockroom database made by the binary, with COUNT extra items written in one statement.
make_database() {
    local path=$1 count=${2:-0}
    "$bin" --db "$path" items add --name "Seed" >/dev/null || return 1
    ((count == 0)) && return 0
    sqlite3 "$path" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count)
        INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
        SELECT printf('%08x-0000-7000-8000-%012x', i, i), 'Bulk item ' || i || ' ' || hex(randomblob(40)), 'blue',
               'in_stock', 1 + i % 50, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
        PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
}
