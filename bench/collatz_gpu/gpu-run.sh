#!/bin/sh
# The CUDA Collatz backend on the GPU machine. From the repository root:
#     sh bench/collatz_gpu/gpu-run.sh [BUILD_DIR]        (default build-gpu)
# 1. configures with CUDA (BULK_CUDA=ON; CMAKE_CUDA_ARCHITECTURES defaults to 90) and builds
#    everything it can (make -k: another area's broken target does not stop this one);
# 2. runs the GPU tests: ctest -L gpu --output-on-failure (the collatz one compares the CUDA
#    backend with the CPU backend bit for bit on ranges near 2^64, 2^68, 2^128 and from 1);
# 3. runs bench_collatz_gpu (rate vs d, shared/global tables, vs k up to 37, kernel variants,
#    overflow share, CPU speed-up on all cores, delays vs d and a) with a time limit, writing
#    the table and a PNG as it goes;
# 4. before the benchmark: bench_collatz_gpu --layouts (FLAT vs FLAT_BATCH side by side, < 90 s,
#    results checked identical; LAYOUTS=0 skips it);
# 5. prints a short summary table.
# Logs: bench/results/<date>-<host>-collatz-gpu.{txt,png}, tests/gpu/last-run-collatz.txt, and
# copies of everything under "$OUT/collatz-gpu/" when OUT is set. Meant to finish in ~8 min:
# BENCH_LIMIT (seconds, default 330) caps the benchmark, BENCH_ARGS replaces its arguments
# (default "--kmax 38": the sieve beyond the seed's 37, 32 GB on the host and the GPU; the k sweep
# runs last, so the limit can only cut its largest points; "--quick" for a short run).
set -u
B=${1:-build-gpu}
LIMIT=${BENCH_LIMIT:-330}
ARGS=${BENCH_ARGS:---kmax 38}
stamp="$(date -u +%Y-%m-%d)-$(hostname -s 2>/dev/null || uname -n)"
mkdir -p tests/gpu bench/results
res="bench/results/$stamp-collatz-gpu.txt"
png="bench/results/$stamp-collatz-gpu.png"
tlog="tests/gpu/last-run-collatz.txt"
blog="bench/results/$stamp-collatz-gpu-build.log"
t0=$(date +%s)

{ nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv 2>&1 || true; nvcc --version 2>&1 | tail -1; } >"$blog"
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBULK_CUDA=ON >>"$blog" 2>&1
crc=$?
cmake --build "$B" -j "$(nproc)" -- -k >>"$blog" 2>&1
brc=$?
t1=$(date +%s)

# -V keeps every test's own lines in the log (the collatz test prints one line per variant)
(cd "$B" && ctest -L gpu --output-on-failure -V) >"$tlog" 2>&1
trc=$?
grep -q 'test_collatz_gpu .*Passed' "$tlog"
drc=$?
t2=$(date +%s)

# verify layouts side by side: FLAT (default) vs FLAT_BATCH (k = 32, 37; d = 12; < 90 s),
# results checked identical (LAYOUTS=0 skips it)
lres="bench/results/$stamp-collatz-gpu-layouts.txt"
lrc=skipped
if [ "${LAYOUTS:-1}" = 1 ] && [ -x "$B/bench/collatz_gpu/bench_collatz_gpu" ]; then
    timeout 150 "$B/bench/collatz_gpu/bench_collatz_gpu" --layouts --out "$lres"
    lrc=$?
fi
t2=$(date +%s)

if [ -x "$B/bench/collatz_gpu/bench_collatz_gpu" ]; then
    # shellcheck disable=SC2086
    timeout "$LIMIT" "$B/bench/collatz_gpu/bench_collatz_gpu" --out "$res" --png "$png" $ARGS
    rrc=$?
else
    echo "bench_collatz_gpu was not built (see $blog)"
    rrc=127
fi
t3=$(date +%s)

if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/collatz-gpu"
    cp "$blog" "$tlog" "$OUT/collatz-gpu/" 2>/dev/null
    cp "$res" "$png" "$lres" "$OUT/collatz-gpu/" 2>/dev/null
fi

echo
echo "==== collatz on the GPU: summary ===="
printf '%-34s %s\n' "configure / build" "$([ $crc -eq 0 ] && echo ok || echo FAILED) / $([ $brc -eq 0 ] && echo ok || echo "errors (see $blog)") ($((t1 - t0)) s)"
printf '%-34s %s\n' "ctest -L gpu (all areas)" "$([ $trc -eq 0 ] && echo passed || echo "FAILED (see $tlog)") ($((t2 - t1)) s)"
printf '%-34s %s\n' "collatz GPU test vs CPU" "$([ $drc -eq 0 ] && echo passed || echo "FAILED or not run (see $tlog)"): $(grep -c ' same ' "$tlog") comparisons same, $(grep -c DIFFERENT "$tlog") different$(grep -q 'SKIP: no CUDA device' "$tlog" && echo ', SKIPPED: no CUDA device')"
printf '%-34s %s\n' "layouts (flat vs batch)" "rc=$lrc: $lres"
[ -f "$lres" ] && grep -E '^3[27] |^# layouts' "$lres" | sed 's/^/  /'
printf '%-34s %s\n' "benchmark" "$([ $rrc -eq 0 ] && echo "ok" || ([ $rrc -eq 124 ] && echo "stopped at ${LIMIT} s (partial table kept)" || echo "FAILED rc=$rrc")) ($((t3 - t2)) s): $res"
if [ -f "$res" ]; then
    awk '/^## verify: rate vs d/ { s = "d" } /^## verify: rate vs k/ { s = "k" } /^## delays \(batch/ { s = "dd" } /^## delays: rate vs a/ { s = "da" }
         /^# best:/ { print "  verify best table setting: " $0 }
         s == "k" && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 8 { printf "  verify k=%-3s  shared %-11s global %-11s numbers/s\n", $1, $4, $5 }
         /speed-up/ { print "  " $0 }
         /escapes, host exact path/ { print "  " $0 }
         /^near 2\^120/ { print "  " $0 }
         /^1 GPU:/ { print "  " $0 }
         s == "da" && $1 ~ /^[0-9]+$/ { printf "  delays a=%-3s %-11s numbers/s (from 2^64)\n", $1, $2 }
         /^# summary/ { last = $0 }
         END { if (last != "") print "  " last }' "$res"
fi
[ $trc -eq 0 ] && [ $drc -eq 0 ] && [ $rrc -eq 0 ]
