#!/bin/sh
# One GPU round of the CUDA integer backend (/work/notes/gpu-rounds.md): run by the lead from the
# repository root on the GPU machine after the whole tree was built with CUDA into $B:
#
#   B=build-gpu R=<results dir> timeout 120 sh bench/int_gpu/iter-gpu.sh
#
# Session 4 (issue 5: divmod 2048/1024 at >= 1/4 of the mul 1024 rate, >= 1.34e9/s; the
# default since round 2: eor8 in blocks of 64 - round 3 measures that final state):
# 1. ctest of test_int_gpu (on the device against GMP and the CPU backend; every divmod mode,
#    the add-back cases) and test_int_gpu_core -> $R/ctest.log;
# 2. bench_int_gpu --only div4: mul 1024 and divmod 2048/1024 by default (device-resident,
#    end-to-end, GMP on all cores), then the staged divmod kernels forced (carry-flag rows
#    "dstage", complemented even/odd rows unrolled "deo" (twice: the spread) and rolled "deor",
#    "deor4", "deor8"; "deoL" the word-loop staging; "...128" blocks of 128) and the check of
#    every kernel against regs and GMP -> $R/div4.txt;
# 3. (NCU=0 skips) one Nsight Compute pass over the staged divmod kernels (bench --only prof
#    launches the default, stage, eo, eor, eor4, eor8 once each, 2^18 instances) -> $R/ncu.txt;
# 4. the SASS opcode mix of the staged divmod kernels at 32 words (cuobjdump) -> $R/sass-div.txt.
# Each step is bounded so the whole stays under the round's cap; a failing step does not stop
# the later ones; the exit status is that of the tests.
set -u
B=${B:-build-gpu}
R=${R:-/tmp/int-gpu-iter.$$}
mkdir -p "$R"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv \
    >"$R/device.txt" 2>&1 || echo "nvidia-smi failed" >"$R/device.txt"
cat "$R/device.txt"

# the build the lead made (-k): rebuild only our targets if one is missing or stale
cmake --build "$B" -j 16 --target test_int_gpu test_int_gpu_core bench_int_gpu \
    >"$R/build.txt" 2>&1 || { stamp "build of the int_gpu targets FAILED"; tail -30 "$R/build.txt"; }
stamp "build checked"

status=1
if (cd "$B" && timeout 45 ctest -R '^test_int_gpu(_core)?$' --output-on-failure -V) >"$R/ctest.log" 2>&1; then
    status=0
fi
grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed|divmod .*done|Test time" "$R/ctest.log" | head -60
stamp "tests: $([ $status = 0 ] && echo passed || echo FAILED)"

BENCH="$B/bench/int_gpu/bench_int_gpu"
timeout 30 "$BENCH" --only div4 --out "$R/div4.txt" >"$R/div4.log" 2>&1
stamp "div4 rc $?"
sed -n '/^op /,$p' "$R/div4.txt" 2>/dev/null || tail -20 "$R/div4.log"

if command -v ncu >/dev/null 2>&1 && [ "${NCU:-1}" = 1 ]; then
    timeout 30 ncu --clock-control none -k regex:divmod_stage_kernel \
        --section SpeedOfLight --section WarpStateStats --section InstructionStats \
        --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
        --section SchedulerStats \
        "$BENCH" --only prof --out "$R/prof-bench.txt" >"$R/ncu.txt" 2>&1
    stamp "ncu rc $?"
    grep -E "divmod_stage_kernel|Duration|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Executed Instructions  |stalled waiting to be selected to fetch|represents about" \
        "$R/ncu.txt" | head -60
    # stall reasons per issued instruction of every staged divmod launch (separate: an unknown
    # metric name must not cost the sections above)
    timeout 20 ncu --clock-control none -k regex:divmod_stage_kernel \
        --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
        "$BENCH" --only prof --out "$R/prof-bench2.txt" >"$R/ncu-stalls.txt" 2>&1
    stamp "ncu stalls rc $?"
    grep -E "divmod_stage_kernel|no_instruction|wait_per|math_pipe|short_score|long_score|not_selected|barrier|dispatch|branch" \
        "$R/ncu-stalls.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | head -70
else
    stamp "no ncu (or NCU=0)"
fi

# SASS opcode mix of the staged divmod kernels at 32 words (counts only; static, so the rare
# add-back and fallback paths count too)
if command -v cuobjdump >/dev/null 2>&1; then
    o="$B/CMakeFiles/bulk_obj.dir/src/int/cuda/int_cuda_num.cu.o"
    cuobjdump -sass "$o" 2>/dev/null | awk '
        /Function :/ { fn = $3; keep = (fn ~ /divmod_stage_kernelILi32E/) }
        keep && /^ +\/\*[0-9a-f]+\*\// {
            op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); c[fn " " op]++; n[fn]++ }
        END { for (k in c) print k, c[k]; for (f in n) print f, "TOTAL", n[f] }' |
        sort -k1,1 -k3,3nr >"$R/sass-div.txt"
    stamp "sass mix written"
else
    stamp "no cuobjdump"
fi
stamp "done"
exit $status
