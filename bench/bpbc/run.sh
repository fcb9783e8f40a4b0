#!/bin/sh
# `make bench` part of the bpbc area: CPU tables (and GPU ones when a device is present),
# written to bench/results/<date>-<machine>-bpbc.txt. Usage: sh bench/bpbc/run.sh BUILD_DIR [args]
set -e
B=${1:-build}
shift || true
out="bench/results/$(date -u +%Y-%m-%d)-$(hostname -s 2>/dev/null || uname -n)-bpbc.txt"
mkdir -p bench/results
"$B/bench/bpbc/bench_bpbc" --out "$out" "$@"
echo "wrote $out"
