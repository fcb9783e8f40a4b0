#!/bin/sh
# Session 5's device call for `collatz verify --converge` (convergence mode): builds the CLI and
# the Collatz GPU test (Release, sm_90) and runs
#   1. test_collatz_gpu's verify cases (every variant against the CPU backend, convergence mode
#      included) -> $R/test-verify.log
#   2. the CLI on 2^68 .. 2^68 + 2^44 and + 2^46, full-glide and --converge, then --converge on
#      + 2^48 and + 2^50 (the CLI's defaults throughout) -> $R/cli.jsonl
#   3. the CPU backend on the device machine's cores, both modes, on 2^68 .. + 2^36 -> $R/cli.jsonl
#   GMP_PREFIX=$PWD/.deps/gmp sh bench/collatz_gpu/converge-gpu.sh   (results under $OUT/conv)
set -u
R=${OUT:-/tmp}/conv
TARGETS="bulk test_collatz_gpu"
. bench/collatz_gpu/gpu-build.sh
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader >"$R/device.txt" 2>&1
BULK_CZ_GPU_TEST=verify "$B/tests/collatz_gpu/test_collatz_gpu" >"$R/test-verify.log" 2>&1
echo "test_collatz_gpu (verify cases) rc=$? ($(($(date +%s) - t0)) s)"
grep -c " same " "$R/test-verify.log"
grep -E "DIFFERENT|FAIL" "$R/test-verify.log" | head -20
run() {
    echo "## $*" >>"$R/cli.jsonl"
    timeout 120 "$B/bulk" collatz verify --json "$@" >>"$R/cli.jsonl" 2>>"$R/cli.err"
    echo "rc=$? $* ($(($(date +%s) - t0)) s)"
}
for e in 44 46; do
    run --from 2^68 --to 2^68+2^$e --backend cuda
    run --from 2^68 --to 2^68+2^$e --backend cuda --converge
done
run --from 2^68 --to 2^68+2^48 --backend cuda --converge
run --from 2^68 --to 2^68+2^50 --backend cuda --converge
run --from 2^68 --to 2^68+2^36 --backend cpu
run --from 2^68 --to 2^68+2^36 --backend cpu --converge
cat "$R/cli.jsonl"
