#!/usr/bin/env bash
# Soak part: the writers and first-open races on PostgreSQL. A throwaway server is started here
# (initdb + pg_ctl on a Unix socket in a temp folder, as the tests do; as the `postgres` account
# through setpriv when run as root) and removed at the end.
#   - 16 writer processes at once, each running 200 commands (`items add`, `draft add` + `draft
#     save`, `items update` of three shared items, `items add` + `items delete`). Every command
#     must exit 0; every acknowledged item must be there, every deleted one gone, and every
#     item's versions must run 1..n without a gap.
#   - 20 rounds of 8 first commands (`migrate up` and `items add`) at once on a database nobody
#     has used yet: all exit 0, the migrations recorded once.
#
# Contract (scripts/soak.sh): binary in $STOCKROOM_BIN, scale in $SOAK_SCALE (1 = 200 commands
# per writer), progress on stderr, `ROW<TAB>check<TAB>trials<TAB>failures<TAB>detail` on stdout,
# exit 0 only when every failures count is 0.
source "$(dirname "$0")/common.sh"

per_writer=$(trials 200)
rounds=$(trials 20)
writers=16

bindir=$(pg_config --bindir 2>/dev/null)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bindir/initdb" ] || { echo "soak: no PostgreSQL server programs (initdb); run scripts/setup.sh --tests" >&2; exit 2; }
as_server=()
if [ "$(id -u)" = 0 ]; then
    account=${STOCKROOM_PG_USER:-postgres}
    as_server=(setpriv --reuid="$(id -u "$account")" --regid="$(id -g "$account")" --init-groups --)
    chown "$account" "$work"
fi
data="$work/data"
"${as_server[@]}" "$bindir/initdb" -D "$data" -U stockroom --auth=trust -E UTF8 --locale=C --no-sync >/dev/null \
    || { echo "soak: initdb failed" >&2; exit 2; }
# The postmaster must not hold this script's stdout (soak.sh reads it to the end).
"${as_server[@]}" "$bindir/pg_ctl" start -w -D "$data" -l "$work/server.log" \
    -o "-c listen_addresses='' -c unix_socket_directories='$work' -c port=5432 -c fsync=off -c max_connections=60" \
    </dev/null >/dev/null 2>&1 || { echo "soak: the server did not start: $(tail -n 5 "$work/server.log")" >&2; exit 2; }
stop_server() { "${as_server[@]}" "$bindir/pg_ctl" stop -D "$data" -m immediate -w </dev/null >/dev/null 2>&1; cleanup; }
trap stop_server EXIT
psql_on() { psql -X -q -At -v ON_ERROR_STOP=1 -d "postgresql://stockroom@/$1?host=$work&port=5432" -c "$2"; }

# Writers.
psql_on postgres "CREATE DATABASE writers" || exit 2
export STOCKROOM_DB="postgresql://stockroom@/writers?host=$work&port=5432"
shared=()
for name in mug cup bowl; do shared+=("$("$bin" items add --name "shared $name")") || exit 2; done
progress "$writers writers x $per_writer commands"
started=$(date +%s.%N)
for ((w = 1; w <= writers; w++)); do
    (
        n=0 i=0
        while ((n < per_writer)); do
            i=$((i + 1))
            case $((i % 4)) in
                0) n=$((n + 1))
                   if id=$("$bin" items add --name "w$w item $i" --quantity "$i" 2>>"$work/err.$w"); then echo "add $id"; else echo fail; fi ;;
                1) n=$((n + 2))
                   if draft=$("$bin" draft add --name "w$w draft $i" 2>>"$work/err.$w") \
                       && id=$("$bin" draft save "$draft" 2>>"$work/err.$w"); then echo "add $id"; else echo fail; fi ;;
                2) n=$((n + 1)); target=${shared[$(((i + w) % 3))]}
                   if "$bin" items update "$target" --quantity $((w * 100000 + i)) >/dev/null 2>>"$work/err.$w"; then
                       echo "update $target"; else echo fail; fi ;;
                3) n=$((n + 2))
                   if id=$("$bin" items add --name "w$w gone $i" --out-of-stock 2>>"$work/err.$w") \
                       && "$bin" items delete "$id" >/dev/null 2>>"$work/err.$w"; then echo "delete $id"; else echo fail; fi ;;
            esac
        done >"$work/ledger.$w"
    ) &
done
wait
elapsed=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
cat "$work"/ledger.* >"$work/ledger"
failures=$(grep -c '^fail' "$work/ledger")
{ printf '%s\n' "${shared[@]}"; awk '$1 == "add" { print $2 }' "$work/ledger"; } | sort >"$work/expected"
psql_on writers "SELECT id FROM items" | sort >"$work/stored"
lost=$(comm -23 "$work/expected" "$work/stored" | wc -l)
extra=$(comm -13 "$work/expected" "$work/stored" | wc -l)
gaps=$(psql_on writers "SELECT count(*) FROM (SELECT item_id FROM item_events GROUP BY item_id HAVING min(version) <> 1 OR count(*) <> max(version)) g")
updates=$(grep -c '^update' "$work/ledger")
shared_events=$(psql_on writers "SELECT count(*) FROM item_events WHERE item_id IN ('${shared[0]}', '${shared[1]}', '${shared[2]}')")
bad=$((failures + lost + extra + gaps + (shared_events != updates + 3)))
detail="$writers writers x $per_writer commands in ${elapsed}s; $(grep -vc '^fail' "$work/ledger") writes acknowledged, $failures failed, $lost lost, $extra unexpected, $gaps items with version gaps, $updates updates -> $shared_events events on the shared items"
first_error=$(cat "$work"/err.* 2>/dev/null | head -n 1)
[ -n "$first_error" ] && detail="$detail; first error: $first_error"
row "concurrent writers on a server" "$((writers * per_writer))" "$bad" "$detail"

# First commands on an empty database.
progress "$rounds rounds of first commands on an empty database"
failures=0 first_failure=""
for ((round = 1; round <= rounds; round++)); do
    psql_on postgres "CREATE DATABASE first_$round" || exit 2
    uri="postgresql://stockroom@/first_$round?host=$work&port=5432"
    for ((p = 0; p < 8; p++)); do
        if ((p % 2)); then command=(items add --name "first $p"); else command=(migrate up); fi
        STOCKROOM_DB=$uri "$bin" "${command[@]}" >/dev/null 2>"$work/first.$p" &
        pids[p]=$!
    done
    for ((p = 0; p < 8; p++)); do
        if ! wait "${pids[p]}"; then
            failures=$((failures + 1)); [ -n "$first_failure" ] || first_failure=$(head -n 1 "$work/first.$p")
        fi
    done
    versions=$(psql_on "first_$round" "SELECT count(*) FROM schema_migrations")
    items=$(psql_on "first_$round" "SELECT count(*) FROM items")
    [[ $versions == "$(ls "$(dirname "$0")/../../Migrations/postgres" | grep -c '^[0-9]')" && $items == 4 ]] \
        || { failures=$((failures + 1)); [ -n "$first_failure" ] || first_failure="round $round: $versions migrations, $items items"; }
done
detail="$rounds rounds x 8 processes (4 migrate up, 4 items add) on a new database"
[ -n "$first_failure" ] && detail="$detail; first failure: $first_failure"
row "first commands on an empty server database" "$((rounds * 8))" "$failures" "$detail"
finish
