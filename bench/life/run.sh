#!/bin/sh
# make bench: the Life benchmark of this machine (CPU; the GPU part when a device is present).
set -e
B=${1:-build}
shift 2>/dev/null || true
"$B/bench/life/bench_life" "$@"
