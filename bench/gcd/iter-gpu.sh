#!/bin/sh
# One GPU round of the shared-factor area (issue 6), run by bench/gpu-round.sh from the
# repository root with B (the CUDA build dir, already built) and R (results dir) set, under a
# time cap (CAP seconds). Session 3, round 1: the batched GPU tree levels and the GPU NTT hook.
# Writes into $R:
#   ctest-gpu.log   ctest -R test_gcd_gpu -V: CUDA context == CPU context == GMP (== all pairs on
#                   semiprimes), default levels, every level batched, the GPU NTT from 2048
#                   limbs, spilled product and remainder levels, grouped method
#   bench.txt       bench_gcd --random (random odd 1024-bit numbers, planted shared factors):
#                   1e5 with every level the device takes batched (products of nodes up to
#                   8192 limbs, remainders of nodes up to 2048) and --levels, for the per-level
#                   comparison with the CPU trees' profile of session 2 round 2
#                   (bench/results/2026-11-21-h200-gcd-round2.txt); then levels batched only up
#                   to 512-limb nodes and every larger product (from 4096 limbs) on the GPU NTT
#                   (per level: batched vs GPU NTT vs CPU); the trees on the host cores alone
#                   (the CPU reference of this code: the remainder tree no longer squares,
#                   remainder_tree.c); 1e4 with the defaults
set -u
: "${B:?B (build dir) not set}" "${R:?R (results dir) not set}"
CAP=${CAP:-80}
t0=$(date +%s)
left() { echo $((CAP - 4 - ($(date +%s) - t0))); }
mkdir -p "$R"
cmake --build "$B" --target test_gcd_gpu bench_gcd >"$R/build.log" 2>&1 ||
    { echo "build of the gcd targets failed"; tail -20 "$R/build.log"; }
BG=$B/bench/gcd/bench_gcd
s=$(left)
echo "== ctest -R test_gcd_gpu ($(date -u +%H:%M:%S), ${s} s left)"
(cd "$B" && BULK_PROGRESS=0 ctest -R test_gcd_gpu -V --timeout "$s") >"$R/ctest-gpu.log" 2>&1
grep -E "identical|SKIP|FAIL|Passed|Failed|Timeout|tests passed" "$R/ctest-gpu.log"
{
    echo "# bench/gcd/iter-gpu.sh: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(date -u)"
    s=$(left)
    [ "$s" -lt 10 ] && s=10
    echo "# 1e5, every level batched (MUL 8192, REM 2048), ${s} s left"
    BULK_GCD_BATCHED_MUL=8192 BULK_GCD_BATCHED_REM=2048 timeout "$s" "$BG" --backend cuda --n 100000 --random \
        --no-pairs --no-gmp --levels
    s=$(left)
    if [ "$s" -gt 20 ]; then
        echo "# 1e5, levels batched up to 512-limb nodes, above them every product of >= 4096 limbs on the GPU NTT, ${s} s left"
        BULK_GCD_BATCHED_MUL=512 BULK_GCD_BATCHED_REM=512 BULK_GCD_GPU_NTT=4096 timeout "$s" "$BG" \
            --backend cuda --n 100000 --random --no-pairs --no-gmp --levels
    fi
    s=$(left)
    if [ "$s" -gt 20 ]; then
        echo "# 1e5, trees on the host cores (nothing batched, no GPU NTT), ${s} s left"
        BULK_GCD_BATCHED_MUL=0 BULK_GCD_BATCHED_REM=0 BULK_GCD_GPU_NTT=0 timeout "$s" "$BG" \
            --backend cuda --n 100000 --random --no-pairs --no-gmp --levels
    fi
    s=$(left)
    if [ "$s" -gt 5 ]; then
        echo "# 1e4, defaults, ${s} s left"
        timeout "$s" "$BG" --backend cuda --n 10000 --random --no-pairs --no-gmp
    fi
    echo "# done after $(($(date +%s) - t0)) s of the ${CAP} s cap"
} >"$R/bench.txt" 2>&1
grep -v "^level" "$R/bench.txt"
exit 0
