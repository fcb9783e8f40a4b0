#!/bin/sh
# For the lead engineer, on the GPU machine, from the repository root:
#     sh bench/bpbc/gpu-run.sh [BUILD_DIR]
# 1. configures and builds with the CUDA backend (BULK_CUDA=ON, default build dir build-gpu);
# 2. runs the GPU tests (ctest -L gpu; the bpbc ones compare CUDA with the CPU for circuits and
#    CKY) and keeps their log in tests/gpu/last-run-bpbc.txt;
# 3. runs the bpbc benchmarks on the GPU (seed 001 Tables 5.1, 7.1, 7.2) into
#    bench/results/<date>-<machine>-bpbc-gpu.txt;
# 4. prints a short table: test outcome and the headline numbers (target: <= 0.25 us per string
#    for 64 non-terminals, 8192 rules, length 32; seed 001 on a GTX TITAN X: 3.68 us).
set -u
B=${1:-build-gpu}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON >/dev/null || exit 1
cmake --build "$B" -j "$(nproc)" || exit 1
mkdir -p tests/gpu bench/results
(cd "$B" && ctest -L gpu --output-on-failure) >tests/gpu/last-run-bpbc.txt 2>&1
trc=$?
tail -5 tests/gpu/last-run-bpbc.txt
res="bench/results/$(date -u +%Y-%m-%d)-$(hostname -s 2>/dev/null || uname -n)-bpbc-gpu.txt"
"$B/bench/bpbc/bench_bpbc" --gpu --out "$res"
brc=$?
echo
echo "==== bpbc on the GPU: summary ===="
printf '%-44s %s\n' "ctest -L gpu" "$([ $trc -eq 0 ] && echo passed || echo "FAILED (see tests/gpu/last-run-bpbc.txt)")"
printf '%-44s %s\n' "benchmark" "$([ $brc -eq 0 ] && echo "ok: $res" || echo FAILED)"
if [ $brc -eq 0 ]; then
    awk '/Table 5.1/ { t = 51 } /Table 7.2/ { t = 72 } /Table 7.1/ { t = 71 }
         t == 51 && ($1 == 1 || $1 == 16 || $1 == 32) && $1 ~ /^[0-9]+$/ {
             printf "%-44s naive %s ms, bitwise %s ms\n", "pairwise sums, k = " $1, $2, $3 }
         t == 72 && $1 == 64 && $2 == 8192 { printf "%-44s %s us/string wall, %s kernel, %s without early exit (target <= 0.25)\n", "CKY 64 nt, 8192 rules, length 32", $5, $7, $12 }
         t == 72 && $1 == 512 && $2 == 131072 { printf "%-44s %s us/string wall, %s kernel\n", "CKY 512 nt, 131072 rules", $5, $7 }
         t == 71 && $1 == 2097152 { printf "%-44s %s us/string (32 nt), %s (64 nt)\n", "CKY M = 2^21, 8192 rules", $3, $5 }' "$res"
fi
[ $trc -eq 0 ] && [ $brc -eq 0 ]
