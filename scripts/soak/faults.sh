#!/usr/bin/env bash
# Soak part: fault injection. Runs stockroom commands under `strace -e inject=` so that the
# Nth write, fsync, fdatasync or open of the database files fails with ENOSPC, EIO or EACCES,
# for many N. Every run must end with exit 0 or a documented exit code, with exactly one
# `error:` line when it fails and none when it succeeds, never killed by a signal. Each item
# whose `items add` exited 0 (acknowledged) must be in the database afterwards, which must
# pass `stockroom check`; failed backups leave no temporary file.
#
# Usage: STOCKROOM_BIN=path [SOAK_SCALE=1] scripts/soak/faults.sh
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || { progress "strace is not installed"; exit 2; }

db=$work/faults.sqlite
make_database "$db" 2000 || { progress "cannot create the database"; exit 2; }
seed=$("$bin" --db "$db" query --format csv "SELECT id FROM items WHERE name = 'Seed'" | tail -n 1 | tr -d '\r')
ledger=$work/ledger refused=$work/refused
: >"$ledger"
: >"$refused"
# The Nth matching call fails: early ones hit opening and set-up, later ones the writes.
all_n=(1 2 3 4 5 6 8 10 12 15 18 22 27 33 40)
n_values=("${all_n[@]:0:$(trials ${#all_n[@]})}")
files=(-P "$db" -P "$db-wal" -P "$db-shm" -P "$db-journal")

declare -A codes_seen=()
run_one() { # injection errno n command...
    local injection=$1 error=$2 n=$3 kind=$4
    shift 4
    local out=$work/out err=$work/err status
    case $kind in
        files) strace -f -qq -o /dev/null "${files[@]}" -e inject="$injection:error=$error:when=$n" -- "$bin" --db "$db" "$@" >"$out" 2>"$err" ;;
        main) strace -f -qq -o /dev/null -P "$db" -e inject="$injection:error=$error:when=$n" -- "$bin" --db "$db" "$@" >"$out" 2>"$err" ;;
        any) strace -f -qq -o /dev/null -e inject="$injection:error=$error:when=$n" -- "$bin" --db "$db" "$@" >"$out" 2>"$err" ;;
    esac
    status=$?
    codes_seen[$status]=$((${codes_seen[$status]:-0} + 1))
    if ((status > 128)) || ! is_documented_code "$status"; then
        progress "FAIL $injection:$error:when=$n $*: exit $status: $(head -c 300 "$err")"
        return 1
    fi
    if ((status == 0)); then
        if [ -s "$err" ]; then progress "FAIL $injection:$error:when=$n $*: exit 0 with stderr: $(head -c 300 "$err")"; return 1; fi
        [ "${1:-} ${2:-}" = "items add" ] && head -n 1 "$out" >>"$ledger"
    elif ! one_error_line "$err"; then
        progress "FAIL $injection:$error:when=$n $*: exit $status without exactly one error line: $(head -c 300 "$err")"
        return 1
    elif [ "${1:-} ${2:-}" = "items add" ] && grep -q 'nothing was changed' "$err"; then
        printf '%s\n' "$4" >>"$refused"
    fi
    return 0
}

counter=0
for spec in pwrite64:ENOSPC:files pwrite64:EIO:files write:EIO:files fsync:EIO:files fdatasync:EIO:files \
    openat:EIO:files openat:EACCES:files ftruncate:EIO:files pwrite64:EIO:main pwrite64:ENOSPC:any fsync:EIO:any; do
    IFS=: read -r injection error kind <<<"$spec"
    runs=0 failures=0
    codes_seen=()
    for n in "${n_values[@]}"; do
        counter=$((counter + 1))
        commands=(
            "items add --name Fault-$counter-$n"
            "draft add --name Draft-$counter-$n"
            "items update $seed --quantity $((n + 1))"
            "items list --format json --limit 5"
            "query SELECT count(*) FROM items"
            "check"
        )
        [ "$kind" = any ] && commands=("items add --name Fault-any-$counter-$n" "backup $work/backup.sqlite --force")
        for command in "${commands[@]}"; do
            runs=$((runs + 1))
            if [[ $command == query* ]]; then
                run_one "$injection" "$error" "$n" "$kind" query "SELECT count(*) FROM items" || failures=$((failures + 1))
            else
                # shellcheck disable=SC2086 # words of the command
                run_one "$injection" "$error" "$n" "$kind" $command || failures=$((failures + 1))
            fi
        done
    done
    detail="exit codes:"
    for code in $(printf '%s\n' "${!codes_seen[@]}" | sort -n); do detail+=" $code x${codes_seen[$code]}"; done
    progress "$injection:$error ($kind) $runs runs, $failures failures; $detail"
    where=${kind/files/database files}
    where=${where/main/the main database file (checkpoints)}
    row "faults: $injection $error on $where" "$runs" "$failures" "$detail"
done

acknowledged=$(wc -l <"$ledger")
"$bin" --db "$db" query --format csv "SELECT id FROM items" | tail -n +2 | tr -d '\r' | sort >"$work/present"
missing=$(sort "$ledger" | comm -23 - "$work/present" | wc -l)
row "faults: acknowledged adds found afterwards" "$acknowledged" "$missing" "$missing of $acknowledged acknowledged items missing"
"$bin" --db "$db" query --format csv "SELECT name FROM items" | tail -n +2 | tr -d '\r' | sort >"$work/names"
claimed=$(wc -l <"$refused")
wrong=$(sort "$refused" | comm -12 - "$work/names" | wc -l)
row "faults: adds reported 'nothing was changed' are absent" "$claimed" "$wrong" "$wrong of $claimed refused adds found saved"

"$bin" check --db "$db" >"$work/check" 2>&1
status=$?
row "faults: database passes check afterwards" 1 $((status != 0)) "check exit $status"

litter=$(find "$work" -maxdepth 1 -name '.backup.sqlite.tmp-*' | wc -l)
"$bin" --db "$db" backup "$work/backup.sqlite" --force >/dev/null 2>&1
left=$(find "$work" -maxdepth 1 -name '.backup.sqlite.tmp-*' | wc -l)
row "faults: failed backups leave no temporary file" 1 $((left != 0)) "$litter before the next backup, $left after it"
finish
