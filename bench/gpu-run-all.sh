#!/bin/sh
# One call on the GPU machine for everything that needs a GPU: build once with CUDA, run every
# GPU test (ctest -L gpu: each compares the CUDA backend with the CPU backend), then a short
# benchmark of each area, and print a summary. Meant to fit one 10-minute device call.
#
#   sh bench/gpu-run-all.sh [BUILD_DIR]          (default build-gpu)
#
# GMP_PREFIX=DIR points CMake at a GMP install (the lent GPU machine has none: the lead carries
# one). Logs go to $OUT/logs (or /tmp/gpu-run-all/logs) and are packed into $OUT/gpu-logs.tgz.
# Each area keeps a longer script of its own (bench/*/gpu-run.sh) for deeper runs.
set -u
B=${1:-build-gpu}
L=${OUT:-/tmp/gpu-run-all}/logs
mkdir -p "$L"
t0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader >"$L/device.txt" 2>&1
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON ${GMP_PREFIX:+-DCMAKE_PREFIX_PATH=$GMP_PREFIX} \
    >"$L/build.log" 2>&1
cmake --build "$B" -j "$(nproc)" -- -k >>"$L/build.log" 2>&1
build_rc=$?
t1=$(date +%s)
(cd "$B" && timeout 240 ctest -L gpu --output-on-failure -V) >"$L/gpu-tests.log" 2>&1
test_rc=$?
t2=$(date +%s)

run() { # name seconds command...: runs with a time cap, output to $L/name.txt
    name=$1 secs=$2
    shift 2
    timeout "$secs" "$@" >"$L/$name.txt" 2>&1
    echo "$name rc=$?" >>"$L/rcs.txt"
}
run int-gpu 90 "$B/bench/int_gpu/bench_int_gpu"
run collatz-layouts 90 "$B/bench/collatz_gpu/bench_collatz_gpu" --layouts
run collatz-cli-verify 60 "$B/bulk" collatz verify --from 2^68 --to 2^68+2^44 --backend cuda --json
run collatz-cli-delays 60 "$B/bulk" collatz delays --from 2^64 --to 2^64+2^34 --stats 1048576 --backend cuda --out "$L/delay-stats.txt"
run bpbc-gpu 120 "$B/bench/bpbc/bench_bpbc" --gpu --quick
run gcd-gpu 90 "$B/bench/gcd/bench_gcd" --backend cuda --n 10000 --pairs-seconds 10 --no-gmp
t3=$(date +%s)

{
    echo "== summary ($(cat "$L/device.txt"))"
    echo "build rc=$build_rc ($((t1 - t0)) s); ctest -L gpu rc=$test_rc ($((t2 - t1)) s); benchmarks $((t3 - t2)) s"
    grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|tests failed" "$L/gpu-tests.log"
    cat "$L/rcs.txt"
} | tee "$L/summary.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-logs.tgz" -C "$(dirname "$L")" logs
[ $build_rc -eq 0 ] && [ $test_rc -eq 0 ]
