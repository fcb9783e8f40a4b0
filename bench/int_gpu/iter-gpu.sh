#!/bin/sh
# One GPU round of the CUDA integer backend (/work/notes/gpu-rounds.md): run by the lead from the
# repository root on the GPU machine after the whole tree was built with CUDA into $B:
#
#   B=build-gpu R=<results dir> timeout 180 sh bench/int_gpu/iter-gpu.sh
#
# 1. ctest of test_int_gpu (on the device against GMP and the CPU backend) and
#    test_int_gpu_core (not the NTT area's test_int_gpu_ntt*) -> $R/ctest.log;
# 2. bench_int_gpu --only mul1k: the default mul 256, 512, 1024, 1088, sqr 1024, mul_lo 1024
#    rows (device-resident, end-to-end, GMP on all cores) -> $R/mul1k.txt;
# 3. bench_int_gpu --only eotop: the even/odd per-thread multiplication (BULK_CUDA_MUL=teo)
#    against its variants and sum-rotate at 1024 .. 1280 bits, 2^20 instances -> $R/eo.txt
#    (--only eo: from 64 bits; the earlier rounds' full table: `bench_int_gpu --only mul,...`,
#    see gpu-run.sh);
# 4. the SASS opcode mix of the kernels under work (cuobjdump) -> $R/sass-mul.txt.
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
if (cd "$B" && timeout 40 ctest -R '^test_int_gpu(_core)?$' --output-on-failure -V) >"$R/ctest.log" 2>&1; then
    status=0
fi
grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed|gcd .*done|Test time" "$R/ctest.log" | head -60
stamp "tests: $([ $status = 0 ] && echo passed || echo FAILED)"

BENCH="$B/bench/int_gpu/bench_int_gpu"
# session 3 (issue-5 mul 1024): the default rows up to 1088 bits (even/odd rows since the
# 15:55 round) with end-to-end and GMP, then the even/odd kernels against their variants and
# sum-rotate at 1024 .. 1280 bits, 2^20 instances (the last round's cap is 60 s)
timeout 18 "$BENCH" --only mul1k --out "$R/mul1k.txt" >"$R/mul1k.log" 2>&1
stamp "mul1k rc $?"
sed -n '/^op /,$p' "$R/mul1k.txt" 2>/dev/null || tail -20 "$R/mul1k.log"
timeout 15 "$BENCH" --only eotop --out "$R/eo.txt" >"$R/eo.log" 2>&1
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

# (round 1 of session 3 profiled the even/odd kernels with ncu: bench/results/
# 2026-11-21-h200-int-gpu-s3-round1.txt; this round's cap goes to the default-path rows)
stamp "done"
exit $status
