#!/bin/sh
# `collatz verify --converge` on the GPU against the start, range, sieve depth K and table bits d.
#   GMP_PREFIX=$PWD/.deps/gmp sh bench/collatz_gpu/converge-scan.sh FROM:RANGE_BITS:K:D ...
# e.g. 2^68:48:43:14 runs --from 2^68 --to 2^68+2^48 --k 43 --d 14 (K or D "-": the CLI default).
# Builds like converge-gpu.sh (incremental when build-gpu is there). Results: $OUT/scan/cli.jsonl
# Session 5 ran: 2^68:48:{40,43,44,46}:10, 2^68:48:43:{12,14}, 2^68:48:{40,44}:14,
# 2^68:46:{42,43}:10, 2^68:46:43:14 (before the dip stop), and the list in
# bench/results/2026-11-21-h200-collatz-gpu-s5-converge.txt (after it).
set -u
R=${OUT:-/tmp}/scan
TARGETS="bulk"
. bench/collatz_gpu/gpu-build.sh
for spec in "$@"; do
    IFS=: read -r from bits k d <<EOT
$spec
EOT
    set --
    [ "$k" != "-" ] && set -- "$@" --k "$k"
    [ "$d" != "-" ] && set -- "$@" --d "$d"
    echo "## --from $from --to $from+2^$bits $*" >>"$R/cli.jsonl"
    timeout 150 "$B/bulk" collatz verify --json --backend cuda --converge --from "$from" --to "$from+2^$bits" "$@" \
        >>"$R/cli.jsonl" 2>>"$R/cli.err"
    echo "rc=$? $spec ($(($(date +%s) - t0)) s) $(tail -1 "$R/cli.jsonl" | grep -o '"seconds":[^}]*')"
done
