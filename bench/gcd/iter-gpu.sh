#!/bin/sh
# One GPU round of the shared-factor area (issue 6), run by bench/gpu-round.sh from the
# repository root with B (the CUDA build dir, already built) and R (results dir) set, under a
# time cap (CAP seconds, default 180; round 1 had 120 s and ran out inside ctest, so the
# benchmark rows now come first). Writes into $R:
#   bench.txt        bench_gcd --backend cuda rows:
#                    - all pairs on a sample of 8192 moduli spread over a 1e6 set (33.5M pairs),
#                      extrapolated to the 5e11 pairs of the full set (labelled "extrapolated");
#                    - batch GCD of 1e4 and 1e5 random 1024-bit moduli with per-level times
#                      (trees on the host cores, the final divmod and gcd on the GPU); the 1e6
#                      batch does not fit the cap (bench/results/2026-11-21-h200-gcd-batch-1e6-prediction.txt)
#   ctest-gpu.log    ctest -R test_gcd_gpu -V (CUDA context == CPU context; per-phase seconds)
#   ctest-cpu.log    ctest -R 'test_gcd$|cli_gcd' when time is left (the CPU tests, run in CI too)
#   bench-1e6-partial.txt  the 1e6 batch with --levels for whatever time is left (cut by the cap)
set -u
: "${B:?B (build dir) not set}" "${R:?R (results dir) not set}"
CAP=${CAP:-180}
t0=$(date +%s)
left() { echo $((CAP - 6 - ($(date +%s) - t0))); }
mkdir -p "$R"
cmake --build "$B" --target test_gcd test_gcd_gpu bench_gcd bulk >"$R/build.log" 2>&1 ||
    { echo "build of the gcd targets failed"; tail -20 "$R/build.log"; }
BG=$B/bench/gcd/bench_gcd
{
    echo "# bench/gcd/iter-gpu.sh: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(date -u)"
    "$BG" --backend cuda --n 1000000 --pairs-sample 8192 --no-batch --no-gmp
    "$BG" --backend cuda --n 10000 --no-pairs --no-gmp --levels
    "$BG" --backend cuda --n 100000 --no-pairs --no-gmp --levels
    echo "# benchmarks done after $(($(date +%s) - t0)) s of the ${CAP} s cap"
} >"$R/bench.txt" 2>&1
cat "$R/bench.txt"
s=$(left)
echo "== ctest -R test_gcd_gpu ($(date -u +%H:%M:%S), ${s} s left)"
[ "$s" -gt 10 ] && (cd "$B" && BULK_PROGRESS=0 ctest -R test_gcd_gpu -V --timeout "$s") >"$R/ctest-gpu.log" 2>&1
grep -E "identical|SKIP|FAIL|Passed|Failed|Timeout|tests passed" "$R/ctest-gpu.log"
s=$(left)
echo "== ctest -R 'test_gcd\$|cli_gcd' ($(date -u +%H:%M:%S), ${s} s left)"
[ "$s" -gt 20 ] && (cd "$B" && BULK_PROGRESS=0 ctest -R 'test_gcd$|cli_gcd' -j2 --timeout "$s" --output-on-failure) >"$R/ctest-cpu.log" 2>&1
tail -6 "$R/ctest-cpu.log" 2>/dev/null
s=$(left)
echo "== 1e6 batch with the ${s} s left (a per-level profile of the part it completes)"
if [ "$s" -gt 30 ]; then
    timeout "$s" "$BG" --backend cuda --n 1000000 --no-pairs --no-gmp --levels >"$R/bench-1e6-partial.txt" 2>&1 ||
        echo "# stopped by the time cap after ${s} s (exit $?): partial" >>"$R/bench-1e6-partial.txt"
    tail -4 "$R/bench-1e6-partial.txt"
fi
exit 0
