#!/bin/sh
# One GPU round of the CUDA integer backend (/work/notes/gpu-rounds.md): run by the lead from the
# repository root on the GPU machine after the whole tree was built with CUDA into $B:
#
#   B=build-gpu R=<results dir> timeout 180 sh bench/int_gpu/iter-gpu.sh
#
# 1. ctest -R int_gpu (test_int_gpu on the device against GMP and the CPU backend, and
#    test_int_gpu_core) -> $R/ctest.log;
# 2. bench_int_gpu on 2^20 instances, the main table (mul 256 .. 65536 and the forced variants,
#    sqr, mul_lo, add, divmod variants, gcd default and approx, powmod) -> $R/bench.txt, then
#    the sum-rotate shape table and the kernel-choice table on 2^18 instances -> $R/shapes.txt,
#    $R/kernels.txt;
# 3. the SASS opcode mix of the kernels under work (cuobjdump) -> $R/sass-*.txt;
# 4. one Nsight Compute profile of each kernel under work (bench --only prof launches each once;
#    sum-rotate with BULK_CUDA_SR_VEC=1) -> $R/ncu.txt (skipped when ncu is missing; bounded by
#    a timeout so the round's cap holds).
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
if (cd "$B" && timeout 70 ctest -R int_gpu --output-on-failure -V) >"$R/ctest.log" 2>&1; then
    status=0
fi
grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed|gcd .*done|Test time" "$R/ctest.log" | head -60
stamp "tests: $([ $status = 0 ] && echo passed || echo FAILED)"

BENCH="$B/bench/int_gpu/bench_int_gpu"
timeout 60 "$BENCH" --only mul,mulbig,sqr,mullo,add,divmod,gcd,powmod --out "$R/bench.txt" \
    >"$R/bench.log" 2>&1
stamp "bench rc $?"
cat "$R/bench.txt" 2>/dev/null || tail -40 "$R/bench.log"
timeout 30 "$BENCH" --quick --only shapes --out "$R/shapes.txt" >"$R/shapes.log" 2>&1
stamp "shapes rc $?"
sed -n '/^# sum-rotate/,$p' "$R/shapes.txt" 2>/dev/null || tail -20 "$R/shapes.log"
timeout 30 "$BENCH" --quick --only kernels --out "$R/kernels.txt" >"$R/kernels.log" 2>&1
stamp "kernels rc $?"
sed -n '/^# kernel choice/,$p' "$R/kernels.txt" 2>/dev/null || tail -20 "$R/kernels.log"

# SASS opcode mix per kernel of interest (counts only; the listings stay on the machine)
if command -v cuobjdump >/dev/null 2>&1; then
    for f in int_cuda_mul int_cuda_num; do
        o="$B/CMakeFiles/bulk_obj.dir/src/int/cuda/$f.cu.o"
        [ -f "$o" ] || continue
        cuobjdump -sass "$o" 2>/dev/null | awk '
            /Function :/ { fn = $3; keep = (fn ~ /gcd_regs_kernelILi32|mul_sr_kernelILi4ELi8E|mul_sr_kernelILi8ELi4E|mul_sr_kernelILi16ELi2E|mul_thread_kernelILi16ELb0ELb0ELi|divmod_regs_kernelILi32ELb1E|divmod_stage_kernelILi32E/) }
            keep && /^ +\/\*[0-9a-f]+\*\// {
                op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); c[fn " " op]++; n[fn]++ }
            END { for (k in c) print k, c[k]; for (f in n) print f, "TOTAL", n[f] }' |
            sort -k1,1 -k3,3nr >"$R/sass-$f.txt"
    done
    stamp "sass mix written"
else
    stamp "no cuobjdump"
fi

if command -v ncu >/dev/null 2>&1; then
    # every kernel under work once (bench --only prof): per-thread mul (carry-flag rows, 64-bit
    # rows), sum-rotate, divsteps gcd, recip divmod
    BULK_CUDA_SR_VEC=1 timeout 25 ncu --clock-control none \
        -k regex:'mul_sr_kernel|divmod_stage_kernel|gcd_regs_kernel' \
        --section SpeedOfLight --section WarpStateStats --section InstructionStats \
        --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
        "$BENCH" --only prof --out "$R/prof-bench.txt" >"$R/ncu.txt" 2>&1
    stamp "ncu rc $?"
else
    stamp "no ncu"
fi
stamp "done"
exit $status
