#!/bin/sh
# Multi-GPU in one process (issue 4): `bulk collatz verify` and `delays --stats` with 1, 2, 4, ...
# visible GPUs (CUDA_VISIBLE_DEVICES), on the same ranges: every run must give the one-GPU
# totals and checksum; the table shows the rate and the scaling efficiency T(1) / (g T(g)).
# Also runs the GPU tests of the Collatz backend with all GPUs visible (their multi-device paths).
# Usage: sh bench/collatz_gpu/multi-gpu.sh BUILD_DIR [GPUS]   (results: bench/results/collatz-multi-gpu.txt)
set -u
B=$1
G=${2:-$(nvidia-smi -L | wc -l)}
RES=bench/results/collatz-multi-gpu.txt
mkdir -p bench/results
export BULK_PROGRESS=0
FROM=2^68 TO=2^68+2^45 DFROM=2^64 DTO=2^64+2^36
{
    echo "# one process, CUDA backend, the range split over the visible GPUs"
    echo "# $(nvidia-smi -L | head -1) (x$G)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
    echo "# verify --from $FROM --to $TO ; delays --from $DFROM --to $DTO --stats 2^20"
    printf "%-5s %-8s %-12s %-7s %-20s %-8s %-12s %-7s %s\n" gpus v_s verify/s v_eff checksum d_s delays/s d_eff "stats sha256"
} >"$RES"
vis=0
v1=; d1=; c1=; s1=
for g in 1 2 3 4 5 6 7 8; do
    [ $g -le "$G" ] || break
    [ $g -gt 1 ] && vis="$vis,$((g - 1))"
    case $g in 1|2|4|8) ;; *) continue ;; esac
    CUDA_VISIBLE_DEVICES=$vis "$B/bulk" collatz verify --from "$FROM" --to "$TO" --backend cuda >/tmp/mv.txt 2>&1
    CUDA_VISIBLE_DEVICES=$vis "$B/bulk" collatz delays --from "$DFROM" --to "$DTO" --stats 1048576 \
        --backend cuda --out /tmp/ms.txt >/tmp/md.txt 2>&1
    vs=$(sed -n 's/^time *\([0-9.]*\) s.*/\1/p' /tmp/mv.txt)
    cov=$(sed -n 's/^covered *//p' /tmp/mv.txt)
    sum=$(sed -n 's/^checksum *//p' /tmp/mv.txt)
    ds=$(sed -n "s/.* numbers in \([0-9.]*\) s.*/\1/p" /tmp/md.txt)
    sh=$(sha256sum /tmp/ms.txt | cut -c1-16)
    [ -z "$v1" ] && v1=$vs d1=$ds c1=$sum s1=$sh
    awk -v g=$g -v vs="$vs" -v cov="$cov" -v v1="$v1" -v sum="$sum" -v ds="$ds" -v d1="$d1" -v sh="$sh" \
        -v c1="$c1" -v s1="$s1" 'BEGIN {
        n = 2^36
        printf "%-5d %-8.3f %-12.4g %-7.3f %-20s %-8.3f %-12.4g %-7.3f %s%s%s\n", g, vs, cov / vs, v1 / (g * vs),
               sum, ds, n / ds, d1 / (g * ds), sh, sum == c1 ? "" : "  CHECKSUM DIFFERS", sh == s1 ? "" : "  STATS DIFFER" }' | tee -a "$RES"
    [ -n "$vs" ] || { echo "run failed:"; cat /tmp/mv.txt /tmp/md.txt; }
done
[ -n "${OUT:-}" ] && cp "$RES" "$OUT/"
if [ -f "$B/CTestTestfile.cmake" ] && cmake --build "$B" -j"$(nproc)" --target test_collatz_gpu >/tmp/tb.log 2>&1; then
    (cd "$B" && ctest -L gpu -R collatz_gpu --output-on-failure -V) >/tmp/multi-gpu-tests.log 2>&1
    echo "ctest -L gpu -R collatz_gpu with $G GPUs visible: rc=$?"; tail -5 /tmp/multi-gpu-tests.log
    [ -n "${OUT:-}" ] && cp /tmp/multi-gpu-tests.log "$OUT/"
else
    echo "GPU test build failed or not configured:"; tail -20 /tmp/tb.log
fi
exit 0
