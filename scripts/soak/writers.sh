#!/usr/bin/env bash
# Soak part: 8 and then 16 writer processes at once, each running 200 write commands in a loop
# (`items add`, `draft add` + `draft save`, `items update`), all on one file. Every command must
# succeed within the busy timeout, and every acknowledged item must be in the file afterwards.
# Beside them the sqlite3 shell writes items by hand (INSERT, UPDATE, DELETE; issue 20): the
# database records each change itself, so `stockroom check` must pass afterwards.
#
# Contract (scripts/soak.sh): binary in $STOCKROOM_BIN, scale in $SOAK_SCALE (1 = 200 commands
# per writer), progress on stderr, `ROW<TAB>check<TAB>trials<TAB>failures<TAB>detail` on stdout,
# exit 0 only when every failures count is 0.
set -uo pipefail
bin=${STOCKROOM_BIN:?set STOCKROOM_BIN to the stockroom binary}
scale=${SOAK_SCALE:-1}
[[ -x $bin ]] || { echo "error: STOCKROOM_BIN=$bin is not an executable" >&2; exit 2; }
per_writer=$(awk -v s="$scale" 'BEGIN { n = int(200 * s + 0.5); print (n < 1 ? 1 : n) }')
timeout=${SOAK_BUSY_TIMEOUT:-30}
work=$(mktemp -d "${TMPDIR:-/tmp}/stockroom-writers.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0

for writers in 8 16; do
    db="$work/writers-$writers.sqlite"
    # Created first: the sqlite3 shell would otherwise make an empty file of its own (first-open
    # races are first-open.sh's part).
    "$bin" migrate up --db "$db" >/dev/null || status=1
    started=$(date +%s.%N)
    for ((w = 1; w <= writers; w++)); do
        (
            export STOCKROOM_DB=$db
            failures=0
            for ((i = 1; i <= per_writer; i++)); do
                case $((i % 3)) in
                    0) id=$("$bin" --busy-timeout "$timeout" items add --name "w$w item $i" --quantity "$i" 2>>"$work/err.$w") ;;
                    1) draft=$("$bin" --busy-timeout "$timeout" draft add --name "w$w draft $i" 2>>"$work/err.$w") \
                           && id=$("$bin" --busy-timeout "$timeout" draft save "$draft" 2>>"$work/err.$w") ;;
                    2) id=$("$bin" --busy-timeout "$timeout" items add --name "w$w item $i" --out-of-stock --back-order 2>>"$work/err.$w") \
                           && "$bin" --busy-timeout "$timeout" items update "$id" --quantity 3 >/dev/null 2>>"$work/err.$w" ;;
                esac
                if [[ $? -eq 0 ]]; then echo "$id" >>"$work/ledger.$w"; else failures=$((failures + 1)); fi
            done
            echo "$failures" >"$work/failures.$w"
        ) &
    done
    # The shell writer: per_writer statements, a third each inserting, updating, deleting.
    (
        failures=0
        for ((i = 1; i <= per_writer; i++)); do
            id=$(printf 'fffffff0-0000-7000-8000-%012x' $(( (i + 2) / 3 )))
            case $((i % 3)) in
                1) sql="INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
                        VALUES ('$id', 'shell $i', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');" ;;
                2) sql="UPDATE items SET name = name || ' +', quantity = coalesce(quantity, 0) + 1, status = 'in_stock', is_on_back_order = NULL
                        WHERE id = (SELECT id FROM items ORDER BY random() LIMIT 1);" ;;
                0) sql="DELETE FROM items WHERE id = '$id';" ;;
            esac
            sqlite3 -cmd ".timeout $((timeout * 1000))" "$db" "$sql" 2>>"$work/err.shell" || failures=$((failures + 1))
        done
        echo "$failures" >"$work/failures.shell"
    ) &
    wait
    elapsed=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    shell_failures=$(cat "$work/failures.shell")
    check=$("$bin" check --db "$db" 2>&1)
    check_status=$?
    shell_bad=$((shell_failures + (check_status != 0)))
    detail="$per_writer shell statements (insert/update/delete), $shell_failures failed; stockroom check exit $check_status"
    ((check_status != 0)) && detail="$detail: $(head -n 3 <<<"$check" | tr '\n' ' ')"
    printf 'ROW\t%d writers and the sqlite3 shell: check passes\t%d\t%d\t%s\n' "$writers" "$per_writer" "$shell_bad" "$detail"
    (( shell_bad > 0 )) && status=1
    failures=0
    for ((w = 1; w <= writers; w++)); do failures=$((failures + $(cat "$work/failures.$w"))); done
    cat "$work"/ledger.* 2>/dev/null | sort >"$work/acknowledged"
    sqlite3 -cmd ".timeout 5000" "$db" "SELECT id FROM items;" | sort >"$work/stored"
    lost=$(comm -23 "$work/acknowledged" "$work/stored" | wc -l)
    integrity=$(sqlite3 -cmd ".timeout 5000" "$db" "PRAGMA integrity_check;")
    first_error=$(cat "$work"/err.* 2>/dev/null | head -n 1)
    total=$((writers * per_writer))
    bad=$((failures + lost))
    [[ $integrity != ok ]] && bad=$((bad + 1))
    detail="$writers writers x $per_writer commands in ${elapsed}s; $(wc -l <"$work/acknowledged") acknowledged, $lost lost, integrity $integrity"
    [[ -n $first_error ]] && detail="$detail; first error: $first_error"
    printf 'ROW\t%d concurrent writers\t%d\t%d\t%s\n' "$writers" "$total" "$bad" "$detail"
    echo "writers: $writers done, $bad failures" >&2
    (( bad > 0 )) && status=1
    rm -f "$work"/ledger.* "$work"/err.* "$work"/failures.*
done
exit $status
