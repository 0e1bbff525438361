#!/usr/bin/env bash
# Installs what Stockroom needs beyond the Swift toolchain, on Debian, in three sizes:
#
#   scripts/setup.sh            building and running the product (scripts/run.sh, build-release.sh):
#                               the system SQLite library and headers (the CSQLite target links
#                               them), pkg-config (SwiftPM finds libsqlite3 through it), libpq's
#                               headers (the CLibPQ target compiles against them; nothing links
#                               libpq, it is loaded on the first PostgreSQL connection) and flock
#                               (util-linux; the nightly backup script).
#   scripts/setup.sh --tests    also what only the tests use (scripts/test.sh): see below.
#   scripts/setup.sh --bench    the tests' set and the benchmark scripts' tools.
#
# Safe to run again: it installs only what is missing.
set -euo pipefail

tests=false bench=false
for argument in "$@"; do
    case $argument in
        --tests) tests=true ;;
        --bench) tests=true bench=true ;;   # the benchmarks start PostgreSQL servers as the tests do
        *) echo "setup: unknown option $argument (expected --tests or --bench)" >&2; exit 64 ;;
    esac
done

packages=(libsqlite3-dev pkg-config libpq-dev util-linux)
if $tests; then
    # The tests: the sqlite3 shell (they inspect databases with it); openssl (the TLS tests make
    # a certificate authority and a server certificate); for `stockroom serve`'s browser tests
    # Debian's chromium (Playwright drives it; it never downloads a browser of its own) and venv,
    # for the Python tools below; curl (the serve tests check what a real HTTP client reports
    # when an export breaks off); strace (a copy test counts the heap calls a process makes).
    packages+=(sqlite3 openssl chromium python3-venv curl strace)
    # The PostgreSQL server (the tests start throwaway servers of their own with initdb and
    # pg_ctl; nothing is started here): Debian 12's version (postgresql-15) when the archive has
    # it, else the distribution's default through the `postgresql` metapackage.
    if apt-cache show postgresql-15 >/dev/null 2>&1; then
        packages+=(postgresql-15)
    else
        packages+=(postgresql)
    fi
fi
# What the benchmark scripts run (scripts/bench-copy.sh times with hyperfine; BENCHMARKS.md's
# instruction counts come from valgrind; scripts/bench-serve.sh loads the server with wrk and
# compiles its raw-SQLite floor with cc): not needed by the tests, so CI does not pay for them.
$bench && packages+=(hyperfine valgrind wrk gcc)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if $tests; then
    # initdb and postgres refuse to run as root, and CI runs the tests as root: the tests then
    # run the server programs as this unprivileged account (the server package normally creates it).
    if ! id postgres >/dev/null 2>&1; then
        echo "setup: creating the postgres account" >&2
        "${sudo_cmd[@]}" useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    # The server programs live outside PATH on Debian (/usr/lib/postgresql/<version>/bin); the
    # tests find them with pg_config --bindir or that folder, or STOCKROOM_PG_BINDIR.
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [ -n "${STOCKROOM_PG_BINDIR:-}" ] \
        || { echo "setup: no PostgreSQL server programs found under /usr/lib/postgresql/*/bin" >&2; exit 1; }

    # From PyPI, into a virtual environment of the project's own (.build/python, so that neither
    # Debian's Python packages nor pip's are disturbed): Playwright (Tests/Browser/web_test.py
    # drives Debian's chromium with it, never a browser of its own) and schemathesis
    # (ServeAPIFuzzTests fuzzes the API from its OpenAPI document). The tests use this interpreter.
    venv="$(cd "$(dirname "$0")/.." && pwd)/.build/python"
    if ! "$venv/bin/python3" -c "import playwright, schemathesis" >/dev/null 2>&1; then
        echo "setup: installing playwright and schemathesis (PyPI) into $venv" >&2
        python3 -m venv "$venv"
        # Pinned: the tests drive both through APIs and command lines that change between releases.
        "$venv/bin/python3" -m pip install --quiet "playwright==1.65.2" "schemathesis==4.32.5"
    fi
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH (expected the Swift 6 toolchain, e.g. /opt/swift/usr/bin)" >&2; exit 1; }
