#!/bin/sh
# One GPU round of the shared-factor area (issue 6), run by bench/gpu-round.sh from the
# repository root with B (the CUDA build dir, already built) and R (results dir) set, under a
# time cap (150 s in round 1, 180 s in round 2). Writes into $R:
#   ctest.log  ctest -R gcd (test_gcd, cli_gcd, test_gcd_gpu: CUDA context == CPU context)
#   bench.txt  bench_gcd --backend cuda rows:
#              - batch GCD of 1e4 and 1e5 random 1024-bit moduli with per-level times
#                (trees on the host cores, the final divmod and gcd on the GPU);
#              - all pairs on a sample of 8192 moduli spread over a 1e6 set (33.5M pairs),
#                extrapolated to the 5e11 pairs of the full set (labelled "extrapolated");
#              - batch GCD of the 1e6 set with per-level times, with whatever time is left
#                (a run cut by the cap still gives its per-level profile).
set -u
: "${B:?B (build dir) not set}" "${R:?R (results dir) not set}"
CAP=${CAP:-150}
t0=$(date +%s)
left() { echo $((CAP - 8 - ($(date +%s) - t0))); }
mkdir -p "$R"
cmake --build "$B" --target test_gcd test_gcd_gpu bench_gcd bulk >"$R/build.log" 2>&1 ||
    { echo "build of the gcd targets failed"; tail -20 "$R/build.log"; }
echo "== ctest -R gcd ($(date -u +%H:%M:%S))"
(cd "$B" && BULK_PROGRESS=0 ctest -R gcd -j4 --output-on-failure) >"$R/ctest.log" 2>&1
tail -8 "$R/ctest.log"
BG=$B/bench/gcd/bench_gcd
{
    echo "# bench/gcd/iter-gpu.sh: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(date -u)"
    echo "# after ctest: $(($(date +%s) - t0)) s of the ${CAP} s cap used"
    "$BG" --backend cuda --n 10000 --no-pairs --no-gmp --levels
    "$BG" --backend cuda --n 100000 --no-pairs --no-gmp --levels
    s=$(left)
    echo "# 1e6 run with ${s} s left"
    if [ "$s" -gt 25 ]; then
        timeout "$s" "$BG" --backend cuda --n 1000000 --pairs-sample 8192 --no-gmp --levels ||
            echo "# 1e6 run stopped by the time cap after ${s} s (exit $?): the batch row above is partial"
    fi
} >"$R/bench.txt" 2>&1
cat "$R/bench.txt"
