#!/bin/sh
# One GPU round of the CUDA integer backend (/work/notes/gpu-rounds.md): run by the lead from the
# repository root on the GPU machine after the whole tree was built with CUDA into $B:
#
#   B=build-gpu R=<results dir> timeout 180 sh bench/int_gpu/iter-gpu.sh
#
# 1. ctest of test_int_gpu (on the device against GMP and the CPU backend) and
#    test_int_gpu_core (not the NTT area's test_int_gpu_ntt*) -> $R/ctest.log;
# 2. bench_int_gpu --only eo: the even/odd per-thread multiplication (BULK_CUDA_MUL=teo)
#    against the per-thread rows and sum-rotate at 256 .. 1024 bits, 2^20 instances -> $R/eo.txt
#    (the earlier rounds' full table: `bench_int_gpu --only mul,...`, see gpu-run.sh);
# 3. the SASS opcode mix of the kernels under work (cuobjdump) -> $R/sass-mul.txt;
# 4. one Nsight Compute profile of each even/odd kernel (bench --only prof launches each kernel
#    once) -> $R/ncu.txt (skipped when ncu is missing; bounded by a timeout so the cap holds).
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
if (cd "$B" && timeout 60 ctest -R '^test_int_gpu(_core)?$' --output-on-failure -V) >"$R/ctest.log" 2>&1; then
    status=0
fi
grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed|gcd .*done|Test time" "$R/ctest.log" | head -60
stamp "tests: $([ $status = 0 ] && echo passed || echo FAILED)"

BENCH="$B/bench/int_gpu/bench_int_gpu"
# session 3 (issue-5 mul 1024): the even/odd per-thread kernel against the per-thread rows and
# sum-rotate at 256 .. 1024 bits, 2^20 instances
timeout 30 "$BENCH" --only eo --out "$R/eo.txt" >"$R/eo.log" 2>&1
stamp "eo rc $?"
sed -n '/^# even\/odd/,$p' "$R/eo.txt" 2>/dev/null || tail -20 "$R/eo.log"

# SASS opcode mix per kernel of interest (counts only; the listings stay on the machine)
if command -v cuobjdump >/dev/null 2>&1; then
    o="$B/CMakeFiles/bulk_obj.dir/src/int/cuda/int_cuda_mul.cu.o"
    cuobjdump -sass "$o" 2>/dev/null | awk '
        /Function :/ { fn = $3; keep = (fn ~ /mul_eo_kernelILi16ELi128E|mul_eop_kernelILi16E|mul_sr_kernelILi4ELi8ELb0ELb1E/) }
        keep && /^ +\/\*[0-9a-f]+\*\// {
            op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); c[fn " " op]++; n[fn]++ }
        END { for (k in c) print k, c[k]; for (f in n) print f, "TOTAL", n[f] }' |
        sort -k1,1 -k3,3nr >"$R/sass-mul.txt"
    stamp "sass mix written"
else
    stamp "no cuobjdump"
fi

if command -v ncu >/dev/null 2>&1; then
    # the even/odd kernels once each on 2^18 instances of 1024 bits (bench --only prof)
    timeout 20 ncu --clock-control none -k regex:'mul_eop?_kernel' \
        --section SpeedOfLight --section WarpStateStats --section InstructionStats \
        --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
        --section MemoryWorkloadAnalysis \
        "$BENCH" --only prof --out "$R/prof-bench.txt" >"$R/ncu.txt" 2>&1
    stamp "ncu rc $?"
    # the pipes by name (a separate call: a metric name this ncu lacks fails only this one)
    timeout 12 ncu --clock-control none -k regex:'mul_eop?_kernel' --metrics \
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,\
sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,\
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,\
sm__issue_active.avg.pct_of_peak_sustained_active,\
dram__throughput.avg.pct_of_peak_sustained_elapsed \
        "$BENCH" --only prof --out "$R/prof-bench2.txt" >"$R/ncu-pipes.txt" 2>&1
    stamp "ncu pipes rc $?"
else
    stamp "no ncu"
fi
stamp "done"
exit $status
