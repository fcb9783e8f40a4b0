#!/bin/sh
# `make bench`: runs every area's benchmark script (bench/<area>/run.sh BUILD_DIR) in turn.
set -e
B=${1:-build}
for s in bench/*/run.sh; do
    [ -f "$s" ] || continue
    echo "== $s"
    sh "$s" "$B"
done
