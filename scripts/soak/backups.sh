#!/usr/bin/env bash
# Soak part: backups. (1) Hot backups while two writer processes keep adding items: each must
# exit 0, pass `stockroom check`, and hold every item acknowledged before it started. (2) A
# backup killed (SIGKILL) at a random point of its copy: the next backup of the same DEST
# succeeds and leaves no `.DEST.tmp-*` behind. (3) The nightly script killed outright with its
# backup: the next nightly run succeeds and leaves only backups and its lock file.
#
# Usage: STOCKROOM_BIN=path [SOAK_SCALE=1] scripts/soak/backups.sh
source "$(dirname "$0")/common.sh"
nightly=$(cd "$(dirname "$0")/.." && pwd)/nightly-backup.sh

# Waits until the process PID has written at least BYTES to a file matching GLOB, or exited.
# Returns 0 when the file got there while the process still ran.
wait_for_copy() {
    local pid=$1 glob=$2 bytes=$3 size file
    while kill -0 "$pid" 2>/dev/null; do
        for file in $glob; do
            [ -e "$file" ] || continue
            size=$(stat -c %s -- "$file" 2>/dev/null) || continue
            ((size >= bytes)) && return 0
        done
        sleep 0.005
    done
    return 1
}

# The processes below PID, children first-level and deeper (by parent id, never by name).
descendants() {
    local child
    for child in $(pgrep -P "$1"); do
        printf '%s\n' "$child"
        descendants "$child"
    done
}

# 1. Backups under two writers.
progress "backups under 2 writers"
db=$work/live.sqlite
make_database "$db" 20000 || { progress "cannot create the database"; exit 2; }
stop=$work/stop
writer() {
    local k=$1 i=0 id
    while [ ! -e "$stop" ]; do
        i=$((i + 1))
        if id=$("$bin" --db "$db" items add --name "Writer $k item $i" 2>>"$work/writer-errors"); then
            printf '%s\n' "$id" >>"$work/ledger-$k"
        else
            printf 'x\n' >>"$work/writer-failures"
        fi
    done
}
: >"$work/ledger-1"
: >"$work/ledger-2"
writer 1 &
children+=($!)
writer 2 &
children+=($!)
backups=$(trials 30) failed=0
for ((b = 1; b <= backups; b++)); do
    cat "$work/ledger-1" "$work/ledger-2" | sort >"$work/acknowledged"
    out=$work/backup-$b.sqlite
    if ! "$bin" --db "$db" backup "$out" >/dev/null 2>"$work/err"; then
        progress "FAIL backup $b: $(cat "$work/err")"
        failed=$((failed + 1))
        continue
    fi
    if ! "$bin" check --db "$out" >"$work/check" 2>&1; then
        progress "FAIL backup $b does not pass check: $(head -c 300 "$work/check")"
        failed=$((failed + 1))
    fi
    "$bin" --db "$out" query --format csv "SELECT id FROM items" | tail -n +2 | tr -d '\r' | sort >"$work/in-backup"
    missing=$(comm -23 "$work/acknowledged" "$work/in-backup" | wc -l)
    if ((missing > 0)); then
        progress "FAIL backup $b lacks $missing items acknowledged before it started"
        failed=$((failed + 1))
    fi
    rm -f -- "$out"
done
touch "$stop"
wait "${children[@]}" 2>/dev/null
children=()
writes=$(cat "$work/ledger-1" "$work/ledger-2" | wc -l)
writer_failures=$(cat "$work/writer-failures" 2>/dev/null | wc -l)
row "backups: hot backups under 2 writers pass check" "$backups" "$failed" "$writes items added meanwhile"
row "backups: writer commands during backups" $((writes + writer_failures)) "$writer_failures" \
    "$(head -c 200 "$work/writer-errors" 2>/dev/null | tr '\n' '|')"

# 2. Backups killed mid-copy.
progress "backups killed mid-copy"
big=$work/big.sqlite
make_database "$big" 200000 || { progress "cannot create the large database"; exit 2; }
size=$(stat -c %s "$big")
dest=$work/killed.sqlite
kills=$(trials 40) failed=0 killed=0 finished=0
for ((k = 1; k <= kills; k++)); do
    "$bin" --db "$big" backup "$dest" --force >/dev/null 2>&1 &
    pid=$!
    if wait_for_copy "$pid" "$work/.killed.sqlite.tmp-*" $((RANDOM * size / 32768 * 9 / 10 + 1)); then
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid"
    status=$?
    if ((status == 128 + 9)); then killed=$((killed + 1)); else finished=$((finished + 1)); fi
    if ! "$bin" --db "$big" backup "$dest" --force >/dev/null 2>"$work/err"; then
        progress "FAIL the backup after kill $k: $(cat "$work/err")"
        failed=$((failed + 1))
        continue
    fi
    litter=$(find "$work" -maxdepth 1 -name '.killed.sqlite.tmp-*' | wc -l)
    if ((litter > 0)); then
        progress "FAIL kill $k: $litter temporary files left after the next backup"
        failed=$((failed + 1))
    fi
done
row "backups: killed mid-copy, next backup leaves no litter" "$kills" "$failed" "$killed killed mid-copy, $finished finished first"

# 3. The nightly script killed outright, with its backup.
progress "nightly script killed"
nightly_dest=$work/nightly
mkdir -p "$nightly_dest"
runs=$(trials 8) failed=0 killed=0
for ((r = 1; r <= runs; r++)); do
    STOCKROOM_BIN=$bin "$nightly" --dest "$nightly_dest" --db "$big" --keep 2 2>/dev/null &
    script=$!
    if wait_for_copy "$script" "$nightly_dest/..stockroom-*.partial.tmp-*" $((RANDOM * size / 32768 / 2 + 1)); then
        # Like a reboot or `kill -9` of the cron job: the script gets no chance to clean up.
        stopped=$(descendants "$script")
        for child in $stopped; do kill -STOP "$child" 2>/dev/null; done
        kill -KILL "$script" 2>/dev/null
        for child in $stopped; do kill -KILL "$child" 2>/dev/null; done
        for child in $stopped; do while kill -0 "$child" 2>/dev/null; do sleep 0.01; done; done
        killed=$((killed + 1))
    fi
    wait "$script" 2>/dev/null
    # Let the backups' 1-second names differ from the killed run's.
    second=$(date +%s)
    while [ "$(date +%s)" = "$second" ]; do sleep 0.05; done
    if ! STOCKROOM_BIN=$bin "$nightly" --dest "$nightly_dest" --db "$big" --keep 2 2>"$work/err"; then
        progress "FAIL nightly run after kill $r: $(cat "$work/err")"
        failed=$((failed + 1))
        continue
    fi
    litter=$(find "$nightly_dest" -mindepth 1 ! -name 'stockroom-*Z.sqlite' ! -name '.nightly-backup.lock' | wc -l)
    if ((litter > 0)); then
        progress "FAIL nightly run after kill $r left: $(find "$nightly_dest" -mindepth 1 ! -name 'stockroom-*Z.sqlite' ! -name '.nightly-backup.lock' | tr '\n' ' ')"
        failed=$((failed + 1))
    fi
done
row "backups: nightly script killed, next run leaves no litter" "$runs" "$failed" "$killed killed mid-copy"

# 4. The nightly run against a database whose content breaks a rule (a colour the schema does
# not know, written in the sqlite3 shell around the CHECKs): each run keeps its faithful copy
# and exits 4 (issue 20), and the copy holds exactly what the database holds.
progress "nightly runs on a database that breaks a rule"
broken=$work/broken.sqlite broken_dest=$work/nightly-broken
"$bin" --db "$broken" items add --name "Phone" --quantity 2 >/dev/null
sqlite3 "$broken" "PRAGMA ignore_check_constraints = ON; UPDATE items SET color = 'mauve';"
mkdir -p "$broken_dest"
runs=$(trials 4) failed=0
for ((r = 1; r <= runs; r++)); do
    second=$(date +%s)
    while [ "$(date +%s)" = "$second" ]; do sleep 0.05; done
    STOCKROOM_BIN=$bin "$nightly" --dest "$broken_dest" --db "$broken" --keep 2 2>"$work/err"
    status=$?
    newest=$(find "$broken_dest" -name 'stockroom-*Z.sqlite' | sort | tail -n 1)
    if ((status != 4)) || ! grep -q 'is a faithful copy with the same problems and was kept' "$work/err" \
        || [ "$(sqlite3 "$newest" 'SELECT * FROM items; SELECT * FROM item_events;')" != "$(sqlite3 "$broken" 'SELECT * FROM items; SELECT * FROM item_events;')" ]; then
        progress "FAIL nightly run $r on a rule-breaking database: exit $status: $(cat "$work/err")"
        failed=$((failed + 1))
    fi
done
kept=$(find "$broken_dest" -name 'stockroom-*Z.sqlite' | wc -l)
((kept == runs)) || { progress "FAIL $kept backups kept of $runs runs"; failed=$((failed + 1)); }
row "backups: nightly on a rule-breaking database keeps its faithful copy, exit 4" "$runs" "$failed" "$kept faithful copies kept (none pruned)"
finish
