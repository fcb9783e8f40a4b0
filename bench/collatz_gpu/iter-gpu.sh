#!/bin/sh
# One GPU round of the Collatz CUDA backend's verify work (/work/notes/gpu-rounds.md): run from
# the repository root by the lead as `B=build-gpu R=<results dir> timeout <cap> sh
# bench/collatz_gpu/iter-gpu.sh` after a full CUDA build into $B. Everything it keeps goes to $R
# (small text files). Steps, most important first (the cap, ~100-120 s, may cut the last ones):
#   1. the GPU test, verify cases (BULK_CZ_GPU_TEST=verify; CUDA == CPU bit for bit, every variant
#      and every extension form; the deep generated sieves K = 40, 44 against the stored sieve's
#      totals and s_K; the twin test is CPU-only and runs on the build machine);
#   2. the CLI verify 2^68..2^68+2^44 with the defaults (--json; since session 4 the generated
#      sieve from 28 stored bits on a GPU too, K = 39 for this range; k_uni variant 5) and with
#      variant 3 (BULK_CZ_CUDA_UNI_R1=0); then 2^68..2^68+2^46 with the defaults (K = 40, 64 rows)
#      and --k 37;
#   3. bench_collatz_gpu --kscan --short: verify rate against the sieve depth K near 2^68
#      (d = 12): stored k = 28 and 37, K = 37 / 40 / 43 generated from 28 stored bits, k = 37
#      and K = 40 with variant 3 ("+r0"); totals checked equal, iterated = rows x s_K;
#   (NCU_GEN=1: 4b. ncu on one k_uni launch over a generated K = 40 slice (CLI);
#    NCU=1: 4. ncu on one launch of the default verify kernel (k_uni, k = 32, d = 12);
#    5. the SASS of k_uni (d = 12).)
# Switches: CLI=0 skips step 2, KSCAN=0 step 3; VERIFY_ONLY=0 adds the delay benchmark.
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
grep -E "tests passed|tests failed|Passed|Failed|FAIL|deep sieve|  gen |  sorted |  unsorted " "$R/tests.log" | tail -14

# 2. the CLI
cli_verify() {
    s0=$(date +%s.%N)
    tag=$1
    shift
    to=${TO:-2^68+2^44}
    lg=$([ "$to" = "2^68+2^46" ] && echo 46 || echo 44)
    "$CLI" collatz verify --from 2^68 --to "$to" --backend cuda --json "$@" >"$R/cli-verify$tag.json" 2>"$R/cli-verify$tag.err"
    rc=$?
    s1=$(date +%s.%N)
    echo "cli verify$tag --to $to $* ${EXTF:+$EXTF }rc=$rc: $(awk -v a="$s0" -v b="$s1" -v l="$lg" 'BEGIN { printf "%.3f s wall, %.4g numbers/s", b - a, 2^l / (b - a) }') ($(el) s)"
    cat "$R/cli-verify$tag.json"
}
if [ "${CLI:-1}" != 0 ]; then
    EXTF=
    cli_verify ""
    EXTF="(BULK_CZ_CUDA_UNI_R1=0)"
    export BULK_CZ_CUDA_UNI_R1=0
    cli_verify "-r0"
    unset BULK_CZ_CUDA_UNI_R1
    EXTF=
    # a range of 2^46 (K = 40 by default: 64 rows of 2^40) against K = 37 (512 rows)
    TO="2^68+2^46"
    cli_verify "-46"
    cli_verify "-46-k37" --k 37
    TO=
fi

# 3. rate against the sieve depth
if [ "${KSCAN:-1}" != 0 ]; then
    timeout 40 "$BENCH" --kscan --short --seconds 0.3 --out "$R/kscan.txt" >/dev/null 2>"$R/kscan.err"
    echo "kscan rc=$? ($(el) s)"
    cat "$R/kscan.txt"
fi

# 4. (NCU=1) ncu on one launch of the default kernel (k = 32, d = 12)
if command -v ncu >/dev/null 2>&1 && [ "${NCU:-0}" = 1 ]; then
    timeout 30 ncu --clock-control none --section WarpStateStats --section Occupancy \
        --section SchedulerStats --section LaunchStats --section InstructionStats --section SpeedOfLight \
        --section MemoryWorkloadAnalysis -k regex:k_uni --launch-skip 2 -c 1 \
        "$BENCH" --ncu-verify >"$R/ncu-uni.txt" 2>&1
    echo "ncu uniform rc=$? ($(el) s)"
    grep -E "k_uni|Duration|Issued Warp|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Avg. Active Threads|Achieved Occupancy|Registers Per|Executed Instructions  |ncu-verify|Theoretical Occ|L1/TEX Hit|L2 Hit|Mem Busy" "$R/ncu-uni.txt" | grep -v "^==" | head -24
fi

# 4b. (NCU_GEN=1) ncu on one launch of the stored-sieve kernel over a generated K = 40 slice
# (the CLI's k_uni launches after the k_ext_gen one), beside 4.'s stored k = 32 launch
if command -v ncu >/dev/null 2>&1 && [ "${NCU_GEN:-0}" = 1 ]; then
    timeout 40 ncu --clock-control none --section WarpStateStats --section Occupancy \
        --section SchedulerStats --section LaunchStats --section InstructionStats --section SpeedOfLight \
        -k regex:k_uni --launch-skip 3 -c 1 \
        "$CLI" collatz verify --from 2^68 --to 2^68+2^41 --k 40 --backend cuda --json >"$R/ncu-gen40.txt" 2>&1
    echo "ncu gen K=40 rc=$? ($(el) s)"
    grep -E "k_uni|Duration|Issued Warp|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Avg. Active Threads|Achieved Occupancy|Registers Per|Executed Instructions  |Theoretical Occ|L1/TEX Hit|L2 Hit|Mem Busy|Grid Size" "$R/ncu-gen40.txt" | grep -v "^==" | head -24
fi

# 5. (NCU=1) SASS of the uniform kernel
if command -v cuobjdump >/dev/null 2>&1 && [ "${NCU:-0}" = 1 ]; then
    o="$B/CMakeFiles/bulk_obj.dir/src/collatz/cuda"
    cuobjdump -sass "$o/cg_verify.cu.o" 2>/dev/null |
        awk '/Function :/ { keep = ($0 ~ /k_uniILi12ELb[01]ELi3E/) } keep' | gzip >"$R/sass.txt.gz"
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
