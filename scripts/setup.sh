#!/usr/bin/env bash
# Installs what Stockroom needs beyond the Swift toolchain, on Debian: the system SQLite
# library and headers (the CSQLite target links them), the sqlite3 shell (tests inspect the
# database with it), pkg-config (SwiftPM finds libsqlite3 through it) and flock (the nightly
# backup script). Safe to run again: it installs only what is missing.
set -euo pipefail

packages=(libsqlite3-dev sqlite3 pkg-config util-linux)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH (expected the Swift 6 toolchain, e.g. /opt/swift/usr/bin)" >&2; exit 1; }
