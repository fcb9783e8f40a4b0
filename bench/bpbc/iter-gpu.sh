#!/bin/sh
# One GPU round of the CKY part of the bpbc area (issue 8), run by bench/gpu-round.sh from the
# repository root with B (the CUDA build dir, already built) and R (results dir) set, under a
# time cap (150 s in round 1, 180 s in round 2; CAP overrides). Writes into $R:
#   ctest.log   ctest -R bpbc (the CPU tests and test_bpbc_gpu: every CUDA CKY kernel == CPU)
#   bench.txt   bench_bpbc --gpu --skip-circuit: seed 001 Table 7.2 on the GPU (default kernel,
#               no-early-exit kernel, first kernel on 64/8192, CPU all threads, LOP3/LDS limits)
#               and Table 7.1; the whole grid, the kernels without early exit on rows of at most
#               FULL_MAX (default 16384) rules; QUICK=1 keeps to <= 128 non-terminals, 8192 rules
#   ncu.txt     a short Nsight Compute profile of the block kernels on 64 nt / 8192 rules at
#               the seed's M (full occupancy): the default, the other early-exit kernels and
#               the three without early exit
#   sass.txt    with SASS=1: the block kernels' SASS (cuobjdump, about 2 MB)
set -u
: "${B:?B (build dir) not set}" "${R:?R (results dir) not set}"
CAP=${CAP:-150}
QUICK=${QUICK:-0}
t0=$(date +%s)
left() { echo $((CAP - 8 - ($(date +%s) - t0))); }
mkdir -p "$R"
cmake --build "$B" --target test_bpbc_cky test_bpbc_gpu test_bpbc_circuit bench_bpbc bulk >"$R/build.log" 2>&1 ||
    { echo "build of the bpbc targets failed"; tail -20 "$R/build.log"; }
echo "== ctest -R bpbc ($(date -u +%H:%M:%S))"
(cd "$B" && BULK_PROGRESS=0 ctest -R bpbc -j4 --output-on-failure) >"$R/ctest.log" 2>&1
tail -8 "$R/ctest.log"
BB=$B/bench/bpbc/bench_bpbc
if [ "${SASS:-0}" = 1 ] && command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump -sass "$B/CMakeFiles/bulk_obj.dir/src/bpbc/cky/cuda/cky_block.cu.o" >"$R/sass.txt" 2>&1 || true
fi
q=""
[ "$QUICK" = 1 ] && q="--quick"
{
    echo "# bench/bpbc/iter-gpu.sh: $(nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(date -u)"
    echo "# after ctest: $(($(date +%s) - t0)) s of the ${CAP} s cap used"
    s=$(left)
    timeout "$s" "$BB" --gpu --skip-circuit $q --gpu-full-max "${FULL_MAX:-16384}" ${BENCH_ARGS:-} --out "$R/table.txt" ||
        echo "# bench_bpbc stopped (exit $?, ${s} s allowed)"
} >"$R/bench.txt" 2>&1
cat "$R/bench.txt"
s=$(left)
if [ "$s" -gt 20 ] && command -v ncu >/dev/null 2>&1; then
    # block-kernel launches of the one row: warm-up (1 block), then default, kblk, kbyb, full,
    # fullb, full2 (bench_bpbc.c's order)
    timeout "$s" ncu --clock-control none -k regex:cky_block_kernel --launch-skip 1 --launch-count 6 \
        --section SpeedOfLight --section WarpStateStats --section Occupancy \
        "$BB" --gpu --skip-circuit --gpu-row 64:8192 >"$R/ncu.txt" 2>&1 ||
        echo "# ncu stopped (exit $?, ${s} s allowed)" >>"$R/ncu.txt"
    grep -E "cky_block_kernel|Duration|Throughput|Shared|Issue|Occupancy|Registers|Warp Cycles|Stall|Active" "$R/ncu.txt" | head -60
fi
echo "== done after $(($(date +%s) - t0)) s"
