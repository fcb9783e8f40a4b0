#!/bin/sh
# One GPU round of the Collatz CUDA backend (/work/notes/gpu-rounds.md): run from the repository
# root by the lead as `B=build-gpu R=<results dir> timeout <cap> sh bench/collatz_gpu/iter-gpu.sh`
# after a full CUDA build into $B. Everything it keeps goes to $R (small text files). Steps, most
# important first (the cap, 150-180 s, may cut the last ones):
#   1. ctest -R collatz_gpu (the twin test and the GPU test: CUDA == CPU bit for bit);
#   2. bench_collatz_gpu --delays: the delay loops v3 / v4 / v4x2 side by side at several d, a
#      (call rate and kernel rate, results checked identical to v3's);
#   3. ncu on one full-size launch (2^27 numbers, d=12 a=24) of each delay loop: stall reasons,
#      occupancy, scheduler, launch (bench_collatz_gpu --ncu);
#   3a. bench_collatz_gpu --layouts --kmax 32: verify FLAT / FLAT_BATCH with T-step and record
#      replays, incremental setup, side by side at k = 32 (results checked identical to FLAT's);
#   3b. the SASS of the compared kernels (gzip);
#   4. the CLI: delays 2^64..2^64+2^34 --stats 2^20 (default loop, then v3), and verify
#      2^68..2^68+2^44 --json;
#   (2c. before the ncu: bench_collatz_gpu --layouts --k37, the same rows at k = 37;
#    LAYOUTS=1 runs the whole --layouts table first.)
set -u
B=${B:-build-gpu}
R=${R:-iter-out}
mkdir -p "$R"
BENCH="$B/bench/collatz_gpu/bench_collatz_gpu"
CLI="$B/bulk"
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
{ nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1; nvcc --version 2>&1 | tail -1; git log --oneline -1 2>/dev/null; } >"$R/env.txt"

# 1. tests
(cd "$B" && ctest -R collatz_gpu --output-on-failure -V) >"$R/tests.log" 2>&1
echo "tests rc=$? ($(el) s): $(grep -c ' same ' "$R/tests.log") same, $(grep -c DIFFERENT "$R/tests.log") different"
grep -E "tests passed|tests failed|Passed|Failed" "$R/tests.log" | tail -4

if [ "${LAYOUTS:-}" = 1 ]; then
    timeout 90 "$BENCH" --layouts --seconds 0.3 --out "$R/layouts.txt" >/dev/null 2>"$R/layouts.err"
    echo "layouts rc=$? ($(el) s)"
    cat "$R/layouts.txt"
fi

# 2. delay loops side by side
timeout 60 "$BENCH" --delays --seconds 0.25 --out "$R/delays.txt" >/dev/null 2>"$R/delays.err"
echo "delays bench rc=$? ($(el) s)"
cat "$R/delays.txt"

# 2c. verify layouts and replays at k = 37 (the sieve of the target rate)
timeout 60 "$BENCH" --layouts --k37 --seconds 0.3 --out "$R/layouts37.txt" >/dev/null 2>"$R/layouts37.err"
echo "layouts k=37 rc=$? ($(el) s)"
cat "$R/layouts37.txt"

# 3. ncu on a full-size launch of each delay loop
if command -v ncu >/dev/null 2>&1 && [ "${NCU:-1}" = 1 ]; then
    timeout 60 ncu --clock-control none --section WarpStateStats --section Occupancy --section SchedulerStats \
        --section LaunchStats --section SpeedOfLight --section InstructionStats -k regex:delays -c 3 \
        "$BENCH" --ncu >"$R/ncu-delays.txt" 2>&1
    echo "ncu rc=$? ($(el) s)"
    grep -E "k_delays|Duration|Issued Warp|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Avg. Active Threads|Achieved Occupancy|Registers Per|Executed Instructions  |ncu point|Theoretical Occ" "$R/ncu-delays.txt" | grep -v "^==" | head -60
fi

# 3'. ncu on one launch of the default verify kernel (k = 32, d = 12)
if command -v ncu >/dev/null 2>&1 && [ "${NCU:-1}" = 1 ]; then
    timeout 40 ncu --clock-control none --section WarpStateStats --section Occupancy --section SchedulerStats \
        --section LaunchStats --section InstructionStats -k regex:k_flat --launch-skip 2 -c 1 \
        "$BENCH" --ncu-verify >"$R/ncu-verify.txt" 2>&1
    echo "ncu verify rc=$? ($(el) s)"
    grep -E "k_flat|Duration|Issued Warp|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Avg. Active Threads|Achieved Occupancy|Registers Per|Executed Instructions  |ncu-verify|Theoretical Occ" "$R/ncu-verify.txt" | grep -v "^==" | head -20
fi

# 3a. verify layouts and replays at k = 32 (T-step vs record replays)
timeout 40 "$BENCH" --layouts --kmax 32 --seconds 0.3 --out "$R/layouts32.txt" >/dev/null 2>"$R/layouts32.err"
echo "layouts k=32 rc=$? ($(el) s)"
cat "$R/layouts32.txt"

# 3b. SASS of the kernels compared (v4 delays BATCH_WARP shared/global, FLAT_BATCH T / records)
if command -v cuobjdump >/dev/null 2>&1; then
    o="$B/CMakeFiles/bulk_obj.dir/src/collatz/cuda"
    { cuobjdump -sass "$o/cg_delays.cu.o"; cuobjdump -sass "$o/cg_verify.cu.o"; } 2>/dev/null |
        awk '/Function :/ { keep = ($0 ~ /k_delays4ILb[01]ELi3ELi1ELi8E/ || $0 ~ /k_delaysILi1ELb[01]ELi1E/ || $0 ~ /k_flatILb[01]ELb1ELb[01]ELb0E/) } keep' |
        gzip >"$R/sass.txt.gz"
    echo "sass: $(zcat "$R/sass.txt.gz" | grep -c 'Function :') functions, $(wc -c <"$R/sass.txt.gz") bytes"
fi

# 4. the CLI
s0=$(date +%s.%N)
"$CLI" collatz delays --from 2^64 --to 2^64+2^34 --stats 1048576 --backend cuda >"$R/cli-delays.out" 2>"$R/cli-delays.err"
rc=$?
s1=$(date +%s.%N)
echo "cli delays (default loop) rc=$rc: $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f s, %.4g numbers/s", b - a, 2^34 / (b - a) }') ($(wc -l <"$R/cli-delays.out") lines)"
BULK_CZ_CUDA_DELAY=v3 "$CLI" collatz delays --from 2^64 --to 2^64+2^34 --stats 1048576 --backend cuda >"$R/cli-delays-v3.out" 2>>"$R/cli-delays.err"
rc=$?
s2=$(date +%s.%N)
echo "cli delays (v3 loop) rc=$rc: $(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.3f s, %.4g numbers/s", b - a, 2^34 / (b - a) }'); same output as default: $(cmp -s "$R/cli-delays.out" "$R/cli-delays-v3.out" && echo yes || echo NO)"
head -3 "$R/cli-delays.out"
gzip -f "$R/cli-delays.out"
rm -f "$R/cli-delays-v3.out"
"$CLI" collatz verify --from 2^68 --to 2^68+2^44 --backend cuda --json >"$R/cli-verify.json" 2>"$R/cli-verify.err"
echo "cli verify rc=$? ($(el) s)"
cat "$R/cli-verify.json"

# keep the error logs small (progress lines)
for f in "$R"/*.err; do
    [ -f "$f" ] && [ "$(wc -c <"$f")" -gt 20000 ] && { tail -c 20000 "$f" >"$f.tail" && mv "$f.tail" "$f"; }
done
echo "total $(el) s"
