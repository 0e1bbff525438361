#!/usr/bin/env bash
# Nightly backup of a Stockroom database, for cron or a systemd timer.
#
# Usage: nightly-backup.sh --dest DIR [--db PATH] [--keep N]
#
#   --dest DIR   folder of backups (must exist); also holds the lock .nightly-backup.lock
#   --db PATH    the database; default: stockroom's own ($STOCKROOM_DB, else the XDG path)
#   --keep N     how many backups to keep, the new one included; default 14
#
# Each run writes DIR/stockroom-YYYYmmddTHHMMSSZ.sqlite (UTC): `stockroom backup` to a hidden
# partial name, `stockroom check` on it, then a rename to the final name, so a file under that
# name has always passed the check, or is a faithful copy of a database that breaks a rule (below).
# Only then are the oldest backups beyond N deleted. A run that fails deletes no older backup and
# removes its own partial output. Two runs on the same DIR never overlap: the second exits at
# once. Every run prints exactly one line on stderr.
#
# A backup that fails the check is judged against its source: when `stockroom check` of the
# database itself reports exactly the same problems (rows that break a rule, say, written around
# Stockroom), the backup is a faithful copy of that database and is KEPT (a copy of a database
# with a problem is still the only copy of its data): the log says how many problems the
# database has and which `stockroom check` command lists them, and the run exits 4. A damaged
# backup (check exit 74), or one whose problems differ from its source's (the copy differs, or
# the source changed meanwhile; the next run tries again), is removed: exit 2.
#
# Exit codes:
#   0   backed up, checked, old backups pruned
#   1   the backup failed (older backups untouched)
#   2   the new backup failed `stockroom check` and was removed (older backups untouched)
#   3   the new backup is good and kept, but deleting old ones failed
#   4   the database breaks a rule: the new backup, a faithful copy with the same problems as the
#       database, is kept; older backups are not deleted (run the logged `stockroom check`)
#   64  bad command line
#   69  the stockroom binary was not found ($STOCKROOM_BIN, else `stockroom` on PATH)
#   75  another run on the same DIR is still going; this one did nothing
#
# Needs only bash, coreutils, flock (util-linux) and the stockroom binary.
set -uo pipefail
export LC_ALL=C

log() { printf 'nightly-backup: %s\n' "$*" >&2; }

usage_error() {
    log "usage error: $1 (usage: nightly-backup.sh --dest DIR [--db PATH] [--keep N])"
    exit 64
}

# Many lines of a command's output as one log line: cron mails one line per run.
one_line() {
    local text=${1%$'\n'}
    text=${text//$'\n'/; }
    printf '%s' "${text:0:600}"
}

dest='' db='' keep=14
while (($#)); do
    case $1 in
        --dest=*) dest=${1#*=} ;;
        --db=*) db=${1#*=} ;;
        --keep=*) keep=${1#*=} ;;
        --dest | --db | --keep)
            (($# >= 2)) || usage_error "$1 needs a value"
            case $1 in
                --dest) dest=$2 ;;
                --db) db=$2 ;;
                --keep) keep=$2 ;;
            esac
            shift
            ;;
        -h | --help)
            # The comment block at the top of this file is the help.
            while IFS= read -r line; do
                case $line in
                    '#!'*) continue ;;
                    '#'*) line=${line#\#}; printf '%s\n' "${line# }" ;;
                    *) break ;;
                esac
            done <"${BASH_SOURCE[0]}"
            exit 0
            ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
    shift
done
[ -n "$dest" ] || usage_error "--dest is required"
[[ $keep =~ ^[1-9][0-9]*$ ]] || usage_error "--keep must be a whole number of at least 1, not '$keep'"

bin=${STOCKROOM_BIN:-$(command -v stockroom || true)}
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    log "FAILED: the stockroom binary was not found (${STOCKROOM_BIN:+STOCKROOM_BIN=$STOCKROOM_BIN is not executable; }set STOCKROOM_BIN or put stockroom on PATH)"
    exit 69
fi

started=$(date +%s%N)
elapsed() {
    local nanoseconds=$(($(date +%s%N) - started))
    printf '%d.%03ds' $((nanoseconds / 1000000000)) $((nanoseconds / 1000000 % 1000))
}

if [ ! -d "$dest" ]; then
    log "FAILED: backup folder $dest does not exist"
    exit 1
fi

# One run per folder. The lock is released when this script exits, however it exits.
lock_file=$dest/.nightly-backup.lock
if ! exec {lock}>>"$lock_file"; then
    log "FAILED: cannot create the lock file $lock_file"
    exit 1
fi
if ! flock --nonblock "$lock"; then
    log "SKIPPED: another run on $dest still holds $lock_file; nothing was done"
    exit 75
fi

name=stockroom-$(date -u +%Y%m%dT%H%M%SZ).sqlite
final=$dest/$name
partial=$dest/.$name.partial

# Partial files (and stockroom's own temporary files beside them) of a run killed outright:
# no run can be writing them now that this one holds the lock.
remove_partial_output() {
    rm -f -- "$dest"/.stockroom-*.sqlite.partial* "$dest"/..stockroom-*.sqlite.partial.tmp-*
}
remove_partial_output
trap remove_partial_output EXIT
trap 'log "FAILED: interrupted after $(elapsed); older backups kept"; exit 1' INT TERM HUP

if [ -e "$final" ]; then
    log "FAILED: $final already exists (two runs within one second?); older backups kept"
    exit 1
fi

db_option=()
[ -n "$db" ] && db_option=(--db "$db")

errors=$("$bin" backup "${db_option[@]}" "$partial" 2>&1 >/dev/null)
status=$?
if ((status != 0)); then
    log "FAILED: stockroom backup exited $status after $(elapsed): $(one_line "$errors"); older backups kept"
    exit 1
fi

report=$("$bin" check --db "$partial" 2>&1)
status=$?
if ((status != 0)); then
    # check prints one line per problem on stdout and its one `error:` line on stderr: the
    # problems alone, to compare with the source's (they name rows and rules, never the file).
    problems() { grep -v '^error: ' <<<"$1"; }
    if ((status == 65)); then
        source_report=$("$bin" check "${db_option[@]}" 2>&1)
        source_status=$?
        if ((source_status == 65)) && [ "$(problems "$report")" = "$(problems "$source_report")" ]; then
            if ! mv -- "$partial" "$final" || ! sync -- "$dest"; then
                log "FAILED: could not move the backup to $final after $(elapsed); older backups kept"
                exit 1
            fi
            count=$(problems "$report" | grep -c .)
            command="stockroom check${db:+ --db $db}"
            log "FAILED: the database has $count problem(s) that \`$command\` lists; $name ($(stat -c %s -- "$final") bytes, $(elapsed)) is a faithful copy with the same problems and was kept; no older backup deleted"
            exit 4
        fi
    fi
    log "FAILED: the new backup failed stockroom check (exit $status) after $(elapsed) and was removed: $(one_line "$report"); older backups kept"
    exit 2
fi

if ! mv -- "$partial" "$final" || ! sync -- "$dest"; then
    log "FAILED: could not move the checked backup to $final after $(elapsed); older backups kept"
    exit 1
fi
size=$(stat -c %s -- "$final")

# Keep the newest backups by the time in their names, the new one always among them (even if
# the clock was set back and older runs carry later names).
shopt -s nullglob
older=()
for backup in "$dest"/stockroom-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z.sqlite; do
    [ "$backup" != "$final" ] && older+=("$backup")
done
excess=$((${#older[@]} - (keep - 1)))
removed=0 failed=0
for ((i = 0; i < excess; i++)); do
    if rm -f -- "${older[i]}"; then removed=$((removed + 1)); else failed=$((failed + 1)); fi
done
kept=$((${#older[@]} - removed + 1))

if ((failed > 0)); then
    log "FAILED: $name is good ($size bytes, $(elapsed)) but $failed old backup(s) could not be deleted; kept $kept"
    exit 3
fi
log "ok: $name, $size bytes, $(elapsed); kept $kept, deleted $removed"
