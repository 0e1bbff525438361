#!/usr/bin/env bash
# Soak part: first-open races. Mixes of 2, 4 or 8 processes (`items add`, `draft add`,
# `migrate up`, `items list`) released at the same instant on a missing file, a 0-byte file and
# a Stockroom file still in rollback-journal mode. Every process must exit 0; afterwards the
# migrations are recorded once, every add is there, the file passes integrity_check, and no
# temporary file (`.db.sqlite.tmp-*`) is left. Then first creates killed with SIGKILL at random
# moments: the next `items add` must succeed and leave no temporary file behind.
#
# Contract (scripts/soak.sh): binary in $STOCKROOM_BIN, scale in $SOAK_SCALE (1 = full size:
# 3 x 180 trials), progress on stderr, `ROW<TAB>check<TAB>trials<TAB>failures<TAB>detail` on
# stdout, exit 0 only when every failures count is 0.
set -uo pipefail
bin=${STOCKROOM_BIN:?set STOCKROOM_BIN to the stockroom binary}
scale=${SOAK_SCALE:-1}
[[ -x $bin ]] || { echo "error: STOCKROOM_BIN=$bin is not an executable" >&2; exit 2; }
trials=$(awk -v s="$scale" 'BEGIN { n = int(180 * s + 0.5); print (n < 1 ? 1 : n) }')
work=$(mktemp -d "${TMPDIR:-/tmp}/stockroom-first-open.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A Stockroom database as an older tool or `cp` of a non-WAL file leaves it.
"$bin" --db "$work/template.sqlite" migrate up >/dev/null
sqlite3 "$work/template.sqlite" "PRAGMA journal_mode = DELETE;" >/dev/null
expected_versions=$(sqlite3 "$work/template.sqlite" "SELECT group_concat(version) FROM (SELECT version FROM schema_migrations ORDER BY version);")

commands=("items add" "draft add" "migrate up" "items list")
failed_rows=0

for state in missing empty rollback-journal; do
    failures=0 processes=0 first_failure=""
    for ((trial = 1; trial <= trials; trial++)); do
        dir="$work/$state-$trial"; mkdir "$dir"; db="$dir/db.sqlite"
        case $state in
            empty) : > "$db" ;;
            rollback-journal) cp "$work/template.sqlite" "$db" ;;
        esac
        sizes=(2 4 8); n=${sizes[RANDOM % 3]}
        adds=0 drafts=0
        # Every process waits on a shared lock of a gate file held exclusively here, so they
        # are all released at the same instant.
        exec 9>"$dir/gate"; flock -x 9
        pids=()
        for ((p = 0; p < n; p++)); do
            command=${commands[RANDOM % 4]}
            case $command in
                "items add") adds=$((adds + 1)); args=(items add --name "item $p" --quantity 1) ;;
                "draft add") drafts=$((drafts + 1)); args=(draft add --name "draft $p") ;;
                "migrate up") args=(migrate up) ;;
                "items list") args=(items list --format json) ;;
            esac
            flock -s "$dir/gate" "$bin" --db "$db" "${args[@]}" >"$dir/out.$p" 2>"$dir/err.$p" 9>&- &
            pids+=($!)
        done
        exec 9>&-
        trial_failed=""
        for ((p = 0; p < n; p++)); do
            if ! wait "${pids[p]}"; then trial_failed="process $p: $(head -c 300 "$dir/err.$p")"; fi
        done
        processes=$((processes + n))
        if [[ -z $trial_failed && -e $db ]]; then
            versions=$(sqlite3 -cmd ".timeout 5000" "$db" "SELECT group_concat(version) FROM (SELECT version FROM schema_migrations ORDER BY version);" 2>&1)
            counts=$(sqlite3 -cmd ".timeout 5000" "$db" "SELECT (SELECT count(*) FROM items) || ' ' || (SELECT count(*) FROM drafts);" 2>&1)
            integrity=$(sqlite3 -cmd ".timeout 5000" "$db" "PRAGMA integrity_check;" 2>&1)
            if [[ $adds -eq 0 && $drafts -eq 0 && $versions != "$expected_versions" && $state != rollback-journal ]]; then
                # Only `items list` ran: a read never migrates (a missing file stays missing).
                :
            elif [[ $versions != "$expected_versions" ]]; then
                trial_failed="migrations recorded: '$versions'"
            elif [[ $counts != "$adds $drafts" ]]; then
                trial_failed="expected $adds items and $drafts drafts, found $counts"
            elif [[ $integrity != ok ]]; then
                trial_failed="integrity_check: $integrity"
            fi
        fi
        if [[ -z $trial_failed && $state == missing && -e $db ]] && ! grep -q -s -e Applied -e "up to date" "$dir"/out.* \
            && [[ $adds -eq 0 && $drafts -eq 0 ]]; then
            trial_failed="only reads ran, yet the file was created"
        fi
        if [[ -z $trial_failed ]] && compgen -G "$dir/.db.sqlite.tmp-*" >/dev/null; then
            trial_failed="temporary files left: $(cd "$dir" && echo .db.sqlite.tmp-*)"
        fi
        if [[ -n $trial_failed ]]; then
            failures=$((failures + 1)); [[ -z $first_failure ]] && first_failure="trial $trial ($n processes): $trial_failed"
        fi
        rm -rf "$dir"
        (( trial % 20 == 0 )) && echo "first-open $state: $trial/$trials trials, $failures failures" >&2
    done
    detail="$processes processes in mixes of 2/4/8"
    [[ -n $first_failure ]] && detail="$detail; first failure: ${first_failure//$'\n'/ }"
    article=a; [[ $state == empty ]] && article=an
    printf 'ROW\tfirst-open races on %s %s file\t%d\t%d\t%s\n' "$article" "$state" "$trials" "$failures" "$detail"
    (( failures > 0 )) && failed_rows=$((failed_rows + 1))
done
# Killed first creates: SIGKILL as soon as the temporary file appears (polled with a builtin,
# so the kill lands while the create is under way), or after a random 0-30 ms on odd trials;
# then one more `items add`, which must succeed and leave no temporary file.
kill_trials=$(awk -v s="$scale" 'BEGIN { n = int(60 * s + 0.5); print (n < 1 ? 1 : n) }')
failures=0 litter_seen=0 first_failure=""
for ((trial = 1; trial <= kill_trials; trial++)); do
    dir="$work/killed-$trial"; mkdir "$dir"; db="$dir/db.sqlite"
    "$bin" --db "$db" items add --name victim >/dev/null 2>&1 &
    victim=$!
    if (( trial % 2 )); then
        sleep "0.0$(printf '%02d' $((RANDOM % 30)))"
    else
        for ((spin = 0; spin < 200000; spin++)); do
            compgen -G "$dir/.db.sqlite.tmp-new-*" >/dev/null && break
            kill -0 "$victim" 2>/dev/null || break
        done
    fi
    kill -KILL "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
    compgen -G "$dir/.db.sqlite.tmp-*" >/dev/null && litter_seen=$((litter_seen + 1))
    trial_failed=""
    if ! "$bin" --db "$db" items add --name after >/dev/null 2>"$dir/err"; then
        trial_failed="the next items add failed: $(head -c 300 "$dir/err")"
    elif compgen -G "$dir/.db.sqlite.tmp-*" >/dev/null; then
        trial_failed="temporary files left: $(cd "$dir" && echo .db.sqlite.tmp-*)"
    elif [[ $(sqlite3 -cmd ".timeout 5000" "$db" "PRAGMA integrity_check;" 2>&1) != ok ]]; then
        trial_failed="integrity_check failed"
    fi
    if [[ -n $trial_failed ]]; then
        failures=$((failures + 1)); [[ -z $first_failure ]] && first_failure="trial $trial: $trial_failed"
    fi
    rm -rf "$dir"
done
detail="$litter_seen of $kill_trials kills left temporary files, all removed by the next write"
[[ -n $first_failure ]] && detail="$detail; first failure: ${first_failure//$'\n'/ }"
printf 'ROW\tfirst creates killed, next write leaves no litter\t%d\t%d\t%s\n' "$kill_trials" "$failures" "$detail"
(( failures > 0 )) && failed_rows=$((failed_rows + 1))

exit $(( failed_rows > 0 ? 1 : 0 ))
