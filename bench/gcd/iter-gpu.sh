#!/bin/sh
# One GPU round of the shared-factor area (issue 6), run by bench/gpu-round.sh from the
# repository root with B (the CUDA build dir, already built) and R (results dir) set, under a
# time cap (CAP seconds). Session 3, round 2: the benchmark table and the whole 1e6 GPU batch.
# Writes into $R:
#   bench.txt       1. 1e4 rows: all pairs on the GPU (all 5e7 pairs: also the rate that the 1e6
#                      all-pairs time is extrapolated from), batch on the GPU context, batch and
#                      an all-pairs sample on the CPU backend (16 host cores);
#                   3. 1e5 batch per-level profiles: the defaults, and every level node by node
#                      with the GPU NTT (no batched levels);
#                   4. the 1e6 batch on the GPU context (random odd numbers with planted shared
#                      factors, checked), --levels, with the rest of the cap
#                   5. when time is left: 1e5 on the CPU backend with --levels
#   ctest-gpu.log   2. ctest -R test_gcd_gpu -V
set -u
: "${B:?B (build dir) not set}" "${R:?R (results dir) not set}"
CAP=${CAP:-80}
t0=$(date +%s)
left() { echo $((CAP - 4 - ($(date +%s) - t0))); }
mkdir -p "$R"
cmake --build "$B" --target test_gcd_gpu bench_gcd >"$R/build.log" 2>&1 ||
    { echo "build of the gcd targets failed"; tail -20 "$R/build.log"; }
BG=$B/bench/gcd/bench_gcd
hdr="# bench/gcd/iter-gpu.sh: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(date -u)"
{
    echo "$hdr"
    echo "# 1e4: all pairs (GPU), batch (GPU context), batch and all-pairs sample (CPU backend)"
    "$BG" --backend cuda --n 10000 --pairs-seconds 30 --no-gmp --no-batch
    "$BG" --backend cuda --n 10000 --random --no-pairs --no-gmp
    "$BG" --backend cpu --n 10000 --random --no-pairs
    "$BG" --backend cpu --n 10000 --pairs-seconds 2 --no-gmp --no-batch
    echo "# 1e4 rows done after $(($(date +%s) - t0)) s"
} >"$R/bench.txt" 2>&1
cat "$R/bench.txt"
s=$(left)
echo "== ctest -R test_gcd_gpu ($(date -u +%H:%M:%S), ${s} s left)"
(cd "$B" && BULK_PROGRESS=0 timeout 60 ctest -R test_gcd_gpu -V) >"$R/ctest-gpu.log" 2>&1
grep -E "identical|SKIP|FAIL|Passed|Failed|Timeout|tests passed" "$R/ctest-gpu.log"
{
    s=$(left)
    echo "# 1e5, defaults, ${s} s left"
    timeout 40 "$BG" --backend cuda --n 100000 --random --no-pairs --no-gmp --levels
    s=$(left)
    echo "# 1e5, no batched levels (node by node, GPU NTT from 4096 limbs), ${s} s left"
    BULK_GCD_BATCHED_MUL=0 BULK_GCD_BATCHED_REM=0 timeout 40 "$BG" --backend cuda --n 100000 --random \
        --no-pairs --no-gmp --levels
    s=$(left)
    echo "# 1e6 batch on the GPU context, defaults, ${s} s left"
    timeout "$s" "$BG" --backend cuda --n 1000000 --random --no-pairs --no-gmp --levels ||
        echo "# 1e6: stopped (exit $?) after $(($(date +%s) - t0)) s of the ${CAP} s cap"
    s=$(left)
    if [ "$s" -gt 25 ]; then
        echo "# 1e5 batch on the CPU backend (16 host cores: the per-level profile that predicts the 1e6 CPU time), ${s} s left"
        timeout "$s" "$BG" --backend cpu --n 100000 --random --no-pairs --no-gmp --levels
    fi
    echo "# done after $(($(date +%s) - t0)) s of the ${CAP} s cap"
} >>"$R/bench.txt" 2>&1
grep -v "^level" "$R/bench.txt" | tail -12
exit 0
