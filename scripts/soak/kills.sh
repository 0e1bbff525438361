#!/usr/bin/env bash
# Soak part: SIGKILL writing processes at random moments. Each writer process runs one write
# command; a command that exits 0 is acknowledged and its item id written to a ledger. A killer
# picks random live writers and kills them with SIGKILL, many while they hold the write lock or
# sit in the middle of a commit. Afterwards every acknowledged item must be in the file and
# integrity_check must pass.
#
# Contract (scripts/soak.sh): binary in $STOCKROOM_BIN, scale in $SOAK_SCALE (1 = at least 1,000
# kills), progress on stderr, `ROW<TAB>check<TAB>trials<TAB>failures<TAB>detail` on stdout,
# exit 0 only when every failures count is 0.
set -uo pipefail
bin=${STOCKROOM_BIN:?set STOCKROOM_BIN to the stockroom binary}
scale=${SOAK_SCALE:-1}
[[ -x $bin ]] || { echo "error: STOCKROOM_BIN=$bin is not an executable" >&2; exit 2; }
target_kills=$(awk -v s="$scale" 'BEGIN { n = int(1000 * s + 0.5); print (n < 1 ? 1 : n) }')
work=$(mktemp -d "${TMPDIR:-/tmp}/stockroom-kills.XXXXXX")
trap 'rm -rf "$work"' EXIT
db="$work/kills.sqlite"
export STOCKROOM_DB=$db
"$bin" migrate up >/dev/null

kills=0 launched=0 acknowledged=0 unexpected=0 first_unexpected=""
: >"$work/ledger"
# Stops early when writers fail for another reason: that is the finding, not more kills.
while (( kills < target_kills && unexpected < 20 )); do
    # A batch of 4 writers; each line of their output is acknowledged only once it exits 0.
    pids=()
    for ((p = 0; p < 4; p++)); do
        i=$((launched + p))
        case $((i % 3)) in
            0) "$bin" --busy-timeout 30 items add --name "kill item $i" --quantity "$((i % 50 + 1))" >"$work/out.$p" 2>"$work/err.$p" & ;;
            1) "$bin" --busy-timeout 30 items add --name "kill item $i" --out-of-stock >"$work/out.$p" 2>"$work/err.$p" & ;;
            2) "$bin" --busy-timeout 30 draft add --name "kill draft $i" >"$work/out.$p" 2>"$work/err.$p" & ;;
        esac
        pids+=($!)
    done
    launched=$((launched + 4))
    # Kill one or two of them after a random, short delay (0-12 ms): start-up, open, the write
    # lock, the commit.
    victims=$((RANDOM % 2 + 1))
    sleep "$(printf "0.%03d" $((RANDOM % 13)))"
    for ((v = 0; v < victims; v++)); do kill -KILL "${pids[RANDOM % 4]}" 2>/dev/null; done
    for ((p = 0; p < 4; p++)); do
        # Only a process that really died of SIGKILL counts as a kill (one that had already
        # exited was acknowledged instead). The shell's "Killed" notice is not progress.
        { wait "${pids[p]}"; code=$?; } 2>/dev/null
        i=$((launched - 4 + p))
        if (( code == 0 )); then
            if (( i % 3 == 2 )); then kind=draft; else kind=item; fi
            echo "$kind $(cat "$work/out.$p")" >>"$work/ledger"
            acknowledged=$((acknowledged + 1))
        elif (( code == 137 )); then
            kills=$((kills + 1))
        else
            unexpected=$((unexpected + 1))
            [[ -z $first_unexpected ]] && first_unexpected="exit $code: $(head -c 200 "$work/err.$p")"
        fi
    done
    (( launched % 200 == 0 )) && echo "kills: $kills/$target_kills kills, $acknowledged acknowledged" >&2
done

# `draft add` prints the draft id; the draft must be there. Other writes print the item id.
sqlite3 -cmd ".timeout 5000" "$db" "SELECT 'item ' || id FROM items UNION ALL SELECT 'draft ' || id FROM drafts;" | sort >"$work/stored"
sort "$work/ledger" >"$work/acknowledged"
lost=$(comm -23 "$work/acknowledged" "$work/stored" | wc -l)
integrity=$(sqlite3 -cmd ".timeout 5000" "$db" "PRAGMA integrity_check;")
check=$("$bin" check >/dev/null 2>&1 && echo passes || echo FAILS)
bad=$((lost + unexpected))
[[ $integrity != ok ]] && bad=$((bad + 1))
[[ $check != passes ]] && bad=$((bad + 1))
detail="$launched writers launched, $acknowledged acknowledged, $lost lost, $unexpected other failures, integrity $integrity, stockroom check $check"
[[ -n $first_unexpected ]] && detail="$detail; first: $first_unexpected"
printf 'ROW\tSIGKILL of writing processes\t%d\t%d\t%s\n' "$kills" "$bad" "$detail"
exit $(( bad > 0 ? 1 : 0 ))
