#!/bin/sh
# One GPU round of the NTT multiplication (/work/notes/gpu-rounds.md), run by the lead from the
# repository root on the GPU machine after the whole tree was built with CUDA into $B:
#
#   B=build-gpu R=<results dir> timeout <cap> sh bench/int_gpu_ntt/iter-gpu.sh
#
# 1. ctest -R int_gpu_ntt (test_int_gpu_ntt on the device against GMP and the CPU backend,
#    test_int_gpu_ntt_core) -> $R/ctest.log;
# 2. bench_int_gpu_ntt --quick --only batch,big: the crossover widths, batched products 8192 ..
#    524288 bits (auto choice, the choice without the NTT, NTT forced, Karatsuba over NTT, GMP on
#    all cores), single large products -> $R/bench.txt (round 1 also ran the block-size and
#    variant rows, round 2 the xy part: bench/results/2026-11-21-h200-int-gpu-ntt-round{1,2}.txt);
# 3. one Nsight Compute pass over the batched kernel and the big product's kernels (bench
#    --only prof) -> $R/ncu.txt (skipped without ncu; bounded by a timeout).
# Each step is bounded so the whole stays under the cap (CAP <= 60: no ncu pass); the exit status
# is that of the tests.
set -u
B=${B:-build-gpu}
R=${R:-/tmp/int-gpu-ntt-iter.$$}
mkdir -p "$R"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >"$R/device.txt" 2>&1 || true
cat "$R/device.txt"

cmake --build "$B" -j 16 --target test_int_gpu_ntt test_int_gpu_ntt_core bench_int_gpu_ntt \
    >"$R/build.txt" 2>&1 || { stamp "build of the int_gpu_ntt targets FAILED"; tail -30 "$R/build.txt"; }
stamp "build checked"

status=1
if (cd "$B" && timeout 28 ctest -R int_gpu_ntt --output-on-failure -V) >"$R/ctest.log" 2>&1; then
    status=0
fi
grep -E "SKIP|Passed|Failed|FAIL|passed|seed|batch|big|Test time" "$R/ctest.log" | head -80
stamp "tests: $([ $status = 0 ] && echo passed || echo FAILED)"

timeout 38 "$B/bench/int_gpu_ntt/bench_int_gpu_ntt" --quick --only batch,big --out "$R/bench.txt" >"$R/bench.log" 2>&1
stamp "bench rc $?"
cat "$R/bench.txt" 2>/dev/null || tail -40 "$R/bench.log"
if [ "${CAP:-80}" -le 60 ]; then
    stamp "cap ${CAP} s: no ncu pass"
elif command -v ncu >/dev/null 2>&1; then
    for k in ntt_batch_kernel 'big_pass_kernel|big_block_kernel'; do
        timeout 9 ncu --clock-control none -k regex:"$k" --launch-count 2 \
            --section SpeedOfLight --section WarpStateStats --section InstructionStats \
            --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
            --section MemoryWorkloadAnalysis \
            "$B/bench/int_gpu_ntt/bench_int_gpu_ntt" --only prof >>"$R/ncu.txt" 2>&1
        stamp "ncu $k rc $?"
    done
    # stall reasons of the batched kernel (separate: an unknown metric name must not cost the
    # sections above)
    timeout 9 ncu --clock-control none -k regex:ntt_batch_kernel --launch-count 1 \
        --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
        "$B/bench/int_gpu_ntt/bench_int_gpu_ntt" --only prof >"$R/ncu-stalls.txt" 2>&1
    stamp "ncu stalls rc $?"
else
    stamp "no ncu"
fi
stamp "done"
exit $status
