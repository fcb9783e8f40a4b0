#!/bin/sh
# The GPU run of bulk gcd (issue 6) for the GPU machine, from the repository root:
#
#   sh bench/gcd/gpu-run.sh            # or: OUT=/some/dir sh bench/gcd/gpu-run.sh
#
# 1. builds a Release tree with CUDA (build-gpu-gcd, arch 90) on all cores;
# 2. ctest -R 'gcd|fft' (test_gcd_gpu compares the CUDA context with the CPU one; the others
#    are the CPU tests, run there too);
# 3. bench_gcd --backend cuda on 10,000 and 1,000,000 random 1024-bit moduli: all-pairs pairs/s
#    (the GPU path: tiles of 1024^2 pairs through bulk_int_gcd on the device; seed 001 reports
#    0.482 us per 1024-bit GCD on a GTX TITAN X) and batch GCD (trees on the CPU cores, the
#    final divmod and gcd on the device); then the same on --backend cpu for the ratio.
# Logs go to $OUT (build.log, ctest.log, bench.txt) and the table to
# bench/results/DATE-gpu-gcd.txt. Never changes the GPU's settings.
set -u
B=${BUILD_DIR:-build-gpu-gcd}
L=${OUT:-/tmp/gpu-run-gcd.$$}
mkdir -p "$L" bench/results
JOBS=$(nproc 2>/dev/null || echo 8)
nvidia-smi --query-gpu=name,memory.total --format=csv >"$L/device.txt" 2>&1
cat "$L/device.txt"
echo "== build ($B)"
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    >"$L/build.log" 2>&1 &&
    cmake --build "$B" -j "$JOBS" --target test_gcd test_gcd_gpu test_mul_fft bench_gcd bulk \
        gcd_oracle >>"$L/build.log" 2>&1 || { echo "build failed: $L/build.log"; tail -20 "$L/build.log"; exit 1; }
echo "== tests"
(cd "$B" && ctest -R 'gcd|fft' --output-on-failure) >"$L/ctest.log" 2>&1
tail -5 "$L/ctest.log"
echo "== benchmark"
{
    echo "# bench/gcd/gpu-run.sh, $(head -2 "$L/device.txt" | tail -1), $(nproc) cores, $(date -u)"
    "$B/bench/gcd/bench_gcd" --backend cuda --n 10000 --pairs-seconds 10
    "$B/bench/gcd/bench_gcd" --backend cpu --n 10000 --pairs-seconds 10 --no-gmp --no-batch
    timeout 1200 "$B/bench/gcd/bench_gcd" --backend cuda --n 1000000 --pairs-seconds 20 --no-gmp ||
        echo "1e6 run stopped by the 1200 s cap"
} 2>&1 | tee "$L/bench.txt"
cp "$L/bench.txt" "bench/results/$(date -u +%Y-%m-%d)-gpu-gcd.txt"
echo "logs in $L"
