#!/bin/sh
# On the GPU machine (H100/H200): build with CUDA (CMAKE_CUDA_ARCHITECTURES=90 is the project's
# default), run the GPU tests (ctest -L gpu) and the Life GPU benchmark, compare the CLI on both
# backends, and print a short table. Logs go to bench/results/ (commit them).
#   sh bench/life/gpu-run.sh [BUILD_DIR]        (default build-gpu)
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build-gpu}
MACHINE=${BULK_BENCH_MACHINE:-$(hostname)}
DATE=$(date -u +%Y-%m-%d)
LOG=bench/results/$DATE-$MACHINE-life-gpu-tests.txt
mkdir -p bench/results
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null | sed 's/^/# GPU: /'

cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON >/dev/null || { echo "configure failed"; exit 1; }
# everything if it builds; else at least the Life targets
cmake --build "$B" -j"$(nproc)" >/dev/null 2>&1 ||
    cmake --build "$B" -j"$(nproc)" --target bulk bench_life test_life_gpu test_life_rules test_life_random \
        test_life_facts test_life_rle test_life_ooc || { echo "build failed"; exit 1; }

echo "== ctest -L gpu"
(cd "$B" && ctest -L gpu --output-on-failure) > "$LOG" 2>&1
gpu_rc=$?
echo "== ctest -R life (CPU and GPU)"
(cd "$B" && ctest -R life --output-on-failure) >> "$LOG" 2>&1
life_rc=$?
tail -n 15 "$LOG"

echo "== CLI: cuda against cpu"
cli_ok=yes
for f in tests/data/life/*.rle; do
    "$B/bulk" life run --in "$f" --steps 500 --backend cpu --out /tmp/life-cpu.rle || cli_ok=no
    "$B/bulk" life run --in "$f" --steps 500 --backend cuda --out /tmp/life-gpu.rle || cli_ok=no
    cmp -s /tmp/life-cpu.rle /tmp/life-gpu.rle || { echo "differs: $f"; cli_ok=no; }
    "$B/bulk" life run --in "$f" --steps 300 --torus 640x512 --backend cpu --out /tmp/life-cpu.rle || cli_ok=no
    "$B/bulk" life run --in "$f" --steps 300 --torus 640x512 --backend cuda --out /tmp/life-gpu.rle || cli_ok=no
    cmp -s /tmp/life-cpu.rle /tmp/life-gpu.rle || { echo "differs on the torus: $f"; cli_ok=no; }
done

echo "== bench_life --gpu-only"
"$B/bench/life/bench_life" --gpu-only --machine "$MACHINE" | tee /tmp/life-bench.txt

echo
echo "==================== summary ===================="
printf '%-34s %s\n' "ctest -L gpu" "$([ $gpu_rc -eq 0 ] && echo passed || echo FAILED) (log: $LOG)"
printf '%-34s %s\n' "ctest -R life" "$([ $life_rc -eq 0 ] && echo passed || echo FAILED)"
printf '%-34s %s\n' "CLI cuda == cpu (8 patterns x 2)" "$cli_ok"
best=$(grep '^gpu  *16384' /tmp/life-bench.txt | grep B3/S23 | sort -g -k7 | tail -1)
printf '%-34s %s\n' "best 16K^2 x 1K (updates/s)" "$(echo "$best" | awk '{print $7 " at " $4 " generations/pass (0 = default), " $9 " of the integer limit"}')"
printf '%-34s %s\n' "target" "1.5e13 updates/s"
grep '^ooc' /tmp/life-bench.txt | sed 's/^/out of core: /'
[ $gpu_rc -eq 0 ] && [ $life_rc -eq 0 ] && [ $cli_ok = yes ]
