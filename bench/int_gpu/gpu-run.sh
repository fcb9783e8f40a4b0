#!/bin/sh
# The GPU run of the CUDA integer backend, for the GPU machine (one H100/H200), from the
# repository root:
#
#   sh bench/int_gpu/gpu-run.sh            # or: OUT=/some/dir sh bench/int_gpu/gpu-run.sh
#
# 1. configures and builds a Release tree (build-gpu-int, CUDA arch 90) on all cores;
# 2. ctest -L gpu -R int_gpu --output-on-failure (GPU_TESTS=all runs every gpu-labelled test);
#    then test_int_gpu_core (the kernels' logic on the CPU) for completeness;
# 3. bench_int_gpu: device-resident and end-to-end rates next to GMP on all cores, with the
#    fractions of the measured IMAD and bandwidth ceilings (--quick when QUICK=1);
# 4. prints a short summary table last.
# Everything it prints also goes to $OUT (build.log, ctest.log, bench.txt, summary.txt,
# device.txt) when OUT is set, and the benchmark table to bench/results/. Takes about 5 minutes
# (build ~2, tests ~1, benchmark ~2); it never changes the GPU's settings.
set -u
B=${BUILD_DIR:-build-gpu-int}
L=${OUT:-/tmp/gpu-run-int.$$}
mkdir -p "$L" bench/results
JOBS=$(nproc 2>/dev/null || echo 8)
status_build=FAIL status_test=FAIL status_core=FAIL status_bench=FAIL
t0=$(date +%s)

{
    date -u
    nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
        --format=csv 2>&1 || echo "nvidia-smi not available"
    nvcc --version 2>&1 | tail -2
} >"$L/device.txt" 2>&1
cat "$L/device.txt"

echo "== build ($B)"
if cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        >"$L/build.log" 2>&1 &&
    cmake --build "$B" -j "$JOBS" --target test_int_gpu test_int_gpu_core bench_int_gpu \
        >>"$L/build.log" 2>&1; then
    status_build=ok
    if [ "${GPU_TESTS:-}" = all ]; then
        cmake --build "$B" -j "$JOBS" >>"$L/build.log" 2>&1 || echo "(full build failed: see build.log)"
    fi
else
    tail -40 "$L/build.log"
fi
echo "build: $status_build ($(( $(date +%s) - t0 )) s)"

if [ $status_build = ok ]; then
    echo "== tests"
    R='-R int_gpu'
    [ "${GPU_TESTS:-}" = all ] && R=''
    if (cd "$B" && ctest -L gpu $R -V --output-on-failure --timeout 600) >"$L/ctest.log" 2>&1; then
        status_test=ok
    fi
    grep -E "SKIP|Passed|Failed|FAIL|tests passed|seed" "$L/ctest.log" | head -40
    if "$B/tests/int_gpu/test_int_gpu_core" >>"$L/ctest.log" 2>&1; then status_core=ok; fi
    echo "tests: gpu $status_test, core $status_core ($(( $(date +%s) - t0 )) s)"

    echo "== benchmark"
    Q=''
    [ "${QUICK:-0}" = 1 ] && Q=--quick
    if "$B/bench/int_gpu/bench_int_gpu" $Q --out "$L/bench.txt" >"$L/bench.log" 2>&1; then
        status_bench=ok
        cp "$L/bench.txt" "bench/results/int_gpu-$(hostname)-$(date -u +%Y%m%d).txt" 2>/dev/null
    fi
    cat "$L/bench.log"
fi

{
    echo "== summary (bench/int_gpu/gpu-run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - t0 )) s)"
    printf '%-28s %s\n' "build" "$status_build" "ctest -L gpu (int_gpu)" "$status_test" \
        "test_int_gpu_core" "$status_core" "bench_int_gpu" "$status_bench"
    sed -n '2p' "$L/device.txt"
    if [ -f "$L/bench.txt" ]; then
        grep -E '^(op|mul|sqr|mul_lo|add|divmod|divcols|divrecip|divregs|gcd|powmod) ' "$L/bench.txt" |
            awk '{ printf "%-7s %6s  dev %-10s e2e %-10s GMP %-10s x%-7s IMAD %-7s BW %s\n", $1, $2, $4, $5, $6, $7, $8, $9 }'
        grep '^# divmod 2048/1024 check' "$L/bench.txt"
        sed -n '/^# kernel choice/,$p' "$L/bench.txt"
    fi
    echo "targets (H100, dev): mul 1024 >= 4e9/s, mul 4096 >= 2.5e8/s, divmod 2048/1024 >= 1e9/s,"
    echo "                     gcd 1024 >= 5e7/s, powmod 1024 >= 5e5/s, mul 65536 >= 20x GMP"
    echo "logs: $L"
} | tee "$L/summary.txt"
[ $status_build = ok ] && [ $status_test = ok ] && [ $status_core = ok ]
