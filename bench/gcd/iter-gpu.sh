#!/bin/sh
# One GPU round of the shared-factor area (issue 6), run by bench/gpu-round.sh from the
# repository root with B (the CUDA build dir, already built) and R (results dir) set, under a
# time cap (CAP seconds). Session 3, round 3 (the final CUDA state): the whole 1e6 GPU batch
# first (round 2's did not finish: bench/results/2026-11-21-h200-gcd-s3-round2.txt), then the
# GPU test with the time left, then a 1e5 profile. Writes into $R:
#   bench.txt       bench_gcd --backend cuda --n 1000000 --random --levels (random odd 1024-bit
#                   numbers with 2000 planted shared factors, checked: planted_ok), then 1e5
#   ctest-gpu.log   ctest -R test_gcd_gpu -V
set -u
: "${B:?B (build dir) not set}" "${R:?R (results dir) not set}"
# intntt's pinned staging of bulk_int_cuda_mul_big races between host threads (round 2: the 1e6
# batch hung at the level with 8 nodes; /work/notes/gcd-to-intntt.md): plain copies instead
export BULK_NTT_STAGE=0
CAP=${CAP:-60}
t0=$(date +%s)
left() { echo $((CAP - 3 - ($(date +%s) - t0))); }
mkdir -p "$R"
cmake --build "$B" --target test_gcd_gpu bench_gcd >"$R/build.log" 2>&1 ||
    { echo "build of the gcd targets failed"; tail -20 "$R/build.log"; }
BG=$B/bench/gcd/bench_gcd
{
    echo "# bench/gcd/iter-gpu.sh: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(date -u), cap ${CAP} s"
    s=$(left)
    echo "# 1e6 batch on the GPU context, defaults, ${s} s left"
    timeout "$s" "$BG" --backend cuda --n 1000000 --random --no-pairs --no-gmp --levels ||
        echo "# 1e6: stopped (exit $?) after $(($(date +%s) - t0)) s of the ${CAP} s cap"
    echo "# 1e6 done after $(($(date +%s) - t0)) s"
} >"$R/bench.txt" 2>&1
grep -v "^level" "$R/bench.txt"
s=$(left)
echo "== ctest -R test_gcd_gpu ($(date -u +%H:%M:%S), ${s} s left)"
[ "$s" -gt 5 ] && (cd "$B" && BULK_PROGRESS=0 timeout "$s" ctest -R test_gcd_gpu -V) >"$R/ctest-gpu.log" 2>&1
grep -E "identical|SKIP|FAIL|Passed|Failed|Timeout|tests passed" "$R/ctest-gpu.log"
s=$(left)
if [ "$s" -gt 8 ]; then
    echo "# 1e5, defaults, ${s} s left" >>"$R/bench.txt"
    timeout "$s" "$BG" --backend cuda --n 100000 --random --no-pairs --no-gmp --levels >>"$R/bench.txt" 2>&1
fi
grep -v "^level" "$R/bench.txt" | tail -5
exit 0
