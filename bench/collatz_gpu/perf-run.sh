#!/bin/sh
# One device call of the Collatz GPU tuning loop (docs/collatz-gpu.md "Measured"): builds the
# collatz GPU targets, keeps the SASS of the verify and delay kernels, runs the GPU test (CUDA
# vs CPU, bit for bit), the benchmark (BENCH_ARGS, default a short full sweep) and a short ncu
# look at the kernels (scheduler, warp states, occupancy). Everything goes to $OUT (or perf-out/).
#     sh bench/collatz_gpu/perf-run.sh
set -u
O=${OUT:-perf-out}
mkdir -p "$O"
B=build-gpu
ARGS=${BENCH_ARGS:---seconds 0.3 --kmax 37}
LIMIT=${BENCH_LIMIT:-200}
t0=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -1; } >"$O/build.log" 2>&1
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON -DCMAKE_PREFIX_PATH="$PWD/.deps/gmp" >>"$O/build.log" 2>&1
cmake --build $B -j16 --target bench_collatz_gpu test_collatz_gpu test_collatz_gpu_twin >>"$O/build.log" 2>&1 || echo "BUILD FAILED"
t1=$(date +%s)
[ "${SASS:-1}" = 1 ] && for f in cg_verify cg_delays; do
    cuobjdump -sass $B/CMakeFiles/bulk_obj.dir/src/collatz/cuda/$f.cu.o >"$O/sass-$f.txt" 2>&1
done
[ "${SASS:-1}" = 1 ] && gzip -f "$O"/sass-*.txt
(cd $B && ctest -R 'collatz_gpu' --output-on-failure -V) >"$O/test.log" 2>&1 && echo "TESTS PASSED" || echo "TESTS FAILED"
grep -c ' same ' "$O/test.log"; grep -c DIFFERENT "$O/test.log"
t2=$(date +%s)
# shellcheck disable=SC2086
timeout "$LIMIT" $B/bench/collatz_gpu/bench_collatz_gpu --out "$O/bench.txt" --png "$O/bench.png" $ARGS >/dev/null 2>"$O/bench.err"
echo "bench rc=$?"
t3=$(date +%s)
if [ "${NCU:-1}" = 1 ]; then
    # kernels of a quick benchmark run (whole rows): a FLAT verify launch and a delay launch
    for kn in k_flat k_delays; do
        timeout 75 ncu --clock-control none -k "regex:$kn" --launch-skip 20 -c 1 --section SpeedOfLight \
            --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
            --section InstructionStats $B/bench/collatz_gpu/bench_collatz_gpu --quick --seconds 0.05 --kmax 24 \
            >"$O/ncu-$kn.txt" 2>&1
    done
fi
t4=$(date +%s)
echo "build $((t1 - t0)) s, test $((t2 - t1)) s, bench $((t3 - t2)) s, ncu $((t4 - t3)) s"
grep -E "^(8|12|16|20) |best|speed-up|^3[0-9] |layout|ragged|fast/|core/" "$O/bench.txt" | tail -40
