#!/bin/sh
# One GPU round of the Collatz CUDA backend's verify work (/work/notes/gpu-rounds.md): run from
# the repository root by the lead as `B=build-gpu R=<results dir> timeout <cap> sh
# bench/collatz_gpu/iter-gpu.sh` after a full CUDA build into $B. Everything it keeps goes to $R
# (small text files). Steps, most important first (the cap, 60-80 s, may cut the last ones):
#   1. the GPU test, verify cases (BULK_CZ_GPU_TEST=verify; CUDA == CPU bit for bit, every variant; the twin test is
#      CPU-only and runs on the build machine);
#   2. the CLI verify 2^68..2^68+2^44 with the defaults (--json), then with the generated sieve on
#      the GPU (--k 39 --k-stored 28);
#   3. bench_collatz_gpu --layouts --k37 --short: verify at k = 37, d = 12, near 2^68: FLAT (the
#      reference), FLAT_BATCH 16 + records + incremental setup (the default until round 1 of the
#      third session), the build's default path (AUTO: UNIFORM, two trips per pass), and the
#      extension rows (stored 32 or 28 bits generated to K = 37, and to K = 39); every result
#      checked identical to FLAT's (K = 39: the totals);
#   (NCU=1: 4. ncu on one launch of the default verify kernel (k_uni, k = 32, d = 12);
#    5. the SASS of k_uni (d = 12) and of the former default kernel (gzip).)
# VERIFY_ONLY=0 adds the delay benchmark (another engineer's area since session 3).
set -u
B=${B:-build-gpu}
R=${R:-iter-out}
mkdir -p "$R"
BENCH="$B/bench/collatz_gpu/bench_collatz_gpu"
CLI="$B/bulk"
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
{ nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1; nvcc --version 2>&1 | tail -1; git log --oneline -1 2>/dev/null; } >"$R/env.txt"

# 1. the GPU test
(cd "$B" && BULK_CZ_GPU_TEST=verify ctest -R '^test_collatz_gpu$' --output-on-failure -V) >"$R/tests.log" 2>&1
echo "tests rc=$? ($(el) s): $(grep -c ' same' "$R/tests.log") same, $(grep -c DIFFERENT "$R/tests.log") different"
grep -E "tests passed|tests failed|Passed|Failed|FAIL" "$R/tests.log" | tail -6

# 2. the CLI
cli_verify() {
    s0=$(date +%s.%N)
    tag=$1
    shift
    "$CLI" collatz verify --from 2^68 --to 2^68+2^44 --backend cuda --json "$@" >"$R/cli-verify$tag.json" 2>"$R/cli-verify$tag.err"
    rc=$?
    s1=$(date +%s.%N)
    echo "cli verify$tag $* rc=$rc: $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f s wall, %.4g numbers/s", b - a, 2^44 / (b - a) }') ($(el) s)"
    cat "$R/cli-verify$tag.json"
}
# the defaults (since round 2 of the third session: UNIFORM, two trips per pass), then the
# generated sieve on the GPU: K = 39 from 28 stored bits (extension rows through S sorted by j)
cli_verify ""
cli_verify "-k39s28" --k 39 --k-stored 28

# 3. verify layouts at k = 37
timeout 30 "$BENCH" --layouts --k37 --short --seconds 0.3 --out "$R/layouts37.txt" >/dev/null 2>"$R/layouts37.err"
echo "layouts k=37 rc=$? ($(el) s)"
cat "$R/layouts37.txt"

# 4. (NCU=1) ncu on one launch of the default kernel (k = 32, d = 12)
if command -v ncu >/dev/null 2>&1 && [ "${NCU:-0}" = 1 ]; then
    timeout 30 ncu --clock-control none --section WarpStateStats --section Occupancy \
        --section SchedulerStats --section LaunchStats --section InstructionStats --section SpeedOfLight \
        --section MemoryWorkloadAnalysis -k regex:k_uni --launch-skip 2 -c 1 \
        "$BENCH" --ncu-verify >"$R/ncu-uni.txt" 2>&1
    echo "ncu uniform rc=$? ($(el) s)"
    grep -E "k_uni|Duration|Issued Warp|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Avg. Active Threads|Achieved Occupancy|Registers Per|Executed Instructions  |ncu-verify|Theoretical Occ|L1/TEX Hit|L2 Hit|Mem Busy" "$R/ncu-uni.txt" | grep -v "^==" | head -24
fi

# 5. (NCU=1) SASS of the uniform kernel and the former default FLAT_BATCH kernel
if command -v cuobjdump >/dev/null 2>&1 && [ "${NCU:-0}" = 1 ]; then
    o="$B/CMakeFiles/bulk_obj.dir/src/collatz/cuda"
    cuobjdump -sass "$o/cg_verify.cu.o" 2>/dev/null |
        awk '/Function :/ { keep = ($0 ~ /k_uniILi12ELb[01]ELi[03]E/ || $0 ~ /k_flatILb0ELb1ELb1ELb1E/) } keep' | gzip >"$R/sass.txt.gz"
    echo "sass: $(zcat "$R/sass.txt.gz" | grep -c 'Function :') functions, $(wc -c <"$R/sass.txt.gz") bytes"
fi

if [ "${VERIFY_ONLY:-1}" = 0 ]; then
    timeout 60 "$BENCH" --delays --seconds 0.25 --out "$R/delays.txt" >/dev/null 2>"$R/delays.err"
    echo "delays bench rc=$? ($(el) s)"
    cat "$R/delays.txt"
fi

# keep the error logs small (progress lines)
for f in "$R"/*.err; do
    [ -f "$f" ] && [ "$(wc -c <"$f")" -gt 20000 ] && { tail -c 20000 "$f" >"$f.tail" && mv "$f.tail" "$f"; }
done
echo "total $(el) s"
