#!/usr/bin/env bash
# Soak part: bad inputs. At least 150 bad command lines, files, SQL statements and names; each
# must print exactly one line on stderr starting with `error:`, exit with its documented code,
# print nothing on stdout, and leave the database (and every other file in its folder)
# byte-identical, creating nothing.
#
# Usage: STOCKROOM_BIN=path [SOAK_SCALE=1] scripts/soak/bad-inputs.sh   (the scale is ignored:
# every input is tried, and the run takes seconds)
source "$(dirname "$0")/common.sh"

folder=$work/data
mkdir -p "$folder"
db=$folder/inventory.sqlite
make_database "$db" 50 || { progress "cannot create the database"; exit 2; }
"$bin" --db "$db" draft add --name "Half" >/dev/null
item=$("$bin" --db "$db" query --format csv "SELECT id FROM items WHERE name = 'Seed'" | tail -n 1 | tr -d '\r')
draft=$("$bin" --db "$db" draft list --format json | grep -o '"id":"[0-9a-f-]*"' | head -n 1 | cut -d'"' -f4)
printf 'just some notes\n' >"$folder/notes.txt"
head -c 8192 /dev/urandom >"$folder/random.bin"
head -c 4096 "$db" >"$folder/truncated.sqlite"
printf 'SQLite format 3\0garbage' >"$folder/header-only.sqlite"
: >"$folder/backup-exists.sqlite"
mkdir -p "$folder/a-folder"

# The state every case must leave: each file's checksum and the folder's listing. SQLite's
# -wal and -shm beside a database are left out: a reader may create them.
snapshot() {
    (cd "$folder" && find . ! -name '*-wal' ! -name '*-shm' -printf '%p %s\n' | sort &&
        find . -type f ! -name '*-wal' ! -name '*-shm' -exec md5sum {} + | sort)
}

declare -A by_category=() failed_by_category=()
failures_list=()
total=0 failures=0
# try CATEGORY EXPECTED_CODE ARGUMENTS...
try() {
    local category=$1 expected=$2
    shift 2
    local before after status
    before=$(snapshot)
    (cd "$folder" && STOCKROOM_DB=$db "$bin" "$@") >"$work/out" 2>"$work/err" </dev/null
    status=$?
    after=$(snapshot)
    total=$((total + 1))
    by_category[$category]=$((${by_category[$category]:-0} + 1))
    local problem=""
    ((status == expected)) || problem="exit $status, expected $expected"
    one_error_line "$work/err" || problem+="${problem:+; }stderr is not one error line"
    # `check` prints its report on stdout by design; every other refusal prints nothing there.
    [ -s "$work/out" ] && [[ " $* " != *" check "* ]] && problem+="${problem:+; }printed on stdout"
    [ "$before" = "$after" ] || problem+="${problem:+; }files changed"
    if [ -n "$problem" ]; then
        failures=$((failures + 1))
        failed_by_category[$category]=$((${failed_by_category[$category]:-0} + 1))
        progress "FAIL [$category] $(printf '%q ' "$@"): $problem: $(head -c 200 "$work/err" | tr '\n' '|')"
    fi
}

# Arguments.
try arguments 64 frobnicate
try arguments 64 items frobnicate
try arguments 64 items list --bogus
try arguments 64 items list --limit
try arguments 64 items list --limit abc
try arguments 64 items list --limit -1
try arguments 64 items list --format xml
try arguments 64 items add
try arguments 64 items add --name
try arguments 64 items add --name X --quantity 0
try arguments 64 items add --name X --quantity -3
try arguments 64 items add --name X --quantity abc
try arguments 64 items add --name X --quantity 99999999999999999999999
try arguments 64 items add --name X --quantity 2 --out-of-stock
try arguments 64 items add --name X --back-order
try arguments 64 items add --name X --color purple
try arguments 64 items add --name X --color ''
try arguments 64 items add --name X extra-argument
try arguments 64 items show
try arguments 64 items show not-an-id
try arguments 64 items show 12345678-zzzz
try arguments 64 items show ''
try arguments 66 items show ffffffff-ffff-ffff-ffff-ffffffffffff
try arguments 66 items show ffffffff
try arguments 64 items update "$item"
try arguments 64 items update "$item" --color red --no-color
try arguments 64 items update "$item" --name ''
try arguments 64 items update "$item" --name '   '
try arguments 66 items update ffffffff-ffff-ffff-ffff-ffffffffffff --quantity 2
try arguments 66 items delete ffffffff-ffff-ffff-ffff-ffffffffffff
try arguments 64 items delete not-an-id
try arguments 64 draft frobnicate
try arguments 64 draft add --quantity 0
try arguments 64 draft add --color mauve
try arguments 66 draft show ffffffff-ffff-ffff-ffff-ffffffffffff
try arguments 66 draft save ffffffff-ffff-ffff-ffff-ffffffffffff
try arguments 66 draft cancel ffffffff-ffff-ffff-ffff-ffffffffffff
try arguments 64 draft edit "$draft"
try arguments 66 draft duplicate ffffffff-ffff-ffff-ffff-ffffffffffff
try arguments 64 draft save not-an-id
try arguments 64 --busy-timeout abc items list
try arguments 64 --busy-timeout -5 items list
try arguments 64 migrate frobnicate
try arguments 64 migrate status --format yaml
try arguments 64 backup
try arguments 64 restore
try arguments 64 check --format nope

# Names: control characters (C0, DEL, C1), invisible-only names, invalid UTF-8.
# Characters as UTF-8 bytes: this script runs in the C locale, where $'\u...' is not UTF-8.
for code in $(seq 1 31) 127; do
    char=$(printf "\\$(printf '%03o' "$code")x")
    try names 64 items add --name "a${char%x}b"
done
for code in $(seq 128 159); do
    try names 64 items add --name "a$(printf "\\302\\$(printf '%03o' "$code")")b"
done
nbsp=$'\xc2\xa0' figure=$'\xe2\x80\x87' narrow=$'\xe2\x80\xaf' zwsp=$'\xe2\x80\x8b' zwnj=$'\xe2\x80\x8c'
zwj=$'\xe2\x80\x8d' joiner=$'\xe2\x81\xa0' bom=$'\xef\xbb\xbf' ideographic=$'\xe3\x80\x80' shy=$'\xc2\xad'
for blank in ' ' $'\t' "$nbsp" "$figure" "$narrow" "$zwsp" "$zwnj" "$zwj" "$joiner" "$bom" "$ideographic" "$shy" "$zwsp$nbsp "; do
    try names 64 items add --name "$blank"
done
try names 64 items update "$item" --name "$zwsp"
try names 64 draft add --name $'esc\e[2J'
try names 64 draft edit "$draft" --name $'two\nlines'
for bytes in $'\xff' $'a\xfeb' $'\xc3' $'\xc3\x28' $'\xe2\x82' $'\xed\xa0\x80' $'\xf8\x88\x80\x80\x80' $'\xc0\xaf'; do
    try names 64 items add --name "$bytes"
    try names 64 query "SELECT '$bytes'"
done

# SQL given to `query`.
try sql 64 query ''
try sql 64 query '   -- only a comment'
try sql 64 query 'SELEC 1'
try sql 64 query 'SELECT * FROM no_such_table'
try sql 64 query 'SELECT no_such_column FROM items'
try sql 64 query 'SELECT 1; SELECT 2'
try sql 64 query 'DELETE FROM items'
try sql 64 query 'UPDATE items SET name = 1'
try sql 64 query "INSERT INTO items (id) VALUES ('x')"
try sql 64 query 'DROP TABLE items'
try sql 64 query 'CREATE TABLE t (x)'
try sql 64 query 'CREATE TEMP TABLE t (x)'
try sql 64 query 'PRAGMA user_version = 7'
try sql 64 query 'PRAGMA journal_mode = DELETE'
try sql 64 query "VACUUM INTO 'copy.sqlite'"
try sql 64 query 'VACUUM'
try sql 64 query 'REINDEX'
try sql 64 query "ATTACH 'other.sqlite' AS other"
try sql 64 query "SELECT load_extension('x')"
try sql 64 query "SELECT fts3_tokenizer('simple')"
try sql 64 query 'WITH x AS (SELECT 1) DELETE FROM items'
try sql 64 query 'SELECT ?'
try sql 64 query --param a 'SELECT 1'
try sql 64 query --timeout -1 'SELECT 1'
try sql 64 query --timeout abc 'SELECT 1'
try sql 64 query --max-value-length 10 'SELECT 1'
try sql 64 query --max-memory 1 'SELECT 1'
try sql 64 query --format xml 'SELECT 1'
try sql 65 query "SELECT length(printf('%.*c', 2000000000, 'x'))"
try sql 65 query 'SELECT hex(zeroblob(499000000))'
try sql 65 query 'SELECT randomblob(100000000)'
try sql 65 query "SELECT printf('%999999999d', 1)"
try sql 65 query "SELECT json('not json')"
try sql 65 query 'SELECT abs(-9223372036854775808)'
try sql 75 query --timeout 0.2 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r'

# Files.
try files 74 --db "$folder/notes.txt" items list
try files 74 --db "$folder/random.bin" items list
try files 74 --db "$folder/notes.txt" query 'SELECT 1'
try files 74 --db "$folder/random.bin" check
try files 74 --db "$folder/header-only.sqlite" items list
try files 74 --db "$folder/a-folder" items list
try files 66 --db "$folder/missing.sqlite" query 'SELECT 1'
try files 66 --db "$folder/missing.sqlite" check
try files 66 --db "$folder/missing.sqlite" backup "$folder/out.sqlite"
try files 66 --db "$folder/no-such-folder/x.sqlite" query 'SELECT 1'
try files 73 backup "$folder/backup-exists.sqlite"
try files 73 backup "$folder/no-such-folder/out.sqlite"
try files 73 backup "$folder/a-folder"
try files 64 backup "$db"
try files 66 restore "$folder/missing.sqlite"
try files 74 restore "$folder/notes.txt"
try files 74 restore "$folder/random.bin"
try files 64 restore "$db"
try files 74 check --db "$folder/truncated.sqlite"
try files 74 check --db "$folder/notes.txt"
try files 66 migrate up --migrations-dir "$folder/no-such-folder"
try files 66 --db "$folder/missing.sqlite" items show ffffffff

for category in arguments names sql files; do
    row "bad inputs: $category" "${by_category[$category]:-0}" "${failed_by_category[$category]:-0}" \
        "one error line, the documented code, no stdout, files byte-identical"
done
progress "$total bad inputs, $failures failures"
row "bad inputs: total (at least 150)" "$total" $((failures + (total < 150))) "$total inputs"
finish
