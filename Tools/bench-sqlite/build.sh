#!/bin/sh
# Builds the SQLite peer of `lnote bench` against the system SQLite library.
# Installs libsqlite3-dev (Debian/Ubuntu) when the header is missing and apt-get is usable.
# Usage: Tools/bench-sqlite/build.sh [OUTPUT]   (default: Tools/bench-sqlite/.build/sqlite_peer)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/.build/sqlite_peer"}
mkdir -p "$(dirname "$out")"
if ! echo '#include <sqlite3.h>' | cc -E -x c - >/dev/null 2>&1; then
    echo "sqlite3.h missing: installing libsqlite3-dev" >&2
    if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get install -y libsqlite3-dev >&2 || { $sudo apt-get update >&2 && $sudo apt-get install -y libsqlite3-dev >&2; }
fi
cc -O2 -std=c11 -Wall -Wextra -o "$out" "$here/sqlite_peer.c" -lsqlite3
echo "built $out" >&2
