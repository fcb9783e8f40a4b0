#!/bin/sh
# Session 5: long ranges of `collatz verify` on the GPU: --converge over 2^68 .. 2^68 + 2^50 with
# the CLI's defaults (K = 43) and with d = 14, and the full-glide mode over + 2^48 beside them.
# Builds like converge-gpu.sh (incremental when build-gpu is there). Results: $OUT/long/cli.jsonl
set -u
R=${OUT:-/tmp}/long
TARGETS="bulk"
. bench/collatz_gpu/gpu-build.sh
run() {
    echo "## $*" >>"$R/cli.jsonl"
    timeout 150 "$B/bulk" collatz verify --json --backend cuda --from 2^68 "$@" >>"$R/cli.jsonl" 2>>"$R/cli.err"
    echo "rc=$? $* ($(($(date +%s) - t0)) s) $(tail -1 "$R/cli.jsonl" | grep -o '"iterated[^,]*\|"seconds":[^}]*' | tr '\n' ' ')"
}
run --to 2^68+2^50 --converge
run --to 2^68+2^50 --converge --d 14
run --to 2^68+2^48
